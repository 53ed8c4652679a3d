package io.pinmx.mx;

import io.pinmx.mx.reliability.NanoClock;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.spi.DriverEndpoint;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Owns making progress: one round polls the driver's events into the {@link FrameReceiver}
 * and runs the {@link PartnerTimers} under the endpoint lock, then declares the buffers of
 * receives matched meanwhile outside it. In {@link ProgressMode#THREAD} it owns the progress
 * thread, which runs rounds back to back and, between rounds without work, follows the idle
 * strategy it was given (by default {@link BackoffThenBlockIdleStrategy#endpointAgent}: spin, yield, then block
 * in the driver until the next timer is due). In {@link ProgressMode#CALLER} the API threads
 * run the rounds. It also owns how API threads wait: spinning then parking on a request
 * while the progress thread works, or in CALLER mode running rounds for the options'
 * {@code callerPollNs} of the wait, then blocking in the driver (one thread at a time) until an
 * event or the next timer. The driver's await does not spin (its contract), so a wait that
 * outlasts one blocking slice goes on blocking rather than polling again.
 */
final class ProgressAgent
{
    private static final int POLL_LIMIT = 64;
    /** Spins of a thread awaiting a request before it parks (the progress thread unparks it). */
    private static final int AWAIT_SPINS = 200;
    private static final long MAX_IDLE_WAIT_NS = 1_000_000L;
    private static final long THREAD_MODE_PARK_NS = 50_000L;

    private final ReentrantLock lock;
    private final NanoClock clock;
    private final CachedNanoClock now;
    private final DriverEndpoint driver;
    private final FrameReceiver receiver;
    private final PartnerTimers timers;
    private final Rendezvous rendezvous;
    private final RemoteReads reads;
    private final ReentrantLock awaitLock = new ReentrantLock();
    private final long callerPollNs;
    private final Thread thread;
    private volatile boolean closed;

    /**
     * @param idleStrategy how the progress thread waits between rounds without work; null in CALLER mode.
     * @param callerPollNs how long a CALLER-mode wait runs rounds before it blocks in the driver.
     */
    ProgressAgent(
        final ReentrantLock lock, final NanoClock clock, final CachedNanoClock now, final DriverEndpoint driver,
        final FrameReceiver receiver, final PartnerTimers timers, final Rendezvous rendezvous, final RemoteReads reads,
        final IdleStrategy idleStrategy, final long callerPollNs, final String threadName)
    {
        this.callerPollNs = callerPollNs;
        this.lock = lock;
        this.clock = clock;
        this.now = now;
        this.driver = driver;
        this.receiver = receiver;
        this.timers = timers;
        this.rendezvous = rendezvous;
        this.reads = reads;
        this.thread = null == idleStrategy ? null :
            Thread.ofPlatform().daemon().name(threadName).unstarted(() -> run(idleStrategy));
    }

    void start()
    {
        if (null != thread)
        {
            thread.start();
        }
    }

    boolean hasThread()
    {
        return null != thread;
    }

    private void run(final IdleStrategy idleStrategy)
    {
        while (!closed)
        {
            idleStrategy.idle(progressOnce() ? 1 : 0);
        }
    }

    /**
     * One round: poll, timers, then the pending declares.
     *
     * @return true if any event arrived.
     */
    boolean progressOnce()
    {
        if (!lock.tryLock())
        {
            return false;
        }
        final int events;
        try
        {
            if (closed && Thread.currentThread() != thread)
            {
                return false;
            }
            now.update(clock.nanoTime());
            events = driver.poll(receiver, POLL_LIMIT);
            if (events > 0)
            {
                // handling them took time the timers must see; an empty poll took next to none
                now.update(clock.nanoTime());
            }
            timers.run(0 == events && null == thread);
            rendezvous.retryRefusedPulls();
            reads.retryRefusedPulls();
        }
        finally
        {
            lock.unlock();
        }
        rendezvous.declarePending();
        return events > 0;
    }

    /**
     * @return how long progress may block before a timer falls due (briefly when the lock is busy).
     */
    long idleWaitNs()
    {
        if (!lock.tryLock())
        {
            return PartnerTimers.minIdleWaitNs();
        }
        try
        {
            return timers.idleWaitNs(clock.nanoTime());
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Waits until the request is done or the timeout passes.
     *
     * @return true if done.
     */
    boolean awaitRequest(final Request r, final long timeoutNs)
    {
        final long startNs = System.nanoTime();
        final long deadline = startNs + timeoutNs;
        int idle = 0;
        while (!r.state.isDone())
        {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return false;
            }
            if (null == thread)
            {
                idleWait(Math.min(remaining, MAX_IDLE_WAIT_NS), startNs);
            }
            else if (++idle < AWAIT_SPINS)
            {
                Thread.onSpinWait();
            }
            else
            {
                r.waiter = Thread.currentThread();
                if (!r.state.isDone())
                {
                    LockSupport.parkNanos(Math.min(remaining, MAX_IDLE_WAIT_NS));
                }
                r.waiter = null;
            }
        }
        return true;
    }

    /**
     * One round on the caller's thread in {@link ProgressMode#CALLER} mode; nothing otherwise.
     */
    void progressFromCaller()
    {
        if (null == thread && !closed)
        {
            progressOnce();
        }
    }

    /**
     * One pause of an API thread's wait that began at {@code waitStartNs}: briefly parked when the progress thread
     * works; otherwise a round of its own, then a spin while the wait is younger than {@code callerPollNs}, or else a
     * block of at most {@code maxNs} in the driver until an event or the next timer.
     */
    void idleWait(final long maxNs, final long waitStartNs)
    {
        if (null != thread)
        {
            LockSupport.parkNanos(Math.min(maxNs, THREAD_MODE_PARK_NS));
            return;
        }
        if (progressOnce())
        {
            return;
        }
        if (System.nanoTime() - waitStartNs < callerPollNs)
        {
            Thread.onSpinWait();
        }
        else if (awaitLock.tryLock())
        {
            try
            {
                driver.await(Math.min(maxNs, idleWaitNs()));
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

    /**
     * Stops the progress thread and waits for it to end its round.
     */
    void close()
    {
        closed = true;
        if (null != thread && thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
