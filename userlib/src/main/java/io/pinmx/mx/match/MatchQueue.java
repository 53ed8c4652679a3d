package io.pinmx.mx.match;

import org.agrona.collections.Int2IntHashMap;

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
    /** Posted receives by the source they name (liveness: a partner a receive waits on is watched). */
    private final Int2IntHashMap postedBySource = new Int2IntHashMap(0);
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
        return postedBySource.get(source);
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
            final int posted = postedBySource.get(source) + delta;
            if (0 == posted)
            {
                postedBySource.remove(source);
            }
            else
            {
                postedBySource.put(source, posted);
            }
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
