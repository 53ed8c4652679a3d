package io.pinmx.mx.reliability;

/**
 * The receiving half of one partner's reliability: which sequence number is expected next,
 * and when an acknowledgement is owed. Frames are accepted strictly in order (anything
 * ahead is discarded and recovered by the sender's go-back-N resend), which keeps MPI's
 * per-sender match order without a reorder buffer. Acks are delayed up to
 * {@code ackDelayNs} or {@code ackEveryFrames} accepted frames so they can ride on data
 * going the other way; a duplicate or a gap is answered at once, since it means the
 * sender did not see our last ack.
 */
public final class ReceiveTracker
{
    /** Where an incoming frame stands. */
    public enum Classification
    {
        IN_ORDER,
        DUPLICATE,
        AHEAD
    }

    private final SequenceNumbers sequences;
    private final long ackDelayNs;
    private final int ackEveryFrames;
    private int expectedSeq;
    private int framesSinceAck;
    private long ackOwedSinceNs;
    private boolean ackOwed;
    private boolean ackUrgent;

    public ReceiveTracker(final SequenceNumbers sequences, final int initialSeq, final long ackDelayNs, final int ackEveryFrames)
    {
        if (ackDelayNs < 0 || ackEveryFrames < 1)
        {
            throw new IllegalArgumentException(
                "ackDelayNs must be >= 0 and ackEveryFrames >= 1, were " + ackDelayNs + " and " + ackEveryFrames);
        }
        this.sequences = sequences;
        this.ackDelayNs = ackDelayNs;
        this.ackEveryFrames = ackEveryFrames;
        this.expectedSeq = initialSeq;
    }

    /**
     * Classifies a frame; an out-of-order one also makes an ack urgent.
     */
    public Classification classify(final int seq, final long nowNs)
    {
        if (seq == expectedSeq)
        {
            return Classification.IN_ORDER;
        }
        owe(nowNs);
        ackUrgent = true;
        return sequences.isBefore(seq, expectedSeq) ? Classification.DUPLICATE : Classification.AHEAD;
    }

    /**
     * The in-order frame was taken in; it will be acknowledged.
     */
    public void accept(final long nowNs)
    {
        expectedSeq = sequences.next(expectedSeq);
        owe(nowNs);
        if (++framesSinceAck >= ackEveryFrames)
        {
            ackUrgent = true;
        }
    }

    /**
     * The in-order frame could not be taken in now (receiver resources); the sender is
     * held back and resends it later. Our ack still goes out so the sender sees progress stop.
     */
    public void refuse(final long nowNs)
    {
        owe(nowNs);
    }

    /**
     * The partner asked for an ack now (it is checking we are alive).
     */
    public void ackRequested(final long nowNs)
    {
        owe(nowNs);
        ackUrgent = true;
    }

    /**
     * @return the cumulative ack value to send: every frame before it arrived.
     */
    public int expectedSeq()
    {
        return expectedSeq;
    }

    public boolean isAckDue(final long nowNs)
    {
        return ackOwed && (ackUrgent || nowNs - ackOwedSinceNs >= ackDelayNs);
    }

    /**
     * @return when a delayed ack falls due; Long.MAX_VALUE if none is owed.
     */
    public long ackDeadlineNs()
    {
        if (!ackOwed)
        {
            return Long.MAX_VALUE;
        }
        return ackUrgent ? ackOwedSinceNs : ackOwedSinceNs + ackDelayNs;
    }

    /**
     * Any frame to the partner carries the ack, so sending one settles what is owed.
     */
    public void onAckSent()
    {
        ackOwed = false;
        ackUrgent = false;
        framesSinceAck = 0;
    }

    private void owe(final long nowNs)
    {
        if (!ackOwed)
        {
            ackOwed = true;
            ackOwedSinceNs = nowNs;
        }
    }
}
