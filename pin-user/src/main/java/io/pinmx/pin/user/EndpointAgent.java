package io.pinmx.pin.user;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.provider.ProgressSlice;
import io.pinmx.pin.provider.ProgressRunner;
import io.pinmx.pin.provider.ThreadingMode;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EventHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.SleepingIdleStrategy;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who runs one endpoint's progress and how it waits. The duty cycle ({@link #doWork}) starts submitted pulls, puts
 * and atomics, receives frames ({@link FrameDispatcher}) and checks their timers; it runs on the endpoint's progress
 * thread (this agent on a DEDICATED {@link ProgressRunner}) or, without one, inside poll ({@link #poll}) and await
 * ({@link #runIfFree}).
 * <p>
 * Owner: the duty cycle's state (the dispatcher, the puller's and writer's active work, the timers) is touched only by
 * the thread running it. With a progress thread that is the progress thread. Without one it is whoever holds
 * {@link #ownerLock}, which poll only tries (one lock per poll, never a wait: another thread already runs the
 * cycle), await's blocking phase and close take, and the responder tries. Application threads hand work to the agent
 * through queues (pull slots, remote ops) and {@link #wakeIfParked}, never through this lock.
 * <p>
 * Its thread may run with a short time slice of its own ({@link UserDriverOptions#progressSliceNs}), so that a frame
 * waking it is served at once while the application computes on the same CPU.
 * <p>
 * Idle: spin, then yield, then park in poll(2) on the UDP socket with the shared-memory ring flagged "parked" so a
 * same-host sender rings the doorbell; an application thread that starts a pull wakes the poll through the
 * transport's eventfd ({@link #wakeIfParked}).
 * A thread awaiting events parks until the agent unparks it ({@link #waiter}).
 * <p>
 * {@link #ownerLock} is also the event ring's consumer lock: poll delivers events holding it, so {@link #stop}, which
 * takes it to tear the transport and the endpoint's memory down, never frees a frame a handler is reading in place.
 * <p>
 * Without a progress thread (unless the options turn it off) a {@link Responder} on a thread of its own wakes every
 * {@link #RESPONDER_CHECK_NS} and, when no duty cycle ran for {@link #RESPONDER_IDLE_NS} (the application
 * computes, or is descheduled; cycles are counted, so a cycle reads no clock), runs one ({@link #respond}): received
 * frames wait as events for the application, pulls from this endpoint are served and liveness probes are answered,
 * so partners never take a live process that does not poll for a dead one. When the event queue is full it still
 * reads datagrams, to answer probes, and drops the frames among them (their senders resend).
 */
final class EndpointAgent implements Agent
{
    private static final long PARK_MAX_NS = TimeUnit.SECONDS.toNanos(1);
    /** One waiter is unparked by the agent; with several awaiting threads the others re-check this often. */
    private static final long AWAIT_PARK_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long TIMER_CHECK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How often the responder looks whether the duty cycle runs; well below the probes' answer window. */
    static final long RESPONDER_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(25);
    /** A duty cycle this long ago means nobody polls: the responder runs one. */
    static final long RESPONDER_IDLE_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final VarHandle CYCLES;

    static
    {
        try
        {
            CYCLES = MethodHandles.lookup().findVarHandle(EndpointAgent.class, "cycles", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final EndpointAddress address;
    private final UdpTransport udp;
    /** Null without the same-host path. */
    private final ShmFrameRing ring;
    private final EventRing events;
    private final Puller puller;
    private final RemoteWriter writer;
    private final FrameDispatcher dispatcher;
    /** Null when counters are not published. */
    private final CounterPublisher counterPublisher;
    private final long pullResendTimeoutNs;
    private final long progressSliceNs;
    /** The duty cycle's owner without a progress thread; the event ring's consumer against close with one. */
    private final ReentrantLock ownerLock = new ReentrantLock();
    private final boolean progressThread;
    private final boolean responder;
    private final String roleName;
    /** The runner of this agent (a progress thread) or of the {@link Responder}; null before start or with neither. */
    private volatile ProgressRunner runner;

    private volatile boolean stopped;
    private volatile Throwable progressFailure;
    private volatile boolean parked;
    private volatile Thread waiter;
    private long nextTimerCheckNs;
    /** Duty cycles run (written by the cycle's owner, read opaque by the responder). */
    private long cycles;

    EndpointAgent(
        final EndpointAddress address,
        final boolean progressThread,
        final boolean responder,
        final long pullResendTimeoutNs,
        final long progressSliceNs,
        final UdpTransport udp,
        final ShmFrameRing ring,
        final EventRing events,
        final Puller puller,
        final RemoteWriter writer,
        final FrameDispatcher dispatcher,
        final CounterPublisher counterPublisher)
    {
        this.address = address;
        this.udp = udp;
        this.ring = ring;
        this.events = events;
        this.puller = puller;
        this.writer = writer;
        this.dispatcher = dispatcher;
        this.counterPublisher = counterPublisher;
        this.pullResendTimeoutNs = pullResendTimeoutNs;
        this.progressSliceNs = progressSliceNs;
        this.progressThread = progressThread;
        this.responder = !progressThread && responder;
        this.roleName = "pinmx-progress-" + address;
    }

    /** Starts the progress thread (its idle: spin, yield, then park in poll), or the responder's. */
    void start()
    {
        if (progressThread)
        {
            runner = ProgressRunner.start(ThreadingMode.DEDICATED, BackoffThenBlockIdleStrategy.providerAgent(() ->
            {
                publishCountersIfDue();
                park(PARK_MAX_NS, ShmFrameRing.PARKED);
            }), this::onThreadError, this);
        }
        else if (responder)
        {
            runner = ProgressRunner.start(ThreadingMode.DEDICATED, new SleepingIdleStrategy(RESPONDER_CHECK_NS),
                this::onThreadError, new Responder(this, "pinmx-responder-" + address));
        }
    }

    /** The progress thread, first thing: its time slice ({@link ProgressSlice}). */
    @Override
    public void onStart()
    {
        ProgressSlice.applyToCallingThread(progressSliceNs, roleName);
    }

    boolean hasProgressThread()
    {
        return progressThread;
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    /** @return why the progress thread died, or null. */
    Throwable failure()
    {
        return progressFailure;
    }

    /** Application thread, after queueing work for the agent: end its wait in poll. */
    void wakeIfParked()
    {
        if (parked)
        {
            udp.wakeup();
        }
    }

    /**
     * One duty cycle on the progress thread.
     *
     * @return work done (0 = idle).
     * @throws AgentTerminationException once the thread failed ({@link #failure}): it ends.
     */
    @Override
    public int doWork()
    {
        if (null != progressFailure)
        {
            throw new AgentTerminationException("progress agent of " + address + " failed");
        }
        return doWork(true);
    }

    /** @return duty cycles run so far, read by the responder while others run them. */
    long cycles()
    {
        return (long)CYCLES.getOpaque(this);
    }

    private int doWork(final boolean receive)
    {
        CYCLES.setOpaque(this, cycles + 1);
        int work = puller.startSubmitted() + writer.startSubmitted();
        if (receive)
        {
            work += dispatcher.receive();
        }
        if (puller.hasActivePulls() || writer.hasActive())
        {
            final long nowNs = System.nanoTime();
            if (nowNs - nextTimerCheckNs >= 0)
            {
                nextTimerCheckNs = nowNs + TIMER_CHECK_INTERVAL_NS;
                work += puller.checkTimers(nowNs) + writer.checkTimers(nowNs);
            }
        }
        if (work > 0 && !events.isEmpty())
        {
            unparkWaiter();
        }
        return work;
    }

    /** Without a progress thread, await runs the duty cycle, unless another caller is running it. */
    void runIfFree()
    {
        if (!progressThread && ownerLock.tryLock())
        {
            try
            {
                doWork(true);
            }
            finally
            {
                ownerLock.unlock();
            }
        }
    }

    /**
     * A send waits for room in a same-host peer's full ring ({@link FrameTransmitter.OwnRing}): without a progress
     * thread, runs a duty cycle unless another thread runs one, so the frames in this endpoint's own ring go to the
     * event queue and its senders, perhaps the peer we wait on, get room. Not from inside poll: this thread is then
     * delivering a frame of the ring, and no one else drains it.
     *
     * @return false when this thread is inside poll.
     */
    boolean drainWhileSendWaits()
    {
        if (progressThread)
        {
            return true;
        }
        if (ownerLock.isHeldByCurrentThread())
        {
            return false;
        }
        runIfFree();
        return true;
    }

    /**
     * Poll: queued events first; then, without a progress thread, a duty cycle that hands received frames to
     * {@code handler} in place while no event is queued before them, and the events it queued. Without a progress
     * thread, another thread holding the owner lock runs the cycle (or awaits in it with no event queued): nothing
     * is delivered, and poll does not wait.
     *
     * @param openCheck throws when the endpoint closed before this poll took the lock.
     * @return events delivered to the handler.
     */
    int poll(final EventHandler handler, final int limit, final Runnable openCheck)
    {
        if (progressThread)
        {
            ownerLock.lock();
        }
        else if (!ownerLock.tryLock())
        {
            return 0;
        }
        try
        {
            openCheck.run();
            int delivered = events.poll(handler, limit);
            if (!progressThread && delivered < limit)
            {
                delivered += dispatcher.receive(handler, limit - delivered);
                doWork(false);
                delivered += events.poll(handler, limit - delivered);
            }
            return delivered;
        }
        finally
        {
            ownerLock.unlock();
        }
    }

    /** Await, after spinning and yielding: run the agent parked in poll, or park until it unparks us. */
    void blockAwaiting(final long leftNs)
    {
        if (!progressThread)
        {
            ownerLock.lock();
            try
            {
                publishCountersIfDue();
                // the responder may have queued events since the caller looked; poll returns none while we hold the lock
                if (events.isEmpty())
                {
                    // the caller's own core idles meanwhile: a peer's invitation to share its pull may wake it
                    park(leftNs, ShmFrameRing.PARKED_IN_WAIT);
                }
            }
            finally
            {
                ownerLock.unlock();
            }
        }
        else
        {
            waiter = Thread.currentThread();
            if (events.isEmpty())
            {
                LockSupport.parkNanos(this, Math.min(leftNs, AWAIT_PARK_SLICE_NS));
            }
            waiter = null;
        }
    }

    /**
     * Close: stop the progress thread or the responder's (woken from its park, its duty cycle finished), then run
     * {@code teardown} holding {@link #ownerLock}, so no poll or await is inside the duty cycle or reading an event
     * while the transport and memory go.
     */
    void stop(final Runnable teardown)
    {
        stopped = true;
        final ProgressRunner started = runner;
        if (null != started)
        {
            udp.wakeup();
            final Thread thread = started.thread();
            if (null != thread)
            {
                LockSupport.unpark(thread);
            }
            started.close();
        }
        ownerLock.lock();
        try
        {
            teardown.run();
        }
        finally
        {
            ownerLock.unlock();
        }
    }

    void unparkWaiter()
    {
        final Thread blocked = waiter;
        if (blocked != null)
        {
            LockSupport.unpark(blocked);
        }
    }

    /**
     * The responder's duty cycle found no cycle for {@link #RESPONDER_IDLE_NS}: runs one, unless another thread runs
     * one now or the endpoint is stopping.
     *
     * @return false if another thread held {@link #ownerLock} (the responder looks again at its next check).
     */
    boolean respond()
    {
        if (!ownerLock.tryLock())
        {
            return false;
        }
        try
        {
            if (!stopped)
            {
                // probes come by UDP, which a cycle otherwise polls only every few cycles while cold
                dispatcher.pollUdpNext();
                doWork(true);
                dispatcher.answerProbesDroppingFrames();
            }
            return true;
        }
        finally
        {
            ownerLock.unlock();
        }
    }

    /**
     * What a duty cycle or an idle of the progress thread or the responder threw: the first failure is kept for
     * {@link #failure} and a waiter woken to see it; the thread's next duty cycle ends it.
     */
    private void onThreadError(final Throwable error)
    {
        if (!(error instanceof AgentTerminationException))
        {
            if (null == progressFailure)
            {
                progressFailure = error;
            }
            unparkWaiter();
        }
    }

    /** Idle: the publisher bounds the rate, so the idle path can ask every time. */
    private void publishCountersIfDue()
    {
        if (null != counterPublisher)
        {
            counterPublisher.publishIfDue(System.nanoTime());
        }
    }

    /**
     * Block in poll until a datagram, a doorbell, a wake-up or the next timer.
     *
     * @param how {@link ShmFrameRing#PARKED} or {@link ShmFrameRing#PARKED_IN_WAIT}: what the ring's producers wake.
     */
    private void park(final long maxNs, final int how)
    {
        final long timeoutNs = puller.hasActivePulls() || writer.hasActive() ?
            Math.min(maxNs, pullResendTimeoutNs / 2) : Math.min(maxNs, PARK_MAX_NS);
        parked = true;
        if (ring != null)
        {
            ring.setConsumerParked(how);
        }
        try
        {
            if (!stopped && !puller.hasSubmissions() && !writer.hasSubmissions() && (ring == null || ring.isEmpty()))
            {
                udp.awaitReadable(timeoutNs);
            }
        }
        catch (final IOException | RuntimeException e)
        {
            if (!stopped)
            {
                throw new IllegalStateException("progress agent of " + address + " cannot wait for input", e);
            }
        }
        finally
        {
            if (ring != null)
            {
                ring.setConsumerParked(ShmFrameRing.NOT_PARKED);
            }
            parked = false;
            dispatcher.pollUdpNext();
        }
    }
}
