package io.pinmx.mpj;

import io.pinmx.job.EndpointTuning;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.ProgressMode;
import io.pinmx.mx.Request;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
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
 *   driver; the thread that waits runs the endpoint's rounds, busy with a yield every
 *   {@value BackoffThenBlockIdleStrategy#POLLS_PER_YIELD} empty rounds, for up to 50 us (about what a blocked
 *   wake-up costs, so a wait costs at most twice the better choice), then blocks in the endpoint (short, because on a shared host a rank whose partner lost its core
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
    // Each wait names its poll time (the spin below); waits that name none block at once (callerPollNs 0).
    CALLER(Duration.ofNanos(50_000), options -> options.progressMode(ProgressMode.CALLER).callerPollNs(0).ackDelayNs(0),
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

    /** How long a waiting thread polls before it blocks in the endpoint. */
    private final Duration spin;
    private final long spinNs;
    private final EndpointTuning tuning;

    DeviceProgress(
        final Duration spin, final Consumer<EndpointOptions.Builder> options,
        final Consumer<EndpointConfig.Builder> driver)
    {
        this.spin = spin;
        this.spinNs = spin.toNanos();
        this.tuning = new EndpointTuning()
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
                options.accept(builder);
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

    EndpointTuning tuning()
    {
        return tuning;
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
     * Waits until {@code w}, which moves {@code bytes} of message, is done or {@code timeout} passed. The poll before
     * blocking grows by {@value #SPIN_NS_PER_BYTE} ns per byte (up to {@value #MAX_SPIN_NS} ns): a rendezvous that
     * copies a large message takes longer than the base spin, and a sender that blocked meanwhile pays a wake-up
     * for its notify, which a flat base spin makes every rendezvous size pay. The endpoint's wait does the polling
     * (its invoker's rounds, or watching the request while its agent thread polls) and the blocking.
     *
     * @return true if it is done.
     */
    boolean await(final Request w, final int bytes, final Duration timeout)
    {
        if (0 == spinNs)
        {
            return w.await(timeout);
        }
        return w.await(timeout, Duration.ofNanos(Math.min(MAX_SPIN_NS, spinNs + bytes * SPIN_NS_PER_BYTE)));
    }

    /**
     * Waits until one of the first {@code count} requests is done or {@code timeout} passed.
     *
     * @return the index of a done request, or -1.
     */
    int awaitAny(final Endpoint endpoint, final Request[] requests, final int count, final Duration timeout)
    {
        return 0 == spinNs ? endpoint.waitAny(requests, count, timeout) :
            endpoint.waitAny(requests, count, timeout, spin);
    }
}
