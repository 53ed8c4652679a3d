package io.pinmx.mx;

import io.pinmx.mx.match.MatchQueue;
import io.pinmx.mx.reliability.ResendTimer;
import io.pinmx.pin.provider.ProcessStatus;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.PeerLiveness;
import io.pinmx.pin.wire.FrameKind;
import org.agrona.concurrent.CachedNanoClock;

/**
 * Owns time in the protocol: connect resends and deadlines, go-back-N resends (none while they wait untaken in a
 * same-host ring, see {@link ResendTimer}), frames the driver refused for now sent again each round, delayed acks,
 * keepalives, and liveness. We wait on a partner while frames to it are unacknowledged, a rendezvous or pull with it
 * runs, a message from it arrives, or a posted receive names it or any source. A partner we wait on that stays
 * silent is asked to answer (keepalive) and the driver is asked what it knows ({@link DriverEndpoint#checkLiveness}):
 * a partner the driver knows to be gone fails at once; one it knows to be alive (its process runs on this host) is
 * never given up however long it is silent; a probe its driver answered counts as hearing from it; otherwise silence
 * past the peer timeout fails it, and it is told so. Also says when the next of these falls due, which bounds how
 * long the progress agent may block: with none due sooner, a part of the shortest interval such a timer has
 * ({@link #maxIdleWaitNs(EndpointOptions)}), since an API thread may arm one (a send, a connect, a receive that waits
 * on a partner) while the agent blocks. Guarded by the endpoint lock.
 */
final class PartnerTimers
{
    private static final long MIN_IDLE_WAIT_NS = 10_000L;
    /**
     * A timer an API thread arms while the agent blocks is run at most 1 / {@value} of its interval late: the part
     * of the shortest interval the longest idle wait is.
     */
    private static final long IDLE_WAIT_PARTS = 2;
    /**
     * The longest idle wait while something the driver refused for now waits to be tried again: frames (a peer's full
     * ring) here, pull starts in {@link EndpointRound}.
     */
    static final long REFUSED_RETRY_NS = 1_000_000L;
    /** Silence after which, and interval at which, the driver is asked whether a partner we wait on is alive. */
    static final long LIVENESS_CHECK_NS = 50_000_000L;

    private final EndpointOptions options;
    private final CachedNanoClock now;
    private final PartnerTable partners;
    private final Connector connector;
    private final OutboundQueue outbound;
    private final FrameSender sender;
    private final ResendTimer resendTimer;
    private final DriverEndpoint driver;
    private final MatchQueue matchQueue;
    private final PeerLiveness liveness = new PeerLiveness();
    /** The driver judges liveness without the partner's library: receive-only waits can be watched. */
    private final boolean driverJudgesLiveness;
    /** The longest idle wait: when no timer falls due sooner. */
    private final long longestIdleWaitNs;

    PartnerTimers(
        final EndpointOptions options, final CachedNanoClock now, final PartnerTable partners, final Connector connector,
        final OutboundQueue outbound, final FrameSender sender, final DriverEndpoint driver, final MatchQueue matchQueue)
    {
        this.driver = driver;
        this.matchQueue = matchQueue;
        this.driverJudgesLiveness = driver.info().features().contains(DriverFeature.LIVENESS_PROBES);
        this.options = options;
        this.now = now;
        this.partners = partners;
        this.connector = connector;
        this.outbound = outbound;
        this.sender = sender;
        this.resendTimer = new ResendTimer(options.resendTimeoutNs, options.maxResends);
        this.longestIdleWaitNs = maxIdleWaitNs(options);
    }

    /**
     * @return the longest idle wait the options allow: {@code 1 / IDLE_WAIT_PARTS} of the shortest of the resend
     *         timeout, the connect resend, the keepalive interval and the liveness check, the timers an API thread
     *         arms.
     */
    static long maxIdleWaitNs(final EndpointOptions options)
    {
        final long shortestNs = Math.min(Math.min(options.resendTimeoutNs, options.connectResendNs),
            Math.min(options.keepaliveIntervalNs, LIVENESS_CHECK_NS));
        return Math.max(MIN_IDLE_WAIT_NS, shortestNs / IDLE_WAIT_PARTS);
    }

