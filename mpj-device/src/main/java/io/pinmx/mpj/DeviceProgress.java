package io.pinmx.mpj;

import io.pinmx.job.EndpointTuning;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.ProgressMode;
import io.pinmx.mx.Request;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriverOptions;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How the device's endpoint makes progress and how a waiting MPJ call waits, chosen per job by
 * {@value #VARIABLE}:
 * <ul>
 *   <li>{@code caller} (default): no progress thread, in the library or the driver; the thread that waits polls its
 *   request (one round of progress each), busy with a yield every {@value BackoffThenBlockIdleStrategy#POLLS_PER_YIELD}
 *   empty polls, for up to 1 ms, then blocks in the endpoint; acks go out at once (no ack delay). One runnable
 *   thread per rank, and no blocking wake-up (~30 us here) on the path of a reply that comes within the spin. MPI
 *   asks no more: a rank that computes between an Isend and its Wait lets a partner pull its data only when it next
 *   calls MPJ (same host: the receiver pulls by itself). With the user driver's own progress thread beside it, the
 *   two spinning threads per rank fought for the cores: 8 B MPJ PingPong ~1.1 ms; without it 10-80 us.</li>
 *   <li>{@code thread}: the endpoint library's progress thread serves the endpoint while the rank computes; waits
 *   block on the request (the progress thread wakes them): two wake-ups per message (8 B PingPong 220-350 us).</li>
 * </ul>
 */
enum DeviceProgress
{
    CALLER(Duration.ofMillis(1), options -> options.progressMode(ProgressMode.CALLER).ackDelayNs(0),
        // The waiting rank is the progress: a driver thread spinning beside it took ~1 ms per 8 B message.
        config -> config.options(UserDriverOptions.class,
            config.options(UserDriverOptions.class).orElseGet(UserDriverOptions::defaults).withProgressThread(false))),
    THREAD(Duration.ZERO, options ->
    {
    }, config ->
    {
    });

    static final String VARIABLE = "PINMX_MPJ_PROGRESS";

    private static final ThreadLocal<BackoffThenBlockIdleStrategy> IDLE =
        ThreadLocal.withInitial(BackoffThenBlockIdleStrategy::busyPolling);

    /** How long a waiting thread polls before it blocks in the endpoint. */
    private final long spinNs;
    private final EndpointTuning tuning;

    DeviceProgress(
        final Duration spin, final Consumer<EndpointOptions.Builder> options, final Consumer<EndpointConfig.Builder> driver)
    {
        this.spinNs = spin.toNanos();
        this.tuning = new EndpointTuning()
        {
            @Override
            public void driverConfig(final EndpointConfig.Builder config)
            {
                driver.accept(config);
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
     * Waits until {@code w} is done or {@code timeout} passed.
     *
     * @return true if it is done.
     */
    boolean await(final Request w, final Duration timeout)
    {
        final long startNs = System.nanoTime();
        final BackoffThenBlockIdleStrategy idle = IDLE.get();
        idle.reset();
        while (!w.test())
        {
            final long elapsedNs = System.nanoTime() - startNs;
            if (elapsedNs >= spinNs)
            {
                return w.await(timeout.minusNanos(elapsedNs));
            }
            idle.idle();
        }
        return true;
    }

    /**
     * Waits until one of the first {@code count} requests is done or {@code timeout} passed.
     *
     * @return the index of a done request, or -1.
     */
    int awaitAny(final Endpoint endpoint, final Request[] requests, final int count, final Duration timeout)
    {
        final long startNs = System.nanoTime();
        final BackoffThenBlockIdleStrategy idle = IDLE.get();
        idle.reset();
        while (true)
        {
            for (int i = 0; i < count; i++)
            {
                if (requests[i].test())
                {
                    return i;
                }
            }
            final long elapsedNs = System.nanoTime() - startNs;
            if (elapsedNs >= spinNs)
            {
                return endpoint.waitAny(requests, count, timeout.minusNanos(elapsedNs));
            }
            idle.idle();
        }
    }
}
