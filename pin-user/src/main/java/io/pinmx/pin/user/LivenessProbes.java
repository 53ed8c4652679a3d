package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.provider.ProcessStatus;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.PeerLiveness;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;

/**
 * The user driver's answer to {@link io.pinmx.pin.spi.DriverEndpoint#checkLiveness}, and both ends of its liveness
 * probes.
 * <p>
 * On this host it is exact: the remote endpoint's owner process, from its endpoint file (or from a probe answer
 * when it has none), runs or has exited ({@link ProcessStatus}); a closed or removed file or another session at the
 * port means the endpoint is gone. (A same-host endpoint without a file, closed while its process lives on, counts
 * as alive: its goodbye frames tell the library instead.) Across hosts a probe is a {@link #DATAGRAM_BYTES}-byte
 * datagram (no MXoE frame is that short) that the remote endpoint's agent answers whoever runs it: its progress
 * thread, a caller polling, or the agent's responder when the application has not polled for a while; how long ago
 * it last answered is what the library weighs against its peer timeout.
 * <p>
 * Datagram, big-endian: magic (long), type (int: probe or answer), the sender's endpoint index, session and pid
 * (ints), then the CRC32C of those 24 bytes (checked by the dispatcher). Its content is fixed per endpoint, so both
 * are built once. Remote state is kept per remote socket address
 * under this object's monitor (probes go out from the library's thread, answers come in on the agent).
 */
final class LivenessProbes
{
    /** The fields, then their CRC32C: a damaged probe or answer is dropped, not believed. */
    static final int DATAGRAM_BYTES = 24 + FrameChecksum.CHECK_BYTES;
    static final long MAGIC = 0x50494E4D584C4956L;
    static final int PROBE = 1;
    private static final int ANSWER = 2;
    private static final long PROBE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final UdpTransport udp;
    private final DriverCounters counters;
    private final Path shmDirectory;
    private final MemorySegment probe;
    private final MemorySegment answer;
    private final HashMap<InetSocketAddress, Remote> remotes = new HashMap<>();

    /** What is known of one remote endpoint. */
    private static final class Remote
    {
        long probedAtNs;
        long answeredAtNs;
        int answeredSession;
        int pid;
        long startTime = ProcessStatus.EXITED;
        /** Its endpoint file was seen: the file's removal means the endpoint closed. */
        boolean hadFile;
    }

    /**
     * @param shmDirectory where same-host endpoint files live.
     */
    LivenessProbes(
        final Arena arena, final UdpTransport udp, final DriverCounters counters, final Path shmDirectory,
        final int endpointIndex, final int sessionId)
    {
        this.udp = udp;
        this.counters = counters;
        this.shmDirectory = shmDirectory;
        final FrameChecksum checksum = new FrameChecksum();
        this.probe = datagram(arena, checksum, PROBE, endpointIndex, sessionId);
        this.answer = datagram(arena, checksum, ANSWER, endpointIndex, sessionId);
    }

    /** @return whether the {@code length} bytes at {@code offset} are a probe or an answer. */
    static boolean isProbeDatagram(final MemorySegment buffer, final long offset, final int length)
    {
        return length == DATAGRAM_BYTES && buffer.get(LONG, offset) == MAGIC;
    }

    /** Agent: a probe or answer received from {@code source}. */
    void onDatagram(final MemorySegment buffer, final long offset, final InetSocketAddress source)
    {
        final int type = buffer.get(INT, offset + 8);
        if (type == PROBE)
        {
            send(answer, source);
            counters.increment(Counter.LIVENESS_PROBES_ANSWERED);
        }
        else if (type == ANSWER)
        {
            final int session = buffer.get(INT, offset + 16);
            final int pid = buffer.get(INT, offset + 20);
            synchronized (this)
            {
                final Remote remote = remotes.get(source);
                if (remote != null)
                {
                    remote.answeredAtNs = System.nanoTime();
                    remote.answeredSession = session;
                    if (remote.pid != pid)
                    {
                        remote.pid = pid;
                        remote.startTime = ProcessStatus.EXITED;
                    }
                }
            }
        }
    }

