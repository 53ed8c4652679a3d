package io.pinmx.mx.reliability;

/**
 * Decides, for one partner's send window, whether it is time to resend and whether the
 * partner is to be given up: the oldest unacknowledged frame is resent every
 * {@code resendTimeoutNs}; after {@code maxResends} resends without an acknowledgement the
 * partner is declared unreachable. A window whose every frame went into the partner's receive
 * queue (a same-host ring) is not resent until the partner is heard from after its oldest frame
 * went in: until then the partner has not read them (it is descheduled or not polling), and a
 * copy would only be discarded when it does; once heard, an unacknowledged frame is one it
 * refused (its hold-back) and waits for the timer as any other. Whether such a partner lives is
 * the liveness checks' question, not the timer's.
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
     * @param lastHeardNs when the partner was last heard from.
     */
    public Verdict check(final SendWindow window, final long nowNs, final long lastHeardNs)
    {
        if (window.isEmpty() || nowNs - window.oldestSentAtNs() < resendTimeoutNs || isUnread(window, lastHeardNs))
        {
            return Verdict.WAIT;
        }
        return window.oldestSendCount() > maxResends ? Verdict.GIVE_UP : Verdict.RESEND;
    }

    /**
     * @param lastHeardNs when the partner was last heard from.
     * @return the time after which {@link #check} may change its verdict unless the partner is heard from first;
     *         Long.MAX_VALUE when idle or when only hearing from the partner can change it.
     */
    public long deadlineNs(final SendWindow window, final long lastHeardNs)
    {
        return window.isEmpty() || isUnread(window, lastHeardNs) ? Long.MAX_VALUE :
            window.oldestSentAtNs() + resendTimeoutNs;
    }

    private static boolean isUnread(final SendWindow window, final long lastHeardNs)
    {
        return window.allInReceiveQueue() && lastHeardNs - window.oldestSentAtNs() <= 0;
    }
}
