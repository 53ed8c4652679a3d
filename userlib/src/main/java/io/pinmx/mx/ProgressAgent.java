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
 * while the progress thread works, or running rounds and blocking in the driver (one thread
 * at a time) in CALLER mode.
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
    private final Thread thread;
    private volatile boolean closed;

    /**
     * @param idleStrategy how the progress thread waits between rounds without work; null in CALLER mode.
     */
    ProgressAgent(
        final ReentrantLock lock, final NanoClock clock, final CachedNanoClock now, final DriverEndpoint driver,
        final FrameReceiver receiver, final PartnerTimers timers, final Rendezvous rendezvous, final RemoteReads reads,
        final IdleStrategy idleStrategy, final String threadName)
    {
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
            timers.run();
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
        final long deadline = System.nanoTime() + timeoutNs;
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
                progressFromCaller();
                if (!r.state.isDone())
                {
                    idleWait(Math.min(remaining, MAX_IDLE_WAIT_NS));
                }
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
     * An API thread waiting for something other than a request (a connect, a probe, any of
     * several requests) pauses: briefly when the progress thread works, otherwise after a round
     * of its own, in the driver until an event or the next timer.
     */
    void idleWait(final long maxNs)
    {
        if (null != thread)
        {
            LockSupport.parkNanos(Math.min(maxNs, THREAD_MODE_PARK_NS));
            return;
        }
        progressOnce();
        if (awaitLock.tryLock())
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
