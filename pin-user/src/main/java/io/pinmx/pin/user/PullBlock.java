package io.pinmx.pin.user;

/**
 * One block of a UDP pull in flight: its place in the pull, which of its PULL_REPLY frames have arrived (a bit per
 * frame, at most 64), when it was last requested or answered (a block still receiving replies is not late) and how
 * often it was requested again. Owned by the agent.
 */
final class PullBlock
{
    private static final long UNUSED = -1;

    private long pullOffset = UNUSED;
    private int length;
    private long receivedMask;
    private long lastActivityNs;
    private int retries;

    boolean inUse()
    {
        return pullOffset != UNUSED;
    }

    void request(final long offset, final int bytes, final long nowNs)
    {
        pullOffset = offset;
        length = bytes;
        receivedMask = 0;
        retries = 0;
        lastActivityNs = nowNs;
    }

    void clear()
    {
        pullOffset = UNUSED;
    }

    boolean covers(final long offset)
    {
        return inUse() && offset >= pullOffset && offset < pullOffset + length;
    }

    long pullOffset()
    {
        return pullOffset;
    }

    int length()
    {
        return length;
    }

    long end()
    {
        return pullOffset + length;
    }

    int retries()
    {
        return retries;
    }

    /** A resend: one more request of the missing frames, now. */
    void retried(final long nowNs)
    {
        retries++;
        lastActivityNs = nowNs;
    }

    /** @return whether the block has waited long enough for a resend, the wait doubling with each (up to 16x). */
    boolean isLate(final long nowNs, final long resendTimeoutNs)
    {
        return inUse() && nowNs - lastActivityNs >= resendTimeoutNs << Math.min(retries, 4);
    }

    boolean hasFrame(final int frame)
    {
        return (receivedMask & (1L << frame)) != 0;
    }

    void frameArrived(final int frame, final long nowNs)
    {
        receivedMask |= 1L << frame;
        lastActivityNs = nowNs;
    }

    int framesReceived()
    {
        return Long.bitCount(receivedMask);
    }

    /** @return a mask of the frames of {@code frames} not yet received. */
    long missingMask(final int frames)
    {
        return ~receivedMask & (frames == 64 ? -1L : (1L << frames) - 1);
    }
}