    /**
     * @param idleCaller the round was run by an API thread (a CALLER-mode round, or a wait polling in THREAD mode)
     *                   and found no event: acks a partner waits for go out now rather than after the ack delay,
     *                   since no reply is about to carry them (the progress thread's own rounds keep the delay: every
     *                   one after an arrival is empty, before the application could answer).
     */
    void run(final boolean idleCaller)
    {
        for (int i = partners.activeCount() - 1; i >= 0; i--)
        {
            final Partner p = partners.activeAt(i);
            switch (p.connection)
            {
                case CONNECTING -> connector.onConnectTimer(p);
                case CONNECTED_UNVERIFIED, VERIFYING, VERIFIED -> connectedTimers(p, idleCaller);
                case FAILED ->
                {
                }
            }
        }
    }

    /**
     * @return how long progress may sleep before a timer (ack, resend, keepalive, connect) falls due, at most
     *         {@link #maxIdleWaitNs(EndpointOptions)}, and {@value #REFUSED_RETRY_NS} ns while refused frames
     *         wait.
     */
    long idleWaitNs(final long nowNs)
    {
        long next = nowNs + longestIdleWaitNs;
        for (int i = 0, n = partners.activeCount(); i < n; i++)
        {
            final Partner p = partners.activeAt(i);
            next = connector.nextResendNs(p, next);
            if (p.holdingRefused)
            {
                next = Math.min(next, nowNs + REFUSED_RETRY_NS);
            }
            if (p.isConnected())
            {
                next = Math.min(next, Math.min(resendTimer.deadlineNs(p.window, p.unreadSeenNs), p.tracker.ackDeadlineNs()));
                if (isWaitingOn(p))
                {
                    final long silentSinceNs = p.silentSinceNs(true, nowNs);
                    next = Math.min(next, (p.lastKeepaliveNs - silentSinceNs >= 0 ? p.lastKeepaliveNs : silentSinceNs) +
                        options.keepaliveIntervalNs);
                    next = Math.min(next, Math.max(silentSinceNs, p.livenessCheckedNs) + LIVENESS_CHECK_NS);
                }
            }
        }
        return Math.max(MIN_IDLE_WAIT_NS, next - nowNs);
    }

    static long minIdleWaitNs()
    {
        return MIN_IDLE_WAIT_NS;
    }

    /**
     * Receive-only waits count where the partner's liveness can be judged without its library (the driver probes,
     * or its process is known here): otherwise a live partner that computes without polling would be given up.
     */
    private boolean isWaitingOn(final Partner p)
    {
        return !p.window.isEmpty() || p.outstandingRendezvous > 0 || p.incoming.feedsRequest() ||
            (driverJudgesLiveness || 0 != p.localPid) &&
            (matchQueue.postedFrom(p.id()) > 0 || matchQueue.postedFromAnySource() > 0);
    }

    private void connectedTimers(final Partner p, final boolean idleCaller)
    {
        final long nowNs = now.nanoTime();
        final boolean waiting = isWaitingOn(p);
        long silentNs = nowNs - p.silentSinceNs(waiting, nowNs);
        if (0 == p.livenessCheckedNs)
        {
            // once at connect, while the partner surely runs: a driver that probes learns its process early
            if (checkLiveness(p, nowNs))
            {
                return;
            }
            p.liveness = PeerLiveness.State.UNKNOWN;
        }
        else if (!waiting || silentNs < LIVENESS_CHECK_NS)
        {
            p.liveness = PeerLiveness.State.UNKNOWN;
        }
        else if (nowNs - p.livenessCheckedNs >= LIVENESS_CHECK_NS)
        {
            if (checkLiveness(p, nowNs))
            {
                return;
            }
            silentNs = nowNs - p.silentSinceNs(true, nowNs);
        }
        if (waiting && silentNs > options.peerTimeoutNs() && PeerLiveness.State.ALIVE != p.liveness)
        {
            // It may be alive and only unable to answer for now: tell it, so that its receives from
            // us fail instead of waiting for a connection we have given up (before the failure drops
            // our reference to its peer entry).
            sender.sendNack(p.peerIndex, p.remoteEndpointIndex, p.remoteSessionId, FrameKind.ACK, 0);
            partners.failLost(p, p.describe() + " unreachable: nothing heard for " + silentNs / 1_000_000 +
                " ms (limit " + options.peerTimeoutNs() / 1_000_000 + " ms) with " + p.window.inFlight() +
                " frames unacknowledged from seq " + p.window.oldestSeq() +
                (null != p.lastSendError ? "; last send error: " + p.lastSendError : ""));
            return;
        }
        // Retries past maxResends from a partner that still answers mean it is holding us back
        // (full unexpected queue): keep resending; a silent one was failed just above.
        outbound.retryRefused(p);
        lookAtReceiveQueue(p, nowNs);
        switch (resendTimer.check(p.window, nowNs, p.unreadSeenNs))
        {
            case RESEND, GIVE_UP -> outbound.resendAll(p);
            case WAIT ->
            {
            }
        }
        if (p.tracker.isAckDue(nowNs) || idleCaller && p.tracker.isAckAwaited())
        {
            sender.sendAck(p, false);
        }
        else if (waiting && silentNs > options.keepaliveIntervalNs && nowNs - p.lastKeepaliveNs > options.keepaliveIntervalNs)
        {
            p.lastKeepaliveNs = nowNs;
            sender.sendAck(p, true);
        }
        partners.failIfSendPathBroken(p);
    }

