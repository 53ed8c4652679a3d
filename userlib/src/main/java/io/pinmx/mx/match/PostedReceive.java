package io.pinmx.mx.match;

/**
 * One posted receive waiting in a {@link MatchQueue}: what it accepts plus the request that
 * owns it. Owned by that request and reused with it, so posting allocates nothing.
 */
public final class PostedReceive
{
    long matchInfo;
    long matchMask;
    int source;
    Object owner;
    PostedReceive previous;
    PostedReceive next;
    boolean queued;

    /**
     * @param owner the request this receive belongs to, returned by a successful match.
     */
    public PostedReceive(final Object owner)
    {
        this.owner = owner;
    }

    /**
     * Sets what this receive accepts; only while it is not queued.
     *
     * @param source a partner id (from 0) or {@link MatchInfo#ANY_SOURCE}.
     * @throws IllegalArgumentException if source is neither, or bits of matchInfo are set outside matchMask.
     * @throws IllegalStateException    if the receive is still queued.
     */
    public PostedReceive set(final int source, final long matchInfo, final long matchMask)
    {
        if (queued)
        {
            throw new IllegalStateException("posted receive is queued; cancel or match it before reuse");
        }
        if (source < 0 && MatchInfo.ANY_SOURCE != source)
        {
            throw new IllegalArgumentException("source " + source + " is neither a partner id (from 0) nor ANY_SOURCE");
        }
        MatchInfo.validate(matchInfo, matchMask);
        this.source = source;
        this.matchInfo = matchInfo;
        this.matchMask = matchMask;
        return this;
    }

    public int source()
    {
        return source;
    }

    public long matchInfo()
    {
        return matchInfo;
    }

    public long matchMask()
    {
        return matchMask;
    }

    public Object owner()
    {
        return owner;
    }

    public boolean accepts(final int messageSource, final long messageMatchInfo)
    {
        return MatchInfo.sourceMatches(source, messageSource) && MatchInfo.matches(matchInfo, matchMask, messageMatchInfo);
    }

    public String toString()
    {
        return "PostedReceive{source=" + (MatchInfo.ANY_SOURCE == source ? "any" : Integer.toString(source)) +
            ", matchInfo=" + MatchInfo.format(matchInfo) + ", matchMask=" + MatchInfo.format(matchMask) + '}';
    }
}
