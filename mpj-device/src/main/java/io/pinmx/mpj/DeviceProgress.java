package io.pinmx.mpj;

import io.pinmx.job.EndpointTuning;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.PollIdle;
import io.pinmx.mx.ProgressMode;
import io.pinmx.mx.Request;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptionKeys;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How the device's endpoint makes progress and how a waiting MPJ call waits, chosen per job by
 * {@value #VARIABLE}:
 * <ul>
 *   <li>{@code caller} (default, the endpoint's INVOKER threading mode): no progress thread, in the library or the
 *   driver; the thread that waits runs the endpoint's rounds in the endpoint's own wait, busy without yielding
 *   ({@link PollIdle#BUSY_SPIN}), for up to 50 us (about what a
 *   blocked wake-up costs, so a wait costs at most twice the better choice) while such polls pay
 *   ({@link SpinBudget}), then blocks in the endpoint (short, because on a shared host a rank whose partner lost its core
 *   does better to give its own up than to spin through its slice); acks go out at once (no ack delay). One
 *   runnable thread per rank, and no blocking wake-up on the path of a reply that comes within the spin. MPI
 *   asks no more: a rank that computes between an Isend and its Wait lets a partner pull its data only when it next
 *   calls MPJ (same host: the receiver pulls by itself). The user driver runs no progress thread of its own: two
 *   spinning threads per rank would fight for the cores. The thread that called MPI.Init is bound to the rank's own
 *   CPU when PINMX_BIND=core ({@link #callerPolls()}).</li>
 *   <li>{@code thread} (DEDICATED): the endpoint library's agent thread serves the endpoint while the rank computes;
 *   waits park on the request (the agent thread wakes them): two wake-ups per message.</li>
 * </ul>
 */
enum DeviceProgress
{
    // Each wait names its poll time (the spin below) and polls without yielding; waits that name none block at once.
    CALLER(Duration.ofNanos(50_000), options -> options.progressMode(ProgressMode.CALLER).callerPollNs(0)
        .callerPollIdle(PollIdle.BUSY_SPIN).ackDelayNs(0),
        // The waiting rank is the progress: a driver thread spinning beside it would take the rank's core.
        driver -> driver.option(ProviderOptionKeys.USER_PROGRESS_THREAD, false)),
    THREAD(Duration.ZERO, options ->
    {
    }, driver ->
    {
    });

    static final String VARIABLE = "PINMX_MPJ_PROGRESS";

    /** Extra polling per byte of the awaited message: a copy slower than 1 GB/s is not worth spinning for. */
    static final long SPIN_NS_PER_BYTE = 1;
    static final long MAX_SPIN_NS = 2_000_000;

    /**
     * Longest endpoint message sent eager instead of {@link PinmxDevice#EAGER_MAX_BYTES}, so that benchmarks can
     * compare limits in one run.
     */
    static final String EAGER_VARIABLE = "PINMX_MPJ_EAGER_MAX_BYTES";
    static final int MIN_EAGER_MAX_BYTES = 128;
    static final int MAX_EAGER_MAX_BYTES = 16 << 20;

    /** How long a waiting thread polls before it blocks in the endpoint, message bytes aside. */
    private final Duration spin;
    private final Consumer<EndpointOptions.Builder> options;
    private final Consumer<EndpointConfig.Builder> driver;

    DeviceProgress(
        final Duration spin, final Consumer<EndpointOptions.Builder> options,
        final Consumer<EndpointConfig.Builder> driver)
    {
        this.spin = spin;
        this.options = options;
        this.driver = driver;
    }

    /**
     * @throws IllegalArgumentException naming {@value #EAGER_VARIABLE} when it is not a number of bytes in
     *                                  {@value #MIN_EAGER_MAX_BYTES}..{@value #MAX_EAGER_MAX_BYTES}.
     */
    static int eagerMaxBytes(final Map<String, String> env)
    {
        final String value = env.get(EAGER_VARIABLE);
        if (null == value || value.isEmpty())
        {
            return PinmxDevice.EAGER_MAX_BYTES;
        }
        try
        {
            final int bytes = Integer.parseInt(value.trim());
            if (bytes >= MIN_EAGER_MAX_BYTES && bytes <= MAX_EAGER_MAX_BYTES)
            {
                return bytes;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below with the range
        }
        throw new IllegalArgumentException(EAGER_VARIABLE + "='" + value + "': expected bytes in " +
            MIN_EAGER_MAX_BYTES + ".." + MAX_EAGER_MAX_BYTES);
    }

    /**
     * @param eagerMaxBytes longest endpoint message sent eager.
     */
    EndpointTuning tuning(final int eagerMaxBytes)
    {
        return new EndpointTuning()
        {
            @Override
            public void driverConfig(final EndpointConfig.Builder config)
            {
                // No node-wide counters file: opening its Chronicle Map compiles generated Java source inside every
                // rank at start-up, seconds of CPU on a 2-core host while the ranks warm up (as bench-imb's transport).
                driver.accept(config.option(ProviderOptionKeys.USER_PUBLISH_COUNTERS, false));
            }

            @Override
            public void options(final EndpointOptions.Builder builder)
            {
                options.accept(builder.rendezvousThresholdBytes(eagerMaxBytes));
            }
        };
    }

    /**
     * @throws IllegalArgumentException naming {@value #VARIABLE} when it is neither caller nor thread.
     */
    static DeviceProgress from(final Map<String, String> env)
    {
        final String value = env.getOrDefault(VARIABLE, "caller");
        return switch (value)
        {
            case "caller" -> CALLER;
            case "thread" -> THREAD;
            default -> throw new IllegalArgumentException(VARIABLE + "='" + value + "': expected caller or thread");
        };
    }

    /**
     * @return true when the waiting MPJ call polls the endpoint itself, so the rank's thread may be bound to its own
     * CPU ({@link JvmJob#bindRankThread}) as bench-imb binds its busy-polling ranks.
     */
    boolean callerPolls()
    {
        return this == CALLER;
    }

    /**
     * Waits until {@code w}, which moves {@code bytes} of message, is done or {@code timeout} passed. While the
     * {@link SpinBudget} lets it, the wait first polls the endpoint ({@link PollIdle#BUSY_SPIN}: no yield) for the base
     * spin plus {@value #SPIN_NS_PER_BYTE} ns per byte (up to {@value #MAX_SPIN_NS} ns): a rendezvous that copies a
     * large message takes longer than the base spin, and a sender that blocked meanwhile pays a wake-up for its
     * notify, which a flat base spin makes every rendezvous size pay. Then the endpoint's wait blocks at once.
     *
     * @return true if it is done.
     */
    boolean await(final Request w, final int bytes, final Duration timeout, final SpinBudget budget)
    {
        if (THREAD == this)
        {
            return w.await(timeout);
        }
        if (!budget.pollNext())
        {
            return w.await(timeout, Duration.ZERO);
        }
        final Duration poll = Duration.ofNanos(Math.min(MAX_SPIN_NS, spin.toNanos() + bytes * SPIN_NS_PER_BYTE));
        // A first wait as long as its poll: whether the request was done within the poll is what the budget learns.
        final boolean done = w.await(poll, poll);
        budget.polled(done);
        return done || w.await(timeout, Duration.ZERO);
    }

    /**
     * Waits until one of the first {@code count} requests is done or {@code timeout} passed, polling as
     * {@link #await} does for the base spin first.
     *
     * @return the index of a done request, or -1.
     */
    int awaitAny(
        final Endpoint endpoint, final Request[] requests, final int count, final Duration timeout,
        final SpinBudget budget)
    {
        if (THREAD == this)
        {
            return endpoint.waitAny(requests, count, timeout);
        }
        if (!budget.pollNext())
        {
            return endpoint.waitAny(requests, count, timeout, Duration.ZERO);
        }
        final int done = endpoint.waitAny(requests, count, spin, spin);
        budget.polled(done >= 0);
        return done >= 0 ? done : endpoint.waitAny(requests, count, timeout, Duration.ZERO);
    }
}