    /** The opener said which process of this host the partner is: judge by it where the driver knows nothing. */
    private void judgeByLocalProcess(final Partner p)
    {
        if (ProcessStatus.runs(p.localPid, p.localStartTime))
        {
            liveness.alive(p.localPid);
        }
        else
        {
            liveness.gone(p.localPid, "its process " + p.localPid + " exited");
        }
    }

    /**
     * Once frames that all went into the partner's receive queue fall due, asks the driver whether the partner has read
     * them (against a mark taken after the oldest went in), and notes when they were seen unread.
     */
    private void lookAtReceiveQueue(final Partner p, final long nowNs)
    {
        if (!p.window.allInReceiveQueue() || nowNs - resendTimer.deadlineNs(p.window, p.unreadSeenNs) < 0)
        {
            return;
        }
        try
        {
            if (p.queueMarkSentAtNs != p.window.oldestSentAtNs() || DriverEndpoint.NO_RECEIVE_QUEUE == p.queueMark)
            {
                p.queueMark = driver.receiveQueueWritten(p.peerIndex, p.remoteEndpointIndex, p.remoteSessionId);
                p.queueMarkSentAtNs = p.window.oldestSentAtNs();
            }
            if (DriverEndpoint.NO_RECEIVE_QUEUE != p.queueMark &&
                driver.receiveQueueRead(p.peerIndex, p.remoteEndpointIndex, p.remoteSessionId) - p.queueMark < 0)
            {
                p.unreadSeenNs = nowNs;
            }
        }
        catch (final RuntimeException e)
        {
            p.queueMark = DriverEndpoint.NO_RECEIVE_QUEUE;
        }
    }

    /**
     * Asks the driver whether a silent partner we wait on is alive.
     *
     * @return true when it is gone and was failed now.
     */
    private boolean checkLiveness(final Partner p, final long nowNs)
    {
        p.livenessCheckedNs = nowNs;
        try
        {
            driver.checkLiveness(p.peerIndex, p.remoteEndpointIndex, p.remoteSessionId, liveness);
        }
        catch (final RuntimeException e)
        {
            liveness.unknown(0);
        }
        if (PeerLiveness.State.UNKNOWN == liveness.state() && 0 != p.localPid)
        {
            judgeByLocalProcess(p);
        }
        p.liveness = liveness.state();
        if (0 != liveness.pid())
        {
            p.pid = liveness.pid();
        }
        if (PeerLiveness.NEVER != liveness.answeredAgoNs())
        {
            // its driver answered a probe: the partner is heard from, though its library is silent
            final long answeredNs = nowNs - liveness.answeredAgoNs();
            if (answeredNs - p.lastHeardNs > 0)
            {
                p.lastHeardNs = answeredNs;
            }
        }
        if (PeerLiveness.State.GONE != liveness.state())
        {
            return false;
        }
        partners.failLost(p, p.describe() + " is gone: " + liveness.reason() + " (" + p.window.inFlight() +
            " frames unacknowledged)");
        return true;
    }
}
