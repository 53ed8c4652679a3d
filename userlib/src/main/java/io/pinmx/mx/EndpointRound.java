package io.pinmx.mx;

import io.pinmx.mx.reliability.NanoClock;
import io.pinmx.pin.provider.ProgressSlice;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.CachedNanoClock;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The endpoint's progress agent: one round polls the driver's events into the {@link FrameReceiver} and runs the
 * {@link PartnerTimers} and ends failures overdue for their pull's end ({@link RequestPool#endOverdueHeldFailures})
 * under the endpoint lock, then declares the buffers of receives matched meanwhile outside it.
 * A round that finds the lock held does nothing (another thread is in a round or posting work), so rounds never
 * queue behind each other.
 * <p>
 * A round that throws (the driver failed, or a bug) stops the endpoint: the agent keeps the cause, hands it to the
 * endpoint's {@code onStop} (which fails everything pending, naming it) and runs no round again; a dedicated thread
 * ends at its next duty cycle. Waits then end at once instead of at their deadlines.
 */
final class EndpointRound implements Agent
{
    private static final int POLL_LIMIT = 64;

    private final ReentrantLock lock;
    private final NanoClock clock;
    private final CachedNanoClock now;
    private final DriverEndpoint driver;
    private final DriverCounters counters;
    private final FrameReceiver receiver;
    private final PartnerTimers timers;
    private final Rendezvous rendezvous;
    private final RemoteReads reads;
    private final RequestPool requests;
    private final String roleName;
    /** The dedicated progress thread's time slice; 0 with callers' waits running the rounds. */
    private final long progressSliceNs;
    /** Whether a round without events sends owed acks at once: rounds run by callers' waits (nothing else polls). */
    private final boolean ackWhenIdle;
    private final Consumer<Throwable> onStop;
    /** Why a round threw; set once, after which no round runs. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** The driver's PULLS_SERVED at the last round; under the lock. */
    private long pullsServedSeen;
    private volatile boolean closed;

    /**
     * @param ackWhenIdle true when callers' waits run the rounds (see {@link #round(boolean)}).
     * @param onStop      called once, without the lock held, with what a round threw.
     */
    EndpointRound(
        final ReentrantLock lock, final NanoClock clock, final CachedNanoClock now, final DriverEndpoint driver,
        final FrameReceiver receiver, final PartnerTimers timers, final Rendezvous rendezvous, final RemoteReads reads,
        final RequestPool requests, final String roleName, final long progressSliceNs, final boolean ackWhenIdle,
        final Consumer<Throwable> onStop)
    {
        this.lock = lock;
        this.clock = clock;
        this.now = now;
        this.driver = driver;
        this.counters = driver.counters();
        this.receiver = receiver;
        this.timers = timers;
        this.rendezvous = rendezvous;
        this.reads = reads;
        this.requests = requests;
        this.roleName = roleName;
        this.progressSliceNs = progressSliceNs;
        this.ackWhenIdle = ackWhenIdle;
        this.onStop = onStop;
    }

    /** On the dedicated progress thread, first thing: its time slice ({@link ProgressSlice}). */
    @Override
    public void onStart()
    {
        ProgressSlice.applyToCallingThread(progressSliceNs, roleName);
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    /**
     * @return 1 if the round did work (see {@link #round(boolean)}), else 0.
     * @throws AgentTerminationException once the endpoint stopped, so that a dedicated thread ends.
     */
    @Override
    public int doWork()
    {
        if (null != failure.get())
        {
            throw new AgentTerminationException("endpoint " + roleName + " stopped");
        }
        return round(ackWhenIdle);
    }

    @Override
    public void onClose()
    {
        closed = true;
    }

    /** No further rounds: the endpoint closes. */
    void close()
    {
        closed = true;
    }

    /** @return what the round that stopped the endpoint threw, or null while it makes progress. */
    Throwable failure()
    {
        return failure.get();
    }

    /** The first failure stops the endpoint; later ones (other threads' rounds racing it) are its consequences. */
    void stop(final Throwable cause)
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
     * @param ackWhenIdle a round that finds no event sends the acks partners wait for at once (false: they keep the
     *                    ack delay, or ride on the next message).
     * @return 1 if any event arrived, or the driver served a peer's pull since the last round (in this poll or in an
     *         await before it), else 0: the user driver serves pulls inside poll and await without an event, and a
     *         thread that counted such rounds as idle would back off to blocking while a partner's gets keep coming.
     *         1 too when the round threw and stopped the endpoint (so that nobody idles in the driver after it).
     */
    int round(final boolean ackWhenIdle)
    {
        if (closed || null != failure.get())
        {
            return 0;
        }
        try
        {
            return lockedRound(ackWhenIdle) ? 1 : 0;
        }
        catch (final RuntimeException | Error ex)
        {
            stop(ex);
            return 1;
        }
    }

    private boolean lockedRound(final boolean ackWhenIdle)
    {
        if (!lock.tryLock())
        {
            return false;
        }
        final int events;
        final boolean servedPeers;
        try
        {
            now.update(clock.nanoTime());
            events = driver.poll(receiver, POLL_LIMIT);
            final long pullsServed = counters.get(Counter.PULLS_SERVED);
            servedPeers = pullsServed != pullsServedSeen;
            pullsServedSeen = pullsServed;
            // The timers run on the time the round began: the time handling events took is seen by the next
            // round, which reads the clock again (a second read here would sit between a message's arrival and
            // the caller's reply).
            timers.run(ackWhenIdle && 0 == events);
            requests.endOverdueHeldFailures(now.nanoTime());
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
     * @return how long progress may block before a timer falls due (briefly when the lock is busy, at most
     *         {@link PartnerTimers#REFUSED_RETRY_NS} while refused pull starts wait for room).
     */
    long idleWaitNs()
    {
        if (!lock.tryLock())
        {
            return PartnerTimers.minIdleWaitNs();
        }
        try
        {
            final long timersNs = timers.idleWaitNs(clock.nanoTime());
            return rendezvous.hasRefusedPulls() || reads.hasRefusedPulls() ?
                Math.min(timersNs, PartnerTimers.REFUSED_RETRY_NS) : timersNs;
        }
        finally
        {
            lock.unlock();
        }
    }
}
