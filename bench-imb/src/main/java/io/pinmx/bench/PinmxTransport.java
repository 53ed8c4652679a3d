package io.pinmx.bench;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.mx.Partner;
import io.pinmx.mx.ProgressMode;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.select.DriverSelector;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.user.UserDriverOptions;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * pinmx itself: one endpoint of the endpoint library (io.pinmx.mx) per rank, connected to every other rank,
 * all messages with match info 0 matched exactly by source (so in send order). PINMX_DRIVER (user, kernel or
 * auto; default user) chooses the driver through pin-service's DriverSelector; the kernel one binds to lo.
 * <p>
 * Progress is driven by the caller ({@link ProgressMode#CALLER}): no progress thread, the driver runs none
 * either, so the benchmark thread is the only thread of the process that works. It waits for a request by
 * polling it ({@link Request#test()}, one round of progress each) without ever parking. An eager send
 * completes only when its ack comes back, so the peer must keep making progress while it waits anywhere
 * else: the transport gives the job a progress hook, and the job's control plane (barriers, gathers) polls
 * the endpoint while it waits for a peer's control message.
 */
public final class PinmxTransport implements Transport
{
    /** The selector's variable (user, kernel or auto); unset means user here. */
    public static final String DRIVER_VARIABLE = DriverSelector.VARIABLE;
    /** "core" (default): bind the benchmark thread to one CPU per rank while this transport is open; "none": don't. */
    public static final String BIND_VARIABLE = "PINMX_BIND";
    /**
     * Milliseconds a partner may stay silent while this rank waits on it before the endpoint gives it up (library
     * default 5000). Runs in the TCG guest need more: a rank there can be silent for over 5 s in JIT warm-up.
     */
    public static final String PEER_TIMEOUT_VARIABLE = "PINMX_PEER_TIMEOUT_MS";
    /** Resend interval of unacknowledged frames (the library's default); the peer timeout is a multiple of it. */
    private static final long RESEND_TIMEOUT_NS = 20_000_000L;
    private static final int APPLICATION_KEY = 0x706d7862;
    private static final long MATCH_INFO = 0;
    private static final long MATCH_ALL_BITS = -1L;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration MESSAGE_TIMEOUT = Duration.ofSeconds(120);
    private static final int MAX_POSTED = 256;
    /** Power of two: empty polls of a waiting request between two yields of the core. */
    static final int POLLS_PER_YIELD = 64;
    /** Acks owed are sent after this long if no data rides back first (library default 200 us). */
    private static final long ACK_DELAY_NS = 0;

    private final Job job;
    private final int rank;
    private final Endpoint endpoint;
    private final Partner[] partners;
    private final String progress;
    private final CpuBinding binding;
    private final DriverEndpoint driverEndpoint;
    private final SegmentSlices slices = new SegmentSlices();
    private final Request[] posted = new Request[MAX_POSTED];
    private final int[] postedBytes = new int[MAX_POSTED];
    private int postedCount;

    private PinmxTransport(
        final Job job, final Endpoint endpoint, final Partner[] partners, final String progress, final CpuBinding binding,
        final DriverEndpoint driverEndpoint)
    {
        this.job = job;
        this.rank = job.rank();
        this.endpoint = endpoint;
        this.partners = partners;
        this.progress = progress;
        this.binding = binding;
        this.driverEndpoint = driverEndpoint;
    }

    /**
     * How an endpoint differs from the library's defaults beyond what the environment chooses.
     *
     * @param kernelOptions        options of the kernel provider (pin mode, pulls on the wire), used when
     *                             PINMX_DRIVER picks it.
     * @param regionCacheMaxBytes  region cache capacity in declared bytes; 0 turns the cache off.
     */
    public record Tuning(KernelDriverOptions kernelOptions, long regionCacheMaxBytes)
    {
        /** The kernel provider's and the library's defaults. */
        public static Tuning defaults()
        {
            return new Tuning(KernelDriverOptions.defaults(), EndpointOptions.builder().build().regionCacheMaxBytes());
        }
    }

    /**
     * @throws IllegalArgumentException naming PINMX_DRIVER if it asks for a driver that cannot run here.
     */
    public static PinmxTransport open(final Job job, final Map<String, String> env)
    {
        return open(job, env, Tuning.defaults());
    }

    /**
     * @throws IllegalArgumentException naming PINMX_DRIVER if it asks for a driver that cannot run here, or
     *                                  PINMX_PEER_TIMEOUT_MS if it is not a positive number.
     */
    public static PinmxTransport open(final Job job, final Map<String, String> env, final Tuning tuning)
    {
        final String driver = env.getOrDefault(DRIVER_VARIABLE, "user");
        final PinDriver selected;
        try
        {
            selected = DriverSelector.select(driver, DRIVER_VARIABLE + "=" + driver);
        }
        catch (final DriverException ex)
        {
            throw new IllegalArgumentException(ex.getMessage(), ex);
        }
        // Keeps the provider's endpoint itself (not wrapped) so module counters can be read through it.
        final DriverEndpoint[] opened = new DriverEndpoint[1];
        final PinDriver pinDriver = new PinDriver()
        {
            @Override
            public DriverInfo info()
            {
                return selected.info();
            }

            @Override
            public DriverEndpoint open(final EndpointConfig config)
            {
                opened[0] = selected.open(config);
                return opened[0];
            }
        };
        final long peerTimeoutMs = peerTimeoutMs(env);
        final String bind = env.getOrDefault(BIND_VARIABLE, "core");
        if (!"core".equals(bind) && !"none".equals(bind))
        {
            throw new IllegalArgumentException(BIND_VARIABLE + "=" + bind + ": expected core or none");
        }
        // No node-wide counter publication: a poll-driven endpoint would publish only at close anyway, and
        // opening the Chronicle Map compiles generated code at run time, which kept this host's C2 compiler busy
        // for seconds (5 s of C2 CPU in one 2-rank run, measured with perf sched) while sizes were being timed.
        final UserDriverOptions driverOptions = UserDriverOptions.defaults().withProgressThread(false)
            .withCountersFile(null);
        final EndpointOptions options = EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder()
                .boardIndex(0)
                .endpointIndex(job.rank() % (EndpointAddress.MAX_ENDPOINT_INDEX + 1))
                .options(UserDriverOptions.class, driverOptions)
                .options(KernelDriverOptions.class, tuning.kernelOptions())
                .build())
            .applicationKey(APPLICATION_KEY)
            .progressMode(ProgressMode.CALLER)
            .ackDelayNs(ACK_DELAY_NS)
            .resendTimeoutNs(RESEND_TIMEOUT_NS)
            .maxResends((int)Math.max(0, (peerTimeoutMs * 1_000_000L + RESEND_TIMEOUT_NS - 1) / RESEND_TIMEOUT_NS - 1))
            .regionCacheMaxBytes(tuning.regionCacheMaxBytes())
            .build();
        final boolean bindToCore = "core".equals(bind) && job.size() <= CpuBinding.allowedCpusOfThisThread();
        final CpuBinding binding = bindToCore ? CpuBinding.bindCurrentThread(job.rank()) : null;
        final Endpoint endpoint;
        try
        {
            endpoint = Endpoint.open(pinDriver, options);
        }
        catch (final RuntimeException ex)
        {
            if (null != binding)
            {
                binding.close();
            }
            throw ex;
        }
        final Status probed = new Status();
        job.progressHook(() -> endpoint.iprobe(MatchInfo.ANY_SOURCE, MATCH_INFO, MATCH_ALL_BITS, probed));
        try
        {
            final EndpointAddress local = endpoint.address();
            final List<byte[]> addresses = job.allGather(
                (local.board() + " " + local.endpointIndex()).getBytes(StandardCharsets.US_ASCII));
            final Partner[] partners = new Partner[job.size()];
            for (int peer = 0; peer < job.size(); peer++)
            {
                if (peer != job.rank())
                {
                    partners[peer] = endpoint.connect(remote(addresses.get(peer)), APPLICATION_KEY, CONNECT_TIMEOUT);
                }
            }
            job.barrier();
            final String description = "pinmx: " + driver + " driver, " + endpoint.options().driverConfig() +
                "; caller-driven progress, 1 thread per process: the benchmark thread polls the endpoint (busy, " +
                "never parks, yields the core every " + POLLS_PER_YIELD + " empty polls), also while it waits at " +
                "the job's barriers; peer timeout " + options.peerTimeoutNs() / 1_000_000 + " ms (" +
                PEER_TIMEOUT_VARIABLE + "); " + (null != binding ?
                    "that thread is bound to CPU " + binding.cpu() + " (rank " + job.rank() + " of " + job.size() +
                    ", " + binding.allowedCpus() + " CPUs allowed; " + BIND_VARIABLE + "=none leaves it unbound)" :
                    "that thread is not bound to a CPU (" + ("none".equals(bind) ? BIND_VARIABLE + "=none" :
                        job.size() + " ranks, " + CpuBinding.allowedCpusOfThisThread() + " CPUs allowed") + ")");
            return new PinmxTransport(job, endpoint, partners, description, binding, opened[0]);
        }
        catch (final RuntimeException ex)
        {
            job.progressHook(null);
            endpoint.close();
            if (null != binding)
            {
                binding.close();
            }
            throw ex;
        }
    }

    static long peerTimeoutMs(final Map<String, String> env)
    {
        final String value = env.getOrDefault(PEER_TIMEOUT_VARIABLE, "5000");
        try
        {
            final long ms = Long.parseLong(value);
            if (ms > 0 && ms <= Integer.MAX_VALUE)
            {
                return ms;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // named below
        }
        throw new IllegalArgumentException(PEER_TIMEOUT_VARIABLE + "=" + value + ": expected milliseconds, 1.." +
            Integer.MAX_VALUE);
    }

    /**
     * Reads pinmx.ko's module-wide counters (both ranks of a one-host job) through this rank's kernel endpoint.
     *
     * @param into at least 64 longs, indexed by {@link io.pinmx.pin.kernel.KernelCounter#ordinal()}.
     * @return false, leaving {@code into} alone, when the endpoint is not the kernel provider's.
     */
    public boolean moduleCounters(final long[] into)
    {
        if (driverEndpoint instanceof KernelEndpoint kernel)
        {
            kernel.moduleCounters(into);
            return true;
        }
        return false;
    }

    private static EndpointAddress remote(final byte[] published)
    {
        final String[] parts = new String(published, StandardCharsets.US_ASCII).split(" ");
        return new EndpointAddress(BoardAddress.parse(parts[0]), Integer.parseInt(parts[1]), 0);
    }

    @Override
    public String name()
    {
        return "pinmx";
    }

    @Override
    public String progress()
    {
        return progress;
    }

    @Override
    public void send(final int peer, final MemorySegment buffer, final int bytes)
    {
        final Request request = endpoint.isend(partner(peer), MATCH_INFO, slices.prefix(buffer, bytes));
        poll(request);
        request.awaitOrThrow(MESSAGE_TIMEOUT);
        request.release();
    }

    @Override
    public void recv(final int peer, final MemorySegment buffer, final int bytes)
    {
        final Request request = endpoint.irecv(partner(peer).id(), MATCH_INFO, MATCH_ALL_BITS, slices.prefix(buffer, bytes));
        poll(request);
        final Status done = request.awaitOrThrow(MESSAGE_TIMEOUT);
        checkLength(peer, done, bytes);
        request.release();
    }

    /**
     * Polls the request (each test is one round of progress) until it is done, busy, never parking; gives up
     * after MESSAGE_TIMEOUT and leaves the request for awaitOrThrow to report. Yields every
     * {@link #POLLS_PER_YIELD} polls: on 2 cores with 2 spinning ranks, a third runnable thread (the JIT, the GC,
     * another process) would otherwise take a core from a spinner for a whole scheduler slice (milliseconds, seen
     * as half round trips of 4-16 ms), while a yield hands it the core at once and costs well under a microsecond.
     */
    static void poll(final Request request)
    {
        if (request.test())
        {
            return;
        }
        final long deadline = System.nanoTime() + MESSAGE_TIMEOUT.toNanos();
        int polls = 0;
        while (!request.test())
        {
            if (0 == (++polls & (POLLS_PER_YIELD - 1)))
            {
                Thread.yield();
                if (0 == (polls & 0xFFFF) && System.nanoTime() - deadline > 0)
                {
                    return;
                }
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public void postSend(final int peer, final MemorySegment buffer, final int bytes)
    {
        checkRoom();
        postedBytes[postedCount] = -1;
        posted[postedCount++] = endpoint.isend(partner(peer), MATCH_INFO, slices.prefix(buffer, bytes));
    }

    @Override
    public void postRecv(final int peer, final MemorySegment buffer, final int bytes)
    {
        checkRoom();
        postedBytes[postedCount] = bytes;
        posted[postedCount++] = endpoint.irecv(partner(peer).id(), MATCH_INFO, MATCH_ALL_BITS, slices.prefix(buffer, bytes));
    }

    @Override
    public void awaitPosted()
    {
        try
        {
            for (int i = 0; i < postedCount; i++)
            {
                final Request request = posted[i];
                poll(request);
                final Status done = request.awaitOrThrow(MESSAGE_TIMEOUT);
                if (postedBytes[i] >= 0)
                {
                    checkLength(request.status().source(), done, postedBytes[i]);
                }
                request.release();
                posted[i] = null;
            }
        }
        finally
        {
            postedCount = 0;
        }
    }

    private void checkRoom()
    {
        if (postedCount == MAX_POSTED)
        {
            throw new IllegalStateException("more than " + MAX_POSTED + " operations posted at once");
        }
    }

    private void checkLength(final int source, final Status done, final int expectedBytes)
    {
        if (done.messageLength() != expectedBytes)
        {
            throw new IllegalStateException("pinmx transport: rank " + rank + " expected " + expectedBytes +
                " B and got a message of " + done.messageLength() + " B from partner " + source);
        }
    }

    private Partner partner(final int peer)
    {
        if (peer < 0 || peer >= partners.length || null == partners[peer])
        {
            throw new IllegalArgumentException("peer " + peer + " is not another rank of this job of " + partners.length);
        }
        return partners[peer];
    }

    @Override
    public void close()
    {
        job.progressHook(null);
        try
        {
            endpoint.close();
        }
        finally
        {
            if (null != binding)
            {
                binding.close();
            }
        }
    }
}
