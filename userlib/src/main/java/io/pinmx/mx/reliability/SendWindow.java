package io.pinmx.mx.reliability;

/**
 * The frames sent to one partner and not yet acknowledged, in sequence order. Each slot
 * names the frame by its owner (the request) and the frame's index within it, so a frame
 * is resent by re-encoding it from the request rather than by keeping a copy. Each slot also
 * knows whether its last send went straight into the partner's receive queue (a same-host ring),
 * where nothing can lose it. Fixed capacity; no allocation. Not thread-safe; guarded by the
 * endpoint's progress lock.
 */
public final class SendWindow
{
    /** Told about each frame an acknowledgement covers. */
    @FunctionalInterface
    public interface AckedHandler
    {
        void onAcked(Object owner, int frameIndex);
    }

    /** Told about each frame to send again, with the caller's context (the partner). */
    @FunctionalInterface
    public interface ResendHandler<C>
    {
        void onResend(C context, int seq, Object owner, int frameIndex);
    }

    /** Told about each frame forgotten unacknowledged, with the caller's context (the reason). */
    @FunctionalInterface
    public interface ClearedHandler<C>
    {
        void onCleared(C context, Object owner, int frameIndex);
    }

    private final SequenceNumbers sequences;
    private final Object[] owners;
    private final int[] frameIndexes;
    private final long[] sentAtNs;
    private final int[] sendCounts;
    private final boolean[] inReceiveQueue;
    private final int capacityMask;
    private int nextSeq;
    private int oldestSeq;
    private int count;
    /** Frames in the window whose last send did not go into the partner's receive queue. */
    private int outsideReceiveQueue;

    /**
     * @param capacity   frames in flight at most; a power of two below half the sequence space.
     * @param initialSeq sequence number of the first frame.
     */
    public SendWindow(final SequenceNumbers sequences, final int capacity, final int initialSeq)
    {
        if (capacity < 1 || Integer.bitCount(capacity) != 1 || capacity >= sequences.halfSpace())
        {
            throw new IllegalArgumentException(
                "send window capacity must be a power of two below " + sequences.halfSpace() + ", was " + capacity);
        }
        if (!sequences.isValid(initialSeq))
        {
            throw new IllegalArgumentException("initial sequence " + initialSeq + " outside the sequence space");
        }
        this.sequences = sequences;
        owners = new Object[capacity];
        frameIndexes = new int[capacity];
        sentAtNs = new long[capacity];
        sendCounts = new int[capacity];
        inReceiveQueue = new boolean[capacity];
        capacityMask = capacity - 1;
        nextSeq = initialSeq;
        oldestSeq = initialSeq;
    }

    public boolean hasRoom()
    {
        return count <= capacityMask;
    }

    /** @return frames that may still be appended. */
    public int room()
    {
        return capacityMask + 1 - count;
    }

    public boolean isEmpty()
    {
        return 0 == count;
    }

    public int inFlight()
    {
        return count;
    }

    /**
     * Records a frame just sent.
     *
     * @return its sequence number.
     * @throws IllegalStateException if the window is full.
     */
    public int append(final Object owner, final int frameIndex, final long nowNs)
    {
        if (!hasRoom())
        {
            throw new IllegalStateException("send window full: " + count + " frames unacknowledged from seq " + oldestSeq);
        }
        final int seq = nextSeq;
        final int slot = seq & capacityMask;
        owners[slot] = owner;
        frameIndexes[slot] = frameIndex;
        sentAtNs[slot] = nowNs;
        sendCounts[slot] = 1;
        inReceiveQueue[slot] = false;
        outsideReceiveQueue++;
        nextSeq = sequences.next(seq);
        count++;
        return seq;
    }

