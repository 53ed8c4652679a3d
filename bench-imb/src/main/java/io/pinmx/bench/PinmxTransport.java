package io.pinmx.bench;

import io.pinmx.job.EndpointTuning;
import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;
import io.pinmx.job.RankBinding;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.ProgressMode;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptionKeys;
import io.pinmx.pin.spi.ProviderOptions;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;

/**
 * pinmx itself: the job's endpoints ({@link JobEndpoint}: one per rank, connected to every other rank), all
 * messages with match info 0 matched exactly by source (so in send order). PINMX_DRIVER (user, kernel or auto;
 * default user) chooses the driver; the kernel one binds to lo.
 * <p>
 * Progress is driven by the caller ({@link ProgressMode#CALLER}): no progress thread, the driver runs none
 * either, so the benchmark thread is the only thread of the process that works. It waits for a request by
 * polling it ({@link Request#test()}, one round of progress each) without ever parking. An eager send
 * completes only when its ack comes back (except one of up to 128 B in a same-host peer's ring), so the peer must keep making progress while it waits anywhere
 * else: the job endpoint gives the job a progress hook, and the job's control plane (barriers, gathers) polls
 * the endpoint while it waits for a peer's control message.
 */
public final class PinmxTransport implements Transport
{
    /** Overrides the user driver's {@code sharedPullMinBytes} (0: a receiver copies alone), to compare in one build. */
    static final String SHARED_PULL_MIN_BYTES_VARIABLE = "PINMX_SHARED_PULL_MIN_BYTES";
    private static final long MATCH_INFO = 0;
    private static final long MATCH_ALL_BITS = -1L;
    private static final Duration MESSAGE_TIMEOUT = Duration.ofSeconds(120);
    private static final int MAX_POSTED = 256;
    /** How often a poll loop reads the clock for its deadline (a power of two). */
    private static final int POLLS_PER_CLOCK_CHECK = 1 << 16;

    private final int rank;
    private final JobEndpoint ranks;
    private final Endpoint endpoint;
    private final String progress;
    private final RankBinding binding;
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.busyPolling();
    private final SegmentSlices slices = new SegmentSlices();
    private final Request[] posted = new Request[MAX_POSTED];
    private final int[] postedBytes = new int[MAX_POSTED];
    private int postedCount;

    private PinmxTransport(final JobEndpoint ranks, final String progress, final RankBinding binding)
    {
        this.rank = ranks.job().rank();
        this.ranks = ranks;
        this.endpoint = ranks.endpoint();
        this.progress = progress;
        this.binding = binding;
    }

    /**
     * How an endpoint differs from the library's defaults beyond what the environment chooses.
     *
     * @param driverOptions        provider options by key beyond the transport's own (the kernel provider's pin
     *                             mode and pulls on the wire, used when PINMX_DRIVER picks it; the user driver's
     *                             shared pulls).
     * @param regionCacheMaxBytes  region cache capacity in declared bytes; 0 turns the cache off.
     */
    public record Tuning(ProviderOptions driverOptions, long regionCacheMaxBytes) implements EndpointTuning
    {
        /** The providers' and the library's defaults. */
        public static Tuning defaults()
        {
            return new Tuning(ProviderOptions.none(), EndpointOptions.builder().build().regionCacheMaxBytes());
        }

        /** These, with {@code PINMX_SHARED_PULL_MIN_BYTES} of {@code env} if set. */
        Tuning withEnvironment(final Map<String, String> env)
        {
            final String value = env.get(SHARED_PULL_MIN_BYTES_VARIABLE);
            if (null == value || value.isEmpty())
            {
                return this;
            }
            try
            {
                final long bytes = Long.parseLong(value);
                if (bytes >= 0)
                {
                    return new Tuning(driverOptions.with(ProviderOptionKeys.USER_SHARED_PULL_MIN_BYTES, bytes),
                        regionCacheMaxBytes);
                }
            }
            catch (final NumberFormatException ignored)
            {
                // named below
            }
            throw new IllegalArgumentException(SHARED_PULL_MIN_BYTES_VARIABLE + "=" + value +
                ": not a byte count >= 0");
        }

        @Override
        public void driverConfig(final EndpointConfig.Builder config)
        {
            // No node-wide counter publication: a poll-driven endpoint would publish only at close anyway, and
            // opening the Chronicle Map compiles generated code at run time, which keeps the C2 compiler busy for
            // seconds while sizes are being timed.
            config.option(ProviderOptionKeys.USER_PROGRESS_THREAD, false)
                .option(ProviderOptionKeys.USER_PUBLISH_COUNTERS, false)
                .options(driverOptions);
        }

