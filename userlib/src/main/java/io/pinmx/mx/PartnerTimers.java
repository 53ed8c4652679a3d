package io.pinmx.mx;

import io.pinmx.mx.reliability.ResendTimer;
import io.pinmx.pin.wire.FrameKind;
import org.agrona.concurrent.CachedNanoClock;

/**
 * Owns time in the protocol: connect resends and deadlines, go-back-N resends, delayed acks,
 * keepalives, and liveness (a partner we wait on that stays silent past the peer timeout is
 * failed and told so). Also says when the next of these falls due, which bounds how long the
 * progress agent may block. Guarded by the endpoint lock.
 */
final class PartnerTimers
{
    private static final long MAX_IDLE_WAIT_NS = 1_000_000L;
    private static final long MIN_IDLE_WAIT_NS = 10_000L;

    private final EndpointOptions options;
    private final CachedNanoClock now;
    private final PartnerTable partners;
    private final Connector connector;
    private final OutboundQueue outbound;
    private final FrameSender sender;
    private final ResendTimer resendTimer;

    PartnerTimers(
        final EndpointOptions options, final CachedNanoClock now, final PartnerTable partners, final Connector connector,
        final OutboundQueue outbound, final FrameSender sender)
    {
        this.options = options;
        this.now = now;
        this.partners = partners;
        this.connector = connector;
        this.outbound = outbound;
        this.sender = sender;
        this.resendTimer = new ResendTimer(options.resendTimeoutNs, options.maxResends);
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
     * @return how long progress may sleep before a timer (ack, resend, keepalive, connect) falls due.
     */
    long idleWaitNs(final long nowNs)
    {
        long next = nowNs + MAX_IDLE_WAIT_NS;
        for (int i = 0, n = partners.activeCount(); i < n; i++)
        {
            final Partner p = partners.activeAt(i);
            next = connector.nextResendNs(p, next);
            if (p.isConnected())
            {
                next = Math.min(next, Math.min(resendTimer.deadlineNs(p.window), p.tracker.ackDeadlineNs()));
                if (isWaitingOn(p))
                {
                    final long silentSinceNs = p.silentSinceNs(true, nowNs);
                    next = Math.min(next, (p.lastKeepaliveNs - silentSinceNs >= 0 ? p.lastKeepaliveNs : silentSinceNs) +
                        options.keepaliveIntervalNs);
                }
            }
        }
        return Math.max(MIN_IDLE_WAIT_NS, next - nowNs);
    }

    static long minIdleWaitNs()
    {
        return MIN_IDLE_WAIT_NS;
    }

    private static boolean isWaitingOn(final Partner p)
    {
        return !p.window.isEmpty() || p.outstandingRendezvous > 0 || p.incoming.feedsRequest();
    }

    private void connectedTimers(final Partner p, final boolean idleCaller)
    {
        final long nowNs = now.nanoTime();
        final boolean waiting = isWaitingOn(p);
        final long silentNs = nowNs - p.silentSinceNs(waiting, nowNs);
        if (waiting && silentNs > options.peerTimeoutNs())
        {
            // It may be alive and only unable to answer for now: tell it, so that its receives from
            // us fail instead of waiting for a connection we have given up (before the failure drops
            // our reference to its peer entry).
            sender.sendNack(p.peerIndex, p.remoteEndpointIndex, p.remoteSessionId, FrameKind.ACK, 0);
            partners.fail(p, p.describe() + " unreachable: nothing heard for " + silentNs / 1_000_000 +
                " ms (limit " + options.peerTimeoutNs() / 1_000_000 + " ms) with " + p.window.inFlight() +
                " frames unacknowledged from seq " + p.window.oldestSeq() +
                (null != p.lastSendError ? "; last send error: " + p.lastSendError : ""));
            return;
        }
        // Retries past maxResends from a partner that still answers mean it is holding us back
        // (full unexpected queue): keep resending; a silent one was failed just above.
        switch (resendTimer.check(p.window, nowNs))
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
}