    /**
     * @param peer          the remote board.
     * @param endpointIndex the remote endpoint.
     * @param sessionId     the session connected to.
     */
    synchronized PeerLiveness check(
        final UdpPeer peer, final int endpointIndex, final int sessionId, final PeerLiveness out)
    {
        final InetSocketAddress to = peer.socketAddress(endpointIndex);
        final Remote remote = remotes.computeIfAbsent(to, ignored -> new Remote());
        final long nowNs = System.nanoTime();
        if (peer.isSameHost())
        {
            final PeerLiveness exact = checkOnThisHost(remote, to.getPort(), sessionId, out);
            if (exact != null)
            {
                return exact;
            }
        }
        if (remote.probedAtNs == 0 || nowNs - remote.probedAtNs >= PROBE_INTERVAL_NS)
        {
            remote.probedAtNs = nowNs;
            send(probe, to);
            counters.increment(Counter.LIVENESS_PROBES_SENT);
        }
        if (remote.answeredAtNs == 0)
        {
            return out.unknown(remote.pid);
        }
        return remote.answeredSession == sessionId ? out.unknown(remote.pid, nowNs - remote.answeredAtNs) :
            out.gone(remote.pid, "another endpoint (session " + Integer.toHexString(remote.answeredSession) +
                ") answers at its address " + to);
    }

    /** @return the exact answer, or null when this host does not know the endpoint's process (yet). */
    private PeerLiveness checkOnThisHost(
        final Remote remote, final int port, final int sessionId, final PeerLiveness out)
    {
        final EndpointFile.Owner owner = EndpointFile.readOwner(shmDirectory, port);
        if (owner != null)
        {
            if (owner.sessionId() != sessionId)
            {
                return out.gone(remote.pid, remote.pid != 0 && remote.pid != owner.pid() ?
                    "its process " + remote.pid + " is gone and process " + owner.pid() + " holds its port " + port :
                    "its endpoint closed and another (session " + Integer.toHexString(owner.sessionId()) +
                        ") holds its port " + port);
            }
            adopt(remote, owner.pid());
            remote.hadFile = true;
            if (!owner.open())
            {
                return closedOrExited(remote, out);
            }
        }
        else if (remote.hadFile)
        {
            return closedOrExited(remote, out);
        }
        if (remote.pid == 0)
        {
            return null;
        }
        if (remote.startTime == ProcessStatus.EXITED)
        {
            remote.startTime = ProcessStatus.startTime(remote.pid);
        }
        return ProcessStatus.runs(remote.pid, remote.startTime) ? out.alive(remote.pid) :
            out.gone(remote.pid, "its process " + remote.pid + " exited");
    }

    private static PeerLiveness closedOrExited(final Remote remote, final PeerLiveness out)
    {
        return ProcessStatus.runs(remote.pid, remote.startTime) ? out.gone(remote.pid, "it closed its endpoint") :
            out.gone(remote.pid, "its process " + remote.pid + " exited");
    }

    private static void adopt(final Remote remote, final int pid)
    {
        if (remote.pid != pid)
        {
            remote.pid = pid;
            remote.startTime = ProcessStatus.startTime(pid);
        }
    }

    private void send(final MemorySegment datagram, final InetSocketAddress to)
    {
        try
        {
            udp.sendDatagram(datagram, to);
        }
        catch (final IOException | RuntimeException e)
        {
            // A probe or answer is best effort: the next check sends another, and silence decides meanwhile.
        }
    }

    private static MemorySegment datagram(
        final Arena arena, final FrameChecksum checksum, final int type, final int endpointIndex, final int sessionId)
    {
        final MemorySegment datagram = arena.allocate(DATAGRAM_BYTES, 8);
        datagram.set(LONG, 0, MAGIC);
        datagram.set(INT, 8, type);
        datagram.set(INT, 12, endpointIndex);
        datagram.set(INT, 16, sessionId);
        datagram.set(INT, 20, Libc.pid());
        checksum.stampTrailer(datagram.address(), DATAGRAM_BYTES - FrameChecksum.CHECK_BYTES);
        return datagram;
    }
}
