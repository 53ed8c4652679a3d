package io.pinmx.mx;

import io.pinmx.mx.reliability.NanoClock;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Owns making progress: one round polls the driver's events into the {@link FrameReceiver}
 * and runs the {@link PartnerTimers} under the endpoint lock, then declares the buffers of
 * receives matched meanwhile outside it. In {@link ProgressMode#THREAD} it owns the progress
 * thread, which runs rounds back to back and, between rounds without work, follows the idle
 * strategy it was given (by default {@link BackoffThenBlockIdleStrategy#endpointAgent}: spin, yield, then block
 * in the driver until the next timer is due). In {@link ProgressMode#CALLER} the API threads
 * run the rounds. It also owns how API threads wait: for the options' {@code callerPollNs} of a
 * wait the waiting thread runs rounds itself. In THREAD mode the progress thread stands aside
 * meanwhile (parked while any API thread assists), so one thread polls per endpoint and the
 * event a wait is for is handled on the waiting thread: no wake-up hand-off (which costs more than
 * a small operation) between the thread that received it and the one that needs it. Past that, a THREAD-mode
 * wait parks on its request (the round that completes it unparks it) and the progress thread
 * resumes (after a wait that ended done, from its bounded park); a CALLER-mode wait blocks in the
 * driver (one thread at a time) until an event or the next timer. The driver's await does not
 * spin (its contract), so a wait that outlasts one blocking slice goes on blocking rather than
 * polling again.
 * <p>
 * A round that throws (the driver failed, or a bug) stops the endpoint: the agent keeps the cause, hands it to the
 * endpoint's {@code onStop} (which fails everything pending, naming it) and runs no round again; the progress thread
 * ends. Waits then end at once instead of at their deadlines.
 */
final class ProgressAgent
{
    private static final int POLL_LIMIT = 64;
    private static final long MAX_IDLE_WAIT_NS = 1_000_000L;
    private static final long THREAD_MODE_PARK_NS = 50_000L;
    /**
     * How long the progress thread first parks while a wait polls: a wait that ends with its request done does not
     * wake it (an unpark per operation puts a third runnable thread on two busy cores), so after a lone wait it
     * resumes this long at most after the wait began.
     */
    private static final long ASSISTED_PARK_NS = 200_000L;
    /**
     * How long it parks once it woke and found waits still polling (a caller issuing operations back to back): each
     * wake-up takes the caller's core for a switch and back and makes the operation it lands on several times
     * slower, so the longer park sets how often that happens, and with it the tail of back-to-back operations.
     */
    private static final long ASSISTED_PARK_LONG_NS = 1_000_000L;

    private final ReentrantLock lock;
    private final NanoClock clock;
    private final CachedNanoClock now;
    private final DriverEndpoint driver;
    private final DriverCounters counters;
    /** The driver's PULLS_SERVED at the last round; under the lock. */
    private long pullsServedSeen;
    private final FrameReceiver receiver;
    private final PartnerTimers timers;
    private final Rendezvous rendezvous;
    private final RemoteReads reads;
    private final ReentrantLock awaitLock = new ReentrantLock();
    /** THREAD mode: API threads running rounds in their waits; the progress thread parks while there are any. */
    private final AtomicInteger assistants = new AtomicInteger();
    private final long callerPollNs;
    private final Thread thread;
    private final Consumer<Throwable> onStop;
    /** Why a round threw; set once, after which no round runs. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean closed;

    /**
     * @param idleStrategy how the progress thread waits between rounds without work; null in CALLER mode.
     * @param callerPollNs how long a CALLER-mode wait runs rounds before it blocks in the driver.
     * @param onStop      called once, without the lock held, with what a round threw.
     */
    ProgressAgent(
        final ReentrantLock lock, final NanoClock clock, final CachedNanoClock now, final DriverEndpoint driver,
        final FrameReceiver receiver, final PartnerTimers timers, final Rendezvous rendezvous, final RemoteReads reads,
        final IdleStrategy idleStrategy, final long callerPollNs, final String threadName,
        final Consumer<Throwable> onStop)
    {
        this.onStop = onStop;
        this.callerPollNs = callerPollNs;
        this.lock = lock;
        this.clock = clock;
        this.now = now;
        this.driver = driver;
        this.counters = driver.counters();
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

    /** @return what the round that stopped the endpoint threw, or null while it makes progress. */
    Throwable failure()
    {
        return failure.get();
    }

    private void run(final IdleStrategy idleStrategy)
    {
        long assistedParkNs = ASSISTED_PARK_NS;
        try
        {
            while (!closed && null == failure.get())
            {
                if (assistants.get() > 0)
                {
                    LockSupport.parkNanos(this, assistedParkNs);
                    assistedParkNs = ASSISTED_PARK_LONG_NS;
                    idleStrategy.reset();
                }
                else
                {
                    assistedParkNs = ASSISTED_PARK_NS;
                    idleStrategy.idle(progressOnce(true) ? 1 : 0);
                }
            }
        }
        catch (final Throwable t)
        {
            // the idle strategy blocks in the driver, outside any round
            stop(t);
        }
    }

    /** The first failure stops the endpoint; later ones (other threads' rounds racing it) are its consequences. */
    private void stop(final Throwable cause)
    {
        if (failure.compareAndSet(null, cause))
        {
            onStop.accept(cause);
        }
        else if (failure.get() != cause)
        {
            failure.get().addSuppressed(cause);
        }
    }

    /**
     * One round: poll, timers, then the pending declares.
     *
     * @return true if any event arrived, or the driver served a peer's pull since the last round (in this poll or in
     *         an await before it). The user driver serves pulls inside poll and await without an event: a progress
     *         thread that counted such rounds as idle would back off to blocking while a partner's gets keep coming,
     *         and each of them would then wait for its wake-up.
     */
    boolean progressOnce()
    {
        return progressOnce(true);
    }

    /**
     * One round (see {@link #progressOnce()}).
     *
     * @param ackWhenIdle on an API thread, a round that finds no event sends the acks partners wait for at once
     *                    (false: they keep the ack delay, or ride on the next message).
     * @return as {@link #progressOnce()}; true too when the round threw and stopped the endpoint (so that nobody
     *         idles in the driver after it).
     */
    private boolean progressOnce(final boolean ackWhenIdle)
    {
        try
        {
            return null == failure.get() && round(ackWhenIdle);
        }
        catch (final RuntimeException | Error ex)
        {
            stop(ex);
            return true;
        }
    }

    private boolean round(final boolean ackWhenIdle)
    {
        if (!lock.tryLock())
        {
            return false;
        }
        final int events;
        final boolean servedPeers;
        try
        {
            if (closed && Thread.currentThread() != thread)
            {
                return false;
            }
            now.update(clock.nanoTime());
            events = driver.poll(receiver, POLL_LIMIT);
            final long pullsServed = counters.get(Counter.PULLS_SERVED);
            servedPeers = pullsServed != pullsServedSeen;
            pullsServedSeen = pullsServed;
            // The timers run on the time the round began: the time handling events took is seen by the next
            // round, which reads the clock again (a second read here sat between a message's arrival and the
            // caller's reply).
            timers.run(ackWhenIdle && 0 == events && Thread.currentThread() != thread);
            rendezvous.retryRefusedPulls();
            reads.retryRefusedPulls();
        }
        finally
        {
            lock.unlock();
        }
        rendezvous.declarePending();
        return events > 0 || servedPeers;
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
        return awaitRequest(r, timeoutNs, callerPollNs, true);
    }

    /**
     * Waits until the request is done or the timeout passes, polling for its first {@code pollNs} (see
     * {@link #pauseUntil}).
     *
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
        boolean assisting = false;
        try
        {
            while (!r.state.isDone())
            {
                final long remaining = deadline - System.nanoTime();
                if (remaining <= 0)
                {
                    return false;
                }
                // THREAD mode: the park on the request ends when it completes, so it needs no bound of its own (a
                // waiter parked in bounded slices would wake many times a second for nothing)
                final long maxNs = null != thread ? remaining : Math.min(remaining, MAX_IDLE_WAIT_NS);
                assisting = pauseUntil(maxNs, startNs + pollNs, assisting, r, ackWhenIdle);
            }
            return true;
        }
        finally
        {
            // done: the progress thread resumes from its bounded park (see ASSISTED_PARK_NS)
            if (assisting)
            {
                assistants.decrementAndGet();
            }
        }
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
     * One pause of an API thread's wait that began at {@code waitStartNs}, polling for the options'
     * {@code callerPollNs}.
     *
     * @see #pauseUntil
     */
    boolean pause(final long maxNs, final long waitStartNs, final boolean assisting, final Request parkOn)
    {
        return pauseUntil(maxNs, waitStartNs + callerPollNs, assisting, parkOn, true);
    }

    /**
     * One pause of an API thread's wait that polls until {@code pollEndNs}. Until then: a round of its own, or a spin
     * if it found nothing (in THREAD mode the wait then counts as assisting and the progress thread stands aside).
     * Later, in THREAD mode, a park on {@code parkOn} (unparked when it completes) or, with none, a brief park; in
     * CALLER mode a block of at most {@code maxNs} in the driver until an event or the next timer.
     *
     * @param assisting what the previous pause of this wait returned (false for the first).
     * @return whether the wait is assisting now; the wait passes its last answer to {@link #endAssist} when it ends.
     */
    private boolean pauseUntil(final long maxNs, final long pollEndNs, final boolean assisting, final Request parkOn,
        final boolean ackWhenIdle)
    {
        if (System.nanoTime() - pollEndNs < 0)
        {
            if (null != thread && !assisting)
            {
                assistants.getAndIncrement();
            }
            if (!progressOnce(ackWhenIdle))
            {
                Thread.onSpinWait();
            }
            return null != thread;
        }
        endAssist(assisting);
        if (null != thread)
        {
            park(maxNs, parkOn);
        }
        else if (!progressOnce(ackWhenIdle))
        {
            blockInDriver(maxNs);
        }
        return false;
    }

    /**
     * Ends a wait's assisting (if it was) before it stops polling without its request done: the last assistant to
     * leave unparks the progress thread, which must poll for it now.
     */
    void endAssist(final boolean assisting)
    {
        if (assisting && 0 == assistants.decrementAndGet())
        {
            LockSupport.unpark(thread);
        }
    }

    private static void park(final long maxNs, final Request parkOn)
    {
        if (null == parkOn)
        {
            LockSupport.parkNanos(Math.min(maxNs, THREAD_MODE_PARK_NS));
            return;
        }
        parkOn.waiter = Thread.currentThread();
        if (!parkOn.state.isDone())
        {
            LockSupport.parkNanos(maxNs);
        }
        parkOn.waiter = null;
    }

    /** CALLER mode: one thread blocks in the driver; the others yield until it returns. */
    private void blockInDriver(final long maxNs)
    {
        if (null != failure.get())
        {
            Thread.yield();
        }
        else if (awaitLock.tryLock())
        {
            try
            {
                driver.await(Math.min(maxNs, idleWaitNs()));
            }
            catch (final RuntimeException | Error ex)
            {
                stop(ex);
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
        LockSupport.unpark(thread);
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
