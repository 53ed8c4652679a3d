package io.pinmx.pin.user;

import io.pinmx.pin.node.NodeFiles;
import io.pinmx.pin.provider.LibcScheduling;
import io.pinmx.pin.provider.ProgressSlice;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Options of the user-space driver, given to {@code EndpointConfig.Builder.options(UserDriverOptions.class, ...)}.
 *
 * @param bindAddress           host address the board's endpoints bind to (and advertise).
 * @param basePort              UDP port of endpoint 0 of the board; 0 = let the kernel choose this endpoint's port
 *                              (the board's base port is then that port minus the endpoint index).
 * @param progressThread        true: a progress thread per endpoint serves pulls while the application computes;
 *                              false: progress happens only inside poll and await.
 * @param responder             without a progress thread, true: a responder thread runs the agent when the
 *                              application has not polled for a while (liveness probes answered, pulls served,
 *                              frames queued); false: nothing runs outside poll and await, and partners across
 *                              hosts judge this endpoint by silence alone.
 * @param sameHost              true: use shared-memory rings and process_vm_readv pulls for peers on this host;
 *                              false: everything goes over UDP (as between hosts).
 * @param shmDirectory          where endpoint files live (tmpfs; {@value #SHM_DIRECTORY_VARIABLE}, else /dev/shm).
 * @param framePayloadBytes     payload bytes of one PULL_REPLY or MEDIUM_FRAG frame at most; both are cut to one datagram
 *                              within the bound interface's MTU where it is known.
 * @param pullBlockFrames       PULL_REPLY frames requested by one PULL (at most 64).
 * @param pullBlocksInFlight    PULL requests outstanding per pull; the bytes of that many blocks bound what all of
 *                              the endpoint's pulls together have requested and not yet received.
 * @param pullResendTimeoutNs   a block with no request or reply for this long is requested again (missing frames
 *                              only); the wait doubles after each resend, up to 16 times this.
 * @param pullMaxRetries        resends of one block before the pull fails with TIMEOUT.
 * @param lossTxFraction        fraction of outgoing UDP frames dropped on purpose (tests), 0..1.
 * @param lossRxFraction        fraction of incoming UDP frames dropped on purpose (tests), 0..1.
 * @param lossSeed              seed of the deterministic loss sequence.
 * @param shmRingBytes          capacity of the endpoint's incoming shared-memory ring (power of two).
 * @param eventRingBytes        capacity of the endpoint's event queue (power of two).
 * @param maxRegions            regions per endpoint (at most 1024).
 * @param sharedPullMinBytes    a same-host pull of at least this many bytes is shared with the source endpoint's
 *                              agent: when that agent is polling it copies blocks from the back while the puller
 *                              copies from the front (both cores copy); 0 = the puller always copies alone.
 * @param countersFile          node-wide counters file each endpoint publishes its counters to (from its
 *                              progress agent when idle, at most every 100 ms, and at close); null: not published.
 * @param progressSliceNs       the progress thread's time slice ({@link ProgressSlice}); 0:
 *                              the kernel's default. A short one lets the thread, woken by a frame, take the CPU
 *                              from the application computing on it at once, and give it back as soon.
 */
public record UserDriverOptions(
    InetAddress bindAddress,
    int basePort,
    boolean progressThread,
    boolean responder,
    boolean sameHost,
    Path shmDirectory,
    int framePayloadBytes,
    int pullBlockFrames,
    int pullBlocksInFlight,
    long pullResendTimeoutNs,
    int pullMaxRetries,
    double lossTxFraction,
    double lossRxFraction,
    long lossSeed,
    int shmRingBytes,
    int eventRingBytes,
    int maxRegions,
    long sharedPullMinBytes,
    Path countersFile,
    long progressSliceNs)
{
    /** Largest frame payload: the datagram must stay below 64 KiB with headers. */
    public static final int MAX_FRAME_PAYLOAD_BYTES = 60 * 1024;
    /** Environment variable naming the directory of endpoint files (a tmpfs); unset or empty: /dev/shm. */
    public static final String SHM_DIRECTORY_VARIABLE = "PINMX_SHM_DIR";
    /** Shared pulls from this size up (below it the invitation and the wait for the helper's block cost more). */
    public static final long DEFAULT_SHARED_PULL_MIN_BYTES = 128 * 1024;

    /**
     * @throws IllegalArgumentException naming the first bad option.
     */
    public UserDriverOptions
    {
        if (bindAddress == null || shmDirectory == null)
        {
            throw new IllegalArgumentException("user driver options: bindAddress and shmDirectory are required");
        }
        if (basePort < 0 || basePort > 65535)
        {
            throw new IllegalArgumentException("user driver options: basePort " + basePort + " not in 0..65535");
        }
        if (framePayloadBytes < 256 || framePayloadBytes > MAX_FRAME_PAYLOAD_BYTES)
        {
            throw new IllegalArgumentException("user driver options: framePayloadBytes " + framePayloadBytes +
                " not in 256.." + MAX_FRAME_PAYLOAD_BYTES);
        }
        if (pullBlockFrames < 1 || pullBlockFrames > 64 || pullBlocksInFlight < 1 || pullBlocksInFlight > 64)
        {
            throw new IllegalArgumentException("user driver options: pullBlockFrames " + pullBlockFrames +
                " and pullBlocksInFlight " + pullBlocksInFlight + " must be in 1..64");
        }
        if (pullResendTimeoutNs < 1_000 || pullMaxRetries < 0)
        {
            throw new IllegalArgumentException("user driver options: pullResendTimeoutNs " + pullResendTimeoutNs +
                " must be >= 1000 and pullMaxRetries " + pullMaxRetries + " >= 0");
        }
        if (!(lossTxFraction >= 0 && lossTxFraction <= 1 && lossRxFraction >= 0 && lossRxFraction <= 1))
        {
            throw new IllegalArgumentException("user driver options: loss fractions " + lossTxFraction + ", " +
                lossRxFraction + " not in 0..1");
        }
        if (Integer.bitCount(shmRingBytes) != 1 || shmRingBytes < 64 * 1024 ||
            Integer.bitCount(eventRingBytes) != 1 || eventRingBytes < 256 * 1024)
        {
            throw new IllegalArgumentException("user driver options: shmRingBytes " + shmRingBytes +
                " (>= 64 KiB) and eventRingBytes " + eventRingBytes + " (>= 256 KiB) must be powers of two");
        }
        if (maxRegions < 1 || maxRegions > RegionTable.MAX_REGIONS)
        {
            throw new IllegalArgumentException("user driver options: maxRegions " + maxRegions + " not in 1.." +
                RegionTable.MAX_REGIONS);
        }
        if (sharedPullMinBytes < 0)
        {
            throw new IllegalArgumentException("user driver options: sharedPullMinBytes " + sharedPullMinBytes +
                " must be >= 0");
        }
        if (!ProgressSlice.isValid(progressSliceNs))
        {
            throw new IllegalArgumentException("user driver options: progressSliceNs " + progressSliceNs +
                " not 0 (the kernel's default) nor in " + LibcScheduling.MIN_SLICE_NS + ".." +
                LibcScheduling.MAX_SLICE_NS);
        }
    }

    /**
     * Loopback, kernel-chosen port, progress thread, same-host path on, endpoint files in
     * {@link #shmDirectory(Map) this process's directory}, 8 KiB frames, no loss, counters published to
     * {@link NodeFiles#countersFile()}, the progress thread's {@link ProgressSlice#fromEnvironment slice}.
     *
     * @throws IllegalArgumentException naming {@value #SHM_DIRECTORY_VARIABLE} if it is set to something other than a
     *                                  directory, or {@value ProgressSlice#VARIABLE} if out of range.
     */
    public static UserDriverOptions defaults()
    {
        return new UserDriverOptions(InetAddress.getLoopbackAddress(), 0, true, true, true,
            shmDirectory(System.getenv()), 8192, 32, 4, 20_000_000L, 20, 0, 0, 1, 1 << 20, 4 << 20,
            RegionTable.MAX_REGIONS, DEFAULT_SHARED_PULL_MIN_BYTES, NodeFiles.countersFile(),
            ProgressSlice.fromEnvironment(System.getenv()));
    }

    /**
     * @param env the environment to read.
     * @return the directory of endpoint files: {@value #SHM_DIRECTORY_VARIABLE} if set and not empty, else /dev/shm.
     * @throws IllegalArgumentException naming the variable if it is set to something other than a directory.
     */
    public static Path shmDirectory(final Map<String, String> env)
    {
        final String value = env.get(SHM_DIRECTORY_VARIABLE);
        if (null == value || value.isEmpty())
        {
            return Path.of("/dev/shm");
        }
        final Path directory = Path.of(value);
        if (!Files.isDirectory(directory))
        {
            throw new IllegalArgumentException(SHM_DIRECTORY_VARIABLE + "=" + value + " is not a directory");
        }
        return directory;
    }

    /**
     * @param sliceNs the progress thread's time slice; 0: the kernel's default.
     * @return these options with that slice.
     */
    public UserDriverOptions withProgressSliceNs(final long sliceNs)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile,
            sliceNs);
    }

    public UserDriverOptions withShmDirectory(final Path directory)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, directory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    /**
     * @param file node-wide counters file to publish to; null: do not publish.
     * @return these options with that counters file.
     */
    public UserDriverOptions withCountersFile(final Path file)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, file,
            progressSliceNs);
    }

    public UserDriverOptions withBind(final InetAddress address, final int port)
    {
        return new UserDriverOptions(address, port, progressThread, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    public UserDriverOptions withProgressThread(final boolean enabled)
    {
        return new UserDriverOptions(bindAddress, basePort, enabled, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    public UserDriverOptions withResponder(final boolean enabled)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, enabled, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    public UserDriverOptions withSameHost(final boolean enabled)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, enabled, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    public UserDriverOptions withLoss(final double txFraction, final double rxFraction, final long seed)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, txFraction,
            rxFraction, seed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    public UserDriverOptions withPullResend(final long resendTimeoutNs, final int maxRetries)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, resendTimeoutNs, maxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    public UserDriverOptions withRingBytes(final int shmRing, final int eventRing)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRing, eventRing, maxRegions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    public UserDriverOptions withFramePayloadBytes(final int bytes)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, shmDirectory, bytes,
            pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction, lossRxFraction,
            lossSeed, shmRingBytes, eventRingBytes, maxRegions, sharedPullMinBytes, countersFile, progressSliceNs);
    }

    public UserDriverOptions withMaxRegions(final int regions)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, regions, sharedPullMinBytes, countersFile,
            progressSliceNs);
    }

    public UserDriverOptions withSharedPullMinBytes(final long bytes)
    {
        return new UserDriverOptions(bindAddress, basePort, progressThread, responder, sameHost, shmDirectory,
            framePayloadBytes, pullBlockFrames, pullBlocksInFlight, pullResendTimeoutNs, pullMaxRetries, lossTxFraction,
            lossRxFraction, lossSeed, shmRingBytes, eventRingBytes, maxRegions, bytes, countersFile, progressSliceNs);
    }

    /** Bytes one PULL request asks for. */
    public long pullBlockBytes()
    {
        return (long)pullBlockFrames * framePayloadBytes;
    }
}
