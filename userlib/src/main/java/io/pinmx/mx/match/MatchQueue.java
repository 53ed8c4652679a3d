package io.pinmx.mx.match;

import java.util.Arrays;

/**
 * Posted receives in posting order. An incoming message takes the first receive that
 * accepts it, which together with in-order delivery per partner gives MPI's
 * non-overtaking rule. Intrusive links: no allocation. Not thread-safe; the endpoint's
 * progress lock guards it.
 */
public final class MatchQueue
{
    private PostedReceive head;
    private PostedReceive tail;
    private int size;
    private static final int INITIAL_SOURCES = 16;

    /**
     * Posted receives by the source they name (liveness: a partner a receive waits on is watched), indexed by the
     * source: partner ids are dense from 0, so an array grown to the largest one posted replaces a hash lookup on
     * every post and match.
     */
    private int[] postedBySource = new int[INITIAL_SOURCES];
    private int postedFromAnySource;

    /**
     * @throws IllegalStateException if the receive is already queued (here or elsewhere).
     */
    public void post(final PostedReceive receive)
    {
        if (receive.queued)
        {
            throw new IllegalStateException("receive already posted: " + receive);
        }
        receive.queued = true;
        receive.previous = tail;
        receive.next = null;
        if (null == tail)
        {
            head = receive;
        }
        else
        {
            tail.next = receive;
        }
        tail = receive;
        size++;
        count(receive.source(), 1);
    }

    /**
     * @return how many posted receives wait for a message from this partner in particular.
     */
    public int postedFrom(final int source)
    {
        return source >= 0 && source < postedBySource.length ? postedBySource[source] : 0;
    }

    /**
     * @return how many posted receives accept a message from any partner.
     */
    public int postedFromAnySource()
    {
        return postedFromAnySource;
    }

    private void count(final int source, final int delta)
    {
        if (MatchInfo.ANY_SOURCE == source)
        {
            postedFromAnySource += delta;
        }
        else
        {
            if (source >= postedBySource.length)
            {
                postedBySource = Arrays.copyOf(postedBySource, Math.max(source + 1, 2 * postedBySource.length));
            }
            postedBySource[source] += delta;
        }
    }

    /**
     * Removes and returns the earliest posted receive accepting the message, or null.
     */
    public PostedReceive match(final int messageSource, final long messageMatchInfo)
    {
        for (PostedReceive r = head; null != r; r = r.next)
        {
            if (r.accepts(messageSource, messageMatchInfo))
            {
                unlink(r);
                return r;
            }
        }
        return null;
    }

    /**
     * @return true if the receive was queued here and is now removed (a cancel that won).
     */
    public boolean remove(final PostedReceive receive)
    {
        if (!receive.queued)
        {
            return false;
        }
        for (PostedReceive r = head; null != r; r = r.next)
        {
            if (r == receive)
            {
                unlink(r);
                return true;
            }
        }
        return false;
    }

    public int size()
    {
        return size;
    }

    public boolean isEmpty()
    {
        return 0 == size;
    }

    private void unlink(final PostedReceive r)
    {
        if (null == r.previous)
        {
            head = r.next;
        }
        else
        {
            r.previous.next = r.next;
        }
        if (null == r.next)
        {
            tail = r.previous;
        }
        else
        {
            r.next.previous = r.previous;
        }
        r.previous = null;
        r.next = null;
        r.queued = false;
        size--;
        count(r.source(), -1);
    }
}
