package io.pinmx.pin.user;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EventHandler;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who runs one endpoint's progress and how it waits. The duty cycle ({@link #doWork}) starts submitted pulls, puts
 * and atomics, receives frames ({@link FrameDispatcher}) and checks their timers; it runs on the endpoint's progress thread
 * or, without one, inside poll and await ({@link #runIfFree}).
 * <p>
 * Idle: spin, then yield, then park in poll(2) on the UDP socket with the shared-memory ring flagged "parked" so a
 * same-host sender rings the doorbell; an application thread that starts a pull wakes the poll through the
 * transport's eventfd ({@link #wakeIfParked}).
 * A thread awaiting events parks until the agent unparks it ({@link #waiter}).
 * <p>
 * Owns {@link #agentLock}: held by whoever runs the duty cycle without a progress thread, so one runs it at a time;
 * {@link #stop} takes it to tear the transport down once nobody is inside the duty cycle.
 * <p>
 * Without a progress thread (unless the options turn it off) a responder thread wakes every
 * {@link #RESPONDER_CHECK_NS} and, when nobody has run the duty cycle for {@link #RESPONDER_IDLE_NS} (the application
 * computes, or is descheduled), runs one: received frames wait as events for the application, pulls from this
 * endpoint are served and liveness probes are answered, so partners never take a live process that does not poll
 * for a dead one. When the event queue is full it still
 * reads datagrams, to answer probes, and drops the frames among them (their senders resend).
 */
final class EndpointAgent
{
    private static final long PARK_MAX_NS = TimeUnit.SECONDS.toNanos(1);
    /** One waiter is unparked by the agent; with several awaiting threads the others re-check this often. */
    private static final long AWAIT_PARK_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long TIMER_CHECK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How often the responder looks whether the duty cycle runs; well below the probes' answer window. */
    static final long RESPONDER_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(25);
    /** A duty cycle this long ago means nobody polls: the responder runs one. */
    static final long RESPONDER_IDLE_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final VarHandle LAST_CYCLE_NS;

    static
    {
        try
        {
            LAST_CYCLE_NS = MethodHandles.lookup().findVarHandle(EndpointAgent.class, "lastCycleNs", long.class);
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
    private final ReentrantLock agentLock = new ReentrantLock();
    private final Thread progressThread;
    /** Null with a progress thread, or when the options turn the responder off. */
    private final Thread responderThread;

    private volatile boolean stopped;
    private volatile Throwable progressFailure;
    private volatile boolean parked;
    private volatile Thread waiter;
    private long nextTimerCheckNs;
    /** When a duty cycle last started (opaque: written each cycle, read by the responder). */
    @SuppressWarnings("unused")
    private long lastCycleNs;

    EndpointAgent(
        final EndpointAddress address,
        final boolean progressThread,
        final boolean responder,
        final long pullResendTimeoutNs,
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
        this.progressThread = progressThread ? new Thread(this::runProgress, "pinmx-progress-" + address) : null;
        this.responderThread = progressThread || !responder ? null :
            new Thread(this::runResponder, "pinmx-responder-" + address);
    }

    void start()
    {
        LAST_CYCLE_NS.setOpaque(this, System.nanoTime());
        final Thread thread = progressThread != null ? progressThread : responderThread;
        if (thread != null)
        {
            thread.setDaemon(true);
            thread.start();
        }
    }

    boolean hasProgressThread()
    {
        return progressThread != null;
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

    /** One duty cycle. @return work done (0 = idle). */
    int doWork()
    {
        return doWork(true);
    }

    private int doWork(final boolean receive)
    {
        LAST_CYCLE_NS.setOpaque(this, System.nanoTime());
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
        runIfFree(null, 0);
    }

    /**
     * Without a progress thread, poll runs the duty cycle, unless another caller is running it, handing received
     * frames to its handler while no event is queued before them.
     *
     * @return events delivered to the handler.
     */
    int runIfFree(final EventHandler handler, final int limit)
    {
        if (progressThread == null && agentLock.tryLock())
        {
            try
            {
                final int delivered = null == handler ? 0 : dispatcher.receive(handler, limit);
                doWork(null == handler);
                return delivered;
            }
            finally
            {
                agentLock.unlock();
            }
        }
        return 0;
    }

    /** Await, after spinning and yielding: run the agent parked in poll, or park until it unparks us. */
    void blockAwaiting(final long leftNs)
    {
        if (progressThread == null)
        {
            agentLock.lock();
            try
            {
                publishCountersIfDue();
                park(leftNs);
            }
            finally
            {
                agentLock.unlock();
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
     * Close: stop the progress thread (waiting up to 10 s), then run {@code teardown} holding {@link #agentLock},
     * so no poll or await is inside the duty cycle while the transport goes.
     */
    void stop(final Runnable teardown)
    {
        stopped = true;
        if (progressThread != null)
        {
            udp.wakeup();
            join(progressThread);
        }
        else if (responderThread != null)
        {
            LockSupport.unpark(responderThread);
            join(responderThread);
        }
        agentLock.lock();
        try
        {
            teardown.run();
        }
        finally
        {
            agentLock.unlock();
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

    private static void join(final Thread thread)
    {
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void runResponder()
    {
        try
        {
            while (!stopped)
            {
                LockSupport.parkNanos(this, RESPONDER_CHECK_NS);
                if (System.nanoTime() - (long)LAST_CYCLE_NS.getOpaque(this) >= RESPONDER_IDLE_NS &&
                    agentLock.tryLock())
                {
                    try
                    {
                        if (!stopped)
                        {
                            // probes come by UDP, which a cycle otherwise polls only every few cycles while cold
                            dispatcher.pollUdpNext();
                            doWork();
                            dispatcher.answerProbesDroppingFrames();
                        }
                    }
                    finally
                    {
                        agentLock.unlock();
                    }
                }
            }
        }
        catch (final Throwable t)
        {
            progressFailure = t;
            unparkWaiter();
        }
    }

    private void runProgress()
    {
        try
        {
            final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.providerAgent(() ->
            {
                publishCountersIfDue();
                park(PARK_MAX_NS);
            });
            while (!stopped)
            {
                idle.idle(doWork());
            }
        }
        catch (final Throwable t)
        {
            progressFailure = t;
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

    /** Block in poll until a datagram, a doorbell, a wake-up or the next timer. */
    private void park(final long maxNs)
    {
        final long timeoutNs = puller.hasActivePulls() || writer.hasActive() ?
            Math.min(maxNs, pullResendTimeoutNs / 2) : Math.min(maxNs, PARK_MAX_NS);
        parked = true;
        if (ring != null)
        {
            ring.setConsumerParked(true);
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
                ring.setConsumerParked(false);
            }
            parked = false;
            dispatcher.pollUdpNext();
        }
    }
}
