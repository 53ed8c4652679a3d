package io.pinmx.mx.match;

import io.pinmx.mx.buffer.BufferPool;

import java.util.ArrayDeque;

/**
 * Messages that arrived before a matching receive, in arrival order. Bounded by message
 * count and by stored eager bytes: when a new message does not fit, {@code tryAdd*} returns
 * null and the caller holds the sender back (leaves the frame unacknowledged so it is
 * resent later); nothing is dropped for good. Rendezvous messages count against the
 * message bound only, since only their header is kept. Not thread-safe; guarded by the
 * endpoint's progress lock.
 */
public final class UnexpectedQueue
{
    private final BufferPool pool;
    private final int maxMessages;
    private final long maxEagerBytes;
    private final ArrayDeque<UnexpectedMessage> freeNodes = new ArrayDeque<>();
    private UnexpectedMessage head;
    private UnexpectedMessage tail;
    private int size;
    private int held;
    private long storedEagerBytes;

    /**
     * @param pool          where eager bytes are stored.
     * @param maxMessages   most messages held (queued or matched but not yet released).
     * @param maxEagerBytes most eager bytes held.
     */
    public UnexpectedQueue(final BufferPool pool, final int maxMessages, final long maxEagerBytes)
    {
        if (maxMessages < 1 || maxEagerBytes < 0)
        {
            throw new IllegalArgumentException(
                "unexpected queue bounds must be >= 1 message and >= 0 bytes, were " + maxMessages + " and " + maxEagerBytes);
        }
        this.pool = pool;
        this.maxMessages = maxMessages;
        this.maxEagerBytes = maxEagerBytes;
    }

    /**
     * @return the queued message, storage reserved for all of its bytes, or null if it does not fit now.
     * @throws IllegalArgumentException if the length is negative or larger than the pool's biggest buffer.
     */
    public UnexpectedMessage tryAddEager(final int source, final long matchInfo, final long length)
    {
        if (length < 0 || length > pool.maxBufferBytes())
        {
            throw new IllegalArgumentException("unexpected eager message from " + source + " matchInfo " +
                MatchInfo.format(matchInfo) + " has length " + length + ", limit " + pool.maxBufferBytes());
        }
        if (held >= maxMessages || storedEagerBytes + length > maxEagerBytes)
        {
            return null;
        }
        final UnexpectedMessage m = node(UnexpectedMessage.Kind.EAGER, source, matchInfo, length);
        m.storage = 0 == length ? null : pool.acquire(length);
        storedEagerBytes += length;
        append(m);
        return m;
    }

    /**
     * @return the queued header, or null if the message bound is reached.
     */
    public UnexpectedMessage tryAddRendezvous(
        final int source,
        final long matchInfo,
        final long length,
        final int senderRegionId,
        final long senderRegionOffset,
        final int senderHandle)
    {
        if (length < 0)
        {
            throw new IllegalArgumentException("unexpected rendezvous from " + source + " matchInfo " +
                MatchInfo.format(matchInfo) + " has negative length " + length);
        }
        if (held >= maxMessages)
        {
            return null;
        }
        final UnexpectedMessage m = node(UnexpectedMessage.Kind.RENDEZVOUS, source, matchInfo, length);
        m.senderRegionId = senderRegionId;
        m.senderRegionOffset = senderRegionOffset;
        m.senderHandle = senderHandle;
        append(m);
        return m;
    }

    /**
     * Removes the earliest arrived message the receive accepts; the caller releases it when done.
     */
    public UnexpectedMessage match(final int source, final long matchInfo, final long matchMask)
    {
        final UnexpectedMessage m = peek(source, matchInfo, matchMask);
        if (null != m)
        {
            unlink(m);
        }
        return m;
    }

    /**
     * @return the earliest arrived message the receive would accept, left queued; or null.
     */
    public UnexpectedMessage peek(final int source, final long matchInfo, final long matchMask)
    {
        for (UnexpectedMessage m = head; null != m; m = m.next)
        {
            if (MatchInfo.sourceMatches(source, m.source) && MatchInfo.matches(matchInfo, matchMask, m.matchInfo))
            {
                return m;
            }
        }
        return null;
    }

    /**
     * Returns a matched (or discarded) message's storage and budget.
     *
     * @throws IllegalStateException if it is still queued.
     */
    public void release(final UnexpectedMessage m)
    {
        if (m.queued)
        {
            throw new IllegalStateException("release of a message still queued: " + m);
        }
        if (null != m.storage)
        {
            pool.release(m.storage);
            m.storage = null;
        }
        if (UnexpectedMessage.Kind.EAGER == m.kind)
        {
            storedEagerBytes -= m.length;
        }
        held--;
        m.kind = null;
        freeNodes.addFirst(m);
    }

    /**
     * Drops and releases every queued message from one source (its partner failed or restarted).
     *
     * @return how many were dropped.
     */
    public int removeAllFrom(final int source)
    {
        int removed = 0;
        UnexpectedMessage m = head;
        while (null != m)
        {
            final UnexpectedMessage next = m.next;
            if (m.source == source)
            {
                unlink(m);
                release(m);
                removed++;
            }
            m = next;
        }
        return removed;
    }

    public int size()
    {
        return size;
    }

    public long storedEagerBytes()
    {
        return storedEagerBytes;
    }

    private UnexpectedMessage node(
        final UnexpectedMessage.Kind kind, final int source, final long matchInfo, final long length)
    {
        UnexpectedMessage m = freeNodes.pollFirst();
        if (null == m)
        {
            m = new UnexpectedMessage();
        }
        m.kind = kind;
        m.source = source;
        m.matchInfo = matchInfo;
        m.length = length;
        m.bytesArrived = 0;
        m.senderRegionId = 0;
        m.senderRegionOffset = 0;
        m.senderHandle = 0;
        held++;
        return m;
    }

    private void append(final UnexpectedMessage m)
    {
        m.queued = true;
        m.previous = tail;
        m.next = null;
        if (null == tail)
        {
            head = m;
        }
        else
        {
            tail.next = m;
        }
        tail = m;
        size++;
    }

    private void unlink(final UnexpectedMessage m)
    {
        if (null == m.previous)
        {
            head = m.next;
        }
        else
        {
            m.previous.next = m.next;
        }
        if (null == m.next)
        {
            tail = m.previous;
        }
        else
        {
            m.next.previous = m.previous;
        }
        m.previous = null;
        m.next = null;
        m.queued = false;
        size--;
    }
}
