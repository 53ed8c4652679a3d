package io.pinmx.mx.reliability;

/**
 * Decides, for one partner's send window, whether it is time to resend and whether the
 * partner is to be given up: the oldest unacknowledged frame is resent every
 * {@code resendTimeoutNs}; after {@code maxResends} resends without an acknowledgement the
 * partner is declared unreachable. A window whose frames still wait unread in the partner's
 * receive queue (a same-host ring; the caller asks the driver when they fall due) is not resent:
 * the partner is descheduled or not polling, and a copy would only be discarded when it reads.
 * The last moment they were seen unread counts as their send: a frame still unacknowledged a
 * resend timeout after that is one the partner refused (its hold-back) and is resent.
 * Whether such a partner lives is the liveness checks' question, not the timer's.
 */
public final class ResendTimer
{
    /** What the window needs now. */
    public enum Verdict
    {
        WAIT,
        RESEND,
        GIVE_UP
    }

    /** {@link #deadlineNs}: the window was not seen unread in a receive queue. */
    public static final long NEVER_SEEN_UNREAD = Long.MIN_VALUE;

    private final long resendTimeoutNs;
    private final int maxResends;

    public ResendTimer(final long resendTimeoutNs, final int maxResends)
    {
        if (resendTimeoutNs <= 0 || maxResends < 0)
        {
            throw new IllegalArgumentException(
                "resendTimeoutNs must be > 0 and maxResends >= 0, were " + resendTimeoutNs + " and " + maxResends);
        }
        this.resendTimeoutNs = resendTimeoutNs;
        this.maxResends = maxResends;
    }

    /**
     * @param unreadSeenNs when the window's frames were last seen unread in the partner's receive queue, or
     *                     {@link #NEVER_SEEN_UNREAD}: that moment counts as their send, so a frame read just now is
     *                     given a resend timeout for its acknowledgement.
     */
    public Verdict check(final SendWindow window, final long nowNs, final long unreadSeenNs)
    {
        if (window.isEmpty() || nowNs - deadlineNs(window, unreadSeenNs) < 0)
        {
            return Verdict.WAIT;
        }
        return window.oldestSendCount() > maxResends ? Verdict.GIVE_UP : Verdict.RESEND;
    }

    /**
     * @param unreadSeenNs as for {@link #check}.
     * @return the time after which {@link #check} may change its verdict unless the partner acknowledges first;
     *         Long.MAX_VALUE when idle.
     */
    public long deadlineNs(final SendWindow window, final long unreadSeenNs)
    {
        if (window.isEmpty())
        {
            return Long.MAX_VALUE;
        }
        final long dueNs = window.oldestSentAtNs() + resendTimeoutNs;
        return NEVER_SEEN_UNREAD == unreadSeenNs || unreadSeenNs - window.oldestSentAtNs() < 0 ? dueNs :
            Math.max(dueNs, unreadSeenNs + resendTimeoutNs);
    }
}