    /**
     * Records that the last send of {@code frames} frames from {@code firstSeq} on went into the partner's receive
     * queue, where nothing can lose them. Sequence numbers outside the window are ignored.
     */
    public void inReceiveQueue(final int firstSeq, final int frames)
    {
        int seq = firstSeq;
        for (int i = 0; i < frames; i++)
        {
            final int slot = seq & capacityMask;
            if (sequences.distance(oldestSeq, seq) < count && !inReceiveQueue[slot])
            {
                inReceiveQueue[slot] = true;
                outsideReceiveQueue--;
            }
            seq = sequences.next(seq);
        }
    }

    /**
     * @return true when frames are unacknowledged and the last send of each went into the partner's receive queue:
     *         only the partner can drop them (its hold-back, after reading them), never the path to it.
     */
    public boolean allInReceiveQueue()
    {
        return count > 0 && 0 == outsideReceiveQueue;
    }

    /**
     * Applies a cumulative acknowledgement: every frame before {@code nextExpectedSeq} arrived.
     * Stale or impossible values (not within what was sent) are ignored.
     *
     * @return how many frames it released.
     */
    public int acknowledge(final int nextExpectedSeq, final AckedHandler handler)
    {
        final int acked = sequences.distance(oldestSeq, nextExpectedSeq);
        if (acked == 0 || acked > count)
        {
            return 0;
        }
        for (int i = 0; i < acked; i++)
        {
            final int slot = oldestSeq & capacityMask;
            final Object owner = owners[slot];
            owners[slot] = null;
            leave(slot);
            oldestSeq = sequences.next(oldestSeq);
            count--;
            handler.onAcked(owner, frameIndexes[slot]);
        }
        return acked;
    }

    /**
     * @return send time of the oldest unacknowledged frame; only meaningful when not empty.
     */
    public long oldestSentAtNs()
    {
        return sentAtNs[oldestSeq & capacityMask];
    }

    /**
     * @return how many times the oldest unacknowledged frame was sent; 0 when empty.
     */
    public int oldestSendCount()
    {
        return 0 == count ? 0 : sendCounts[oldestSeq & capacityMask];
    }

    public int oldestSeq()
    {
        return oldestSeq;
    }

    /**
     * Go-back-N: hands every unacknowledged frame, oldest first, to the handler and restamps it; each counts as
     * outside the receive queue until {@link #inReceiveQueue} says its new send went there.
     */
    public <C> void resendAll(final long nowNs, final ResendHandler<C> handler, final C context)
    {
        resendFrom(oldestSeq, nowNs, handler, context);
    }

    /**
     * As {@link #resendAll}, from frame {@code firstSeq} on: the frames of a send the driver refused for now and
     * those appended behind it. A {@code firstSeq} already acknowledged starts at the oldest frame; one not in the
     * window yet resends nothing.
     */
    public <C> void resendFrom(final int firstSeq, final long nowNs, final ResendHandler<C> handler, final C context)
    {
        final int skipped = sequences.isBefore(firstSeq, oldestSeq) ? 0 : sequences.distance(oldestSeq, firstSeq);
        int seq = sequences.isBefore(firstSeq, oldestSeq) ? oldestSeq : firstSeq;
        for (int i = skipped; i < count; i++)
        {
            final int slot = seq & capacityMask;
            sentAtNs[slot] = nowNs;
            sendCounts[slot]++;
            leave(slot);
            outsideReceiveQueue++;
            handler.onResend(context, seq, owners[slot], frameIndexes[slot]);
            seq = sequences.next(seq);
        }
    }

    /**
     * Forgets every frame (the partner failed); each owner is handed to the handler once per frame.
     */
    public <C> void clear(final ClearedHandler<C> handler, final C context)
    {
        while (count > 0)
        {
            final int slot = oldestSeq & capacityMask;
            final Object owner = owners[slot];
            owners[slot] = null;
            leave(slot);
            oldestSeq = sequences.next(oldestSeq);
            count--;
            handler.onCleared(context, owner, frameIndexes[slot]);
        }
    }

    private void leave(final int slot)
    {
        if (inReceiveQueue[slot])
        {
            inReceiveQueue[slot] = false;
        }
        else
        {
            outsideReceiveQueue--;
        }
    }
}
