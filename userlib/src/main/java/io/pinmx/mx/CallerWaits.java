package io.pinmx.mx;

import io.pinmx.pin.provider.ProgressRunner;
import io.pinmx.pin.provider.ThreadingMode;
import io.pinmx.pin.spi.DriverEndpoint;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How API threads wait on the endpoint, in its {@link ThreadingMode}. For the first {@code pollNs} of a wait (the
 * options' {@code callerPollNs} unless the wait names its own) the waiting thread stays on its core: INVOKER runs the
 * endpoint's round through the invoker, DEDICATED watches what it waits for while the agent's thread polls; between
 * tries that find nothing it idles as the options' {@link PollIdle} says (by default a yield every few dozen tries, so
 * a descheduled partner or the agent thread gets the core on a small host). Past that, DEDICATED parks on its
 * request (the round that completes it unparks it), or briefly with none; INVOKER blocks in the driver (one thread
 * at a time) until an event or the next timer. The driver's await does not spin (its contract), so a wait that
 * outlasts one blocking slice goes on blocking rather than polling again.
 * <p>
 * Owns {@link #awaitLock}: INVOKER's one thread blocked in the driver. Holds no other state.
 */
final class CallerWaits
{
    private static final long MAX_IDLE_WAIT_NS = 1_000_000L;
    private static final long DEDICATED_PARK_NS = 50_000L;

    private final DriverEndpoint driver;
    private final EndpointRound round;
    private final ProgressRunner runner;
    private final boolean invoker;
    private final long callerPollNs;
    private final ReentrantLock awaitLock = new ReentrantLock();
    /** Each waiting thread's idle between tries of its poll phase. */
    private final ThreadLocal<IdleStrategy> pollIdle;

    CallerWaits(final DriverEndpoint driver, final EndpointRound round, final ProgressRunner runner,
        final long callerPollNs, final PollIdle callerPollIdle)
    {
        this.pollIdle = ThreadLocal.withInitial(callerPollIdle::newIdleStrategy);
        this.driver = driver;
        this.round = round;
        this.runner = runner;
        this.invoker = ThreadingMode.INVOKER == runner.mode();
        this.callerPollNs = callerPollNs;
    }

    /**
     * Waits until the request is done or the timeout passes.
     *
     * @return true if done.
     */
    boolean awaitRequest(final Request r, final long timeoutNs)
    {
        return awaitRequest(r, timeoutNs, callerPollNs, true);
    }

    /**
     * Waits until the request is done or the timeout passes, staying on the core for its first {@code pollNs}.
     *
     * @param ackWhenIdle INVOKER: whether this wait's rounds that find nothing send owed acks at once.
     * @return true if done.
     */
    boolean awaitRequest(final Request r, final long timeoutNs, final long pollNs, final boolean ackWhenIdle)
    {
        if (r.state.isDone())
        {
            return true;
        }
        final long startNs = System.nanoTime();
        final long deadline = startNs + timeoutNs;
        final IdleStrategy idle = pollIdle();
        while (!r.state.isDone())
        {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return false;
            }
            // DEDICATED: the park on the request ends when it completes, so it needs no bound of its own (a waiter
            // parked in bounded slices would wake many times a second for nothing)
            final long maxNs = invoker ? Math.min(remaining, MAX_IDLE_WAIT_NS) : remaining;
            pauseUntil(maxNs, startNs + pollNs, idle, r, ackWhenIdle);
        }
        return true;
    }

    /** INVOKER: one round on the caller's thread; DEDICATED: nothing. */
    void progressFromCaller()
    {
        runner.invoke();
    }

    /** @return the calling thread's idle for the poll phase of a wait that begins now. */
    IdleStrategy pollIdle()
    {
        final IdleStrategy idle = pollIdle.get();
        idle.reset();
        return idle;
    }

    /** @return the options' {@code callerPollNs}: how long a wait that names none stays on its core. */
    long callerPollNs()
    {
        return callerPollNs;
    }

    /**
     * One pause of a wait without a request to park on, polling until {@code pollEndNs} (see {@link #pauseUntil}).
     *
     * @param idle what {@link #pollIdle} gave the wait when it began.
     */
    void pause(final long maxNs, final long pollEndNs, final IdleStrategy idle)
    {
        pauseUntil(maxNs, pollEndNs, idle, null, true);
    }

    private void pauseUntil(
        final long maxNs, final long pollEndNs, final IdleStrategy idle, final Request parkOn,
        final boolean ackWhenIdle)
    {
        if (System.nanoTime() - pollEndNs < 0)
        {
            idle.idle(invoke(ackWhenIdle));
        }
        else if (!invoker)
        {
            park(maxNs, parkOn);
        }
        else if (0 == invoke(ackWhenIdle))
        {
            blockInDriver(maxNs);
        }
    }

    private int invoke(final boolean ackWhenIdle)
    {
        if (!invoker)
        {
            return 0;
        }
        return ackWhenIdle ? runner.invoke() : round.round(false);
    }

    private static void park(final long maxNs, final Request parkOn)
    {
        if (null == parkOn)
        {
            LockSupport.parkNanos(Math.min(maxNs, DEDICATED_PARK_NS));
            return;
        }
        parkOn.waiter = Thread.currentThread();
        if (!parkOn.state.isDone())
        {
            LockSupport.parkNanos(maxNs);
        }
        parkOn.waiter = null;
    }

    /** INVOKER: one thread blocks in the driver; the others yield until it returns. */
    private void blockInDriver(final long maxNs)
    {
        if (null != round.failure())
        {
            Thread.yield();
        }
        else if (awaitLock.tryLock())
        {
            try
            {
                driver.await(Math.min(maxNs, round.idleWaitNs()));
            }
            catch (final RuntimeException | Error ex)
            {
                round.stop(ex);
            }
            finally
            {
                awaitLock.unlock();
            }
        }
        else
        {
            Thread.yield();
        }
    }
}
