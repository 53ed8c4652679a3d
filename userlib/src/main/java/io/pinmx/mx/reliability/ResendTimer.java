package io.pinmx.mx.reliability;

/**
 * Decides, for one partner's send window, whether it is time to resend and whether the
 * partner is to be given up: the oldest unacknowledged frame is resent every
 * {@code resendTimeoutNs}; after {@code maxResends} resends without an acknowledgement the
 * partner is declared unreachable.
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

    public Verdict check(final SendWindow window, final long nowNs)
    {
        if (window.isEmpty() || nowNs - window.oldestSentAtNs() < resendTimeoutNs)
        {
            return Verdict.WAIT;
        }
        return window.oldestSendCount() > maxResends ? Verdict.GIVE_UP : Verdict.RESEND;
    }

    /**
     * @return the time, after which {@link #check} may change its verdict; Long.MAX_VALUE when idle.
     */
    public long deadlineNs(final SendWindow window)
    {
        return window.isEmpty() ? Long.MAX_VALUE : window.oldestSentAtNs() + resendTimeoutNs;
    }
}