        @Override
        public void options(final EndpointOptions.Builder options)
        {
            // The library's ack delay: an ack rides on the reply, or goes out at the first progress round that finds
            // nothing to do; acking every message at once (ackDelayNs 0) would cost an ACK frame per message.
            options.progressMode(ProgressMode.CALLER)
                .regionCacheMaxBytes(regionCacheMaxBytes);
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
     * @throws IllegalArgumentException naming PINMX_DRIVER if it asks for a driver that cannot run here,
     *                                  PINMX_PEER_TIMEOUT_MS if it is not a positive number, PINMX_BIND if it
     *                                  is neither core nor none ({@link RankBinding}), or
     *                                  PINMX_SHARED_PULL_MIN_BYTES if it is not a byte count >= 0.
     */
    public static PinmxTransport open(final Job job, final Map<String, String> env, final Tuning tuning)
    {
        final RankBinding binding = RankBinding.bind(job, env);
        final JobEndpoint ranks;
        try
        {
            ranks = JobEndpoint.open(job, env, tuning.withEnvironment(env));
        }
        catch (final RuntimeException ex)
        {
            binding.close();
            throw ex;
        }
        final String description = "pinmx: " + driverSummary(ranks.driverEndpoint().info().providerName(),
            ranks.driverEndpoint().providerOptions()) + "; caller-driven progress, 1 thread per process: the " +
            "benchmark thread polls the endpoint (busy, never parks, yields the core every " +
            BackoffThenBlockIdleStrategy.POLLS_PER_YIELD + " empty polls), also while it waits at the job's " +
            "barriers; peer timeout " + ranks.endpoint().options().peerTimeoutNs() / 1_000_000 + " ms (" +
            JobEndpoint.PEER_TIMEOUT_VARIABLE + "); " + binding.description();
        return new PinmxTransport(ranks, description, binding);
    }

    /**
     * @param provider the driver in use ({@code DriverInfo.providerName()}).
     * @param options  the options its endpoint runs with ({@code DriverEndpoint.providerOptions()}).
     * @return the driver in use and the few of its options that decide what is measured, in a fixed order.
     */
    static String driverSummary(final String provider, final ProviderOptions options)
    {
        if ("kernel".equals(provider))
        {
            return "kernel driver (pinmx.ko on " +
                options.get(ProviderOptionKeys.KERNEL_INTERFACE, String.class).orElse("?") + ", pin mode " +
                options.get(ProviderOptionKeys.KERNEL_PIN_MODE, String.class).orElse("?") + ", pulls " +
                (options.get(ProviderOptionKeys.KERNEL_PULLS_ON_WIRE, Boolean.class).orElse(false) ? "as frames" :
                    "copied on one interface") + ")";
        }
        if ("user".equals(provider))
        {
            return "user driver (UDP" + options.get(ProviderOptionKeys.USER_BIND_ADDRESS, InetAddress.class)
                .map(address -> " on " + address.getHostAddress()).orElse("") +
                (options.get(ProviderOptionKeys.USER_SAME_HOST, Boolean.class).orElse(false) ?
                    " and same-host shared memory" : "") +
                ", frame payloads " + options.get(ProviderOptionKeys.USER_FRAME_PAYLOAD_BYTES, Integer.class)
                .map(String::valueOf).orElse("?") +
                " B, shared pulls from " + options.get(ProviderOptionKeys.USER_SHARED_PULL_MIN_BYTES, Long.class)
                .map(String::valueOf).orElse("?") + " B, " +
                (options.get(ProviderOptionKeys.USER_PROGRESS_THREAD, Boolean.class).orElse(false) ?
                    "its own progress thread" : "no progress thread of its own") + ")";
        }
        return provider + " driver";
    }

    /**
     * Reads the provider's counters of the whole module (pinmx.ko's, covering both ranks of a one-host job) through
     * this rank's endpoint.
     *
     * @return the counters by name; empty when the provider keeps none (the user driver).
     */
    public Map<String, Long> moduleCounters()
    {
        return ranks.driverEndpoint().moduleCounters();
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
     * Polls the request (each test is one round of progress) until it is done, busy, never parking, yielding the
     * core every {@link BackoffThenBlockIdleStrategy#POLLS_PER_YIELD} empty polls
     * ({@link BackoffThenBlockIdleStrategy#busyPolling}); checks the clock every {@link #POLLS_PER_CLOCK_CHECK} polls;
     * gives up after MESSAGE_TIMEOUT and leaves the request for awaitOrThrow to report.
     */
    private void poll(final Request request)
    {
        if (request.test())
        {
            return;
        }
        final long deadline = System.nanoTime() + MESSAGE_TIMEOUT.toNanos();
        idle.reset();
        int polls = 0;
        while (!request.test())
        {
            idle.idle();
            if (0 == (++polls & (POLLS_PER_CLOCK_CHECK - 1)) && System.nanoTime() - deadline > 0)
            {
                return;
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
        return ranks.partner(peer);
    }

    @Override
    public void close()
    {
        try
        {
            ranks.close();
        }
        finally
        {
            binding.close();
        }
    }
}
