package io.pinmx.mx.reliability;

/**
 * The receiving half of one partner's reliability: which sequence number is expected next,
 * and when an acknowledgement is owed. Frames are accepted strictly in order (anything
 * ahead is discarded and recovered by the sender's go-back-N resend), which keeps MPI's
 * per-sender match order without a reorder buffer. Acks are delayed up to
 * {@code ackDelayNs} or {@code ackEveryFrames} accepted frames so they can ride on data
 * going the other way; a duplicate or a gap is answered at once, since it means the
 * sender did not see our last ack. A frame that came through a queue that cannot lose it and
 * whose send completed without waiting for us (a small eager message in a same-host ring) is
 * acked after the longer {@code losslessAckDelayNs}: its ack only frees the sender's copy, so in
 * a ping-pong it rides on the reply instead of costing a frame of its own. An owed ack whose sender
 * waits for it (any other frame) is {@link #isAckAwaited awaited}: an API thread's progress round
 * (caller-driven, or a wait polling) sends it as soon as it finds nothing to do, since then no
 * reply is about to carry it.
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
    private final long losslessAckDelayNs;
    private final int ackEveryFrames;
    private int expectedSeq;
    private int framesSinceAck;
    private long ackDueNs;
    private boolean ackOwed;
    private boolean ackAwaited;

    public ReceiveTracker(
        final SequenceNumbers sequences, final int initialSeq, final long ackDelayNs, final long losslessAckDelayNs,
        final int ackEveryFrames)
    {
        if (ackDelayNs < 0 || losslessAckDelayNs < 0 || ackEveryFrames < 1)
        {
            throw new IllegalArgumentException("ackDelayNs and losslessAckDelayNs must be >= 0 and ackEveryFrames >= 1, " +
                "were " + ackDelayNs + ", " + losslessAckDelayNs + " and " + ackEveryFrames);
        }
        this.sequences = sequences;
        this.ackDelayNs = ackDelayNs;
        this.losslessAckDelayNs = losslessAckDelayNs;
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
        oweAwaited(nowNs, 0);
        return sequences.isBefore(seq, expectedSeq) ? Classification.DUPLICATE : Classification.AHEAD;
    }

    /**
     * The in-order frame was taken in; it will be acknowledged.
     */
    public void accept(final long nowNs)
    {
        accept(nowNs, ackDelayNs);
        ackAwaited = true;
    }

    /**
     * The in-order frame was taken in from a queue that cannot lose it and its sender did not wait for our ack:
     * acknowledged after {@code losslessAckDelayNs} (or with the next frame back, or every {@code ackEveryFrames}).
     */
    public void acceptLossless(final long nowNs)
    {
        accept(nowNs, Math.max(ackDelayNs, losslessAckDelayNs));
    }

    private void accept(final long nowNs, final long delayNs)
    {
        expectedSeq = sequences.next(expectedSeq);
        owe(nowNs, ++framesSinceAck >= ackEveryFrames ? 0 : delayNs);
    }

    /**
     * The in-order frame could not be taken in now (receiver resources); the sender is
     * held back and resends it later. Our ack still goes out so the sender sees progress stop.
     */
    public void refuse(final long nowNs)
    {
        oweAwaited(nowNs, ackDelayNs);
    }

    /**
     * The partner asked for an ack now (it is checking we are alive).
     */
    public void ackRequested(final long nowNs)
    {
        oweAwaited(nowNs, 0);
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
        return ackOwed && nowNs - ackDueNs >= 0;
    }

    /**
     * @return true when an ack is owed that the partner waits for (not only acks of lossless frames whose sends
     *         completed without it).
     */
    public boolean isAckAwaited()
    {
        return ackOwed && ackAwaited;
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
        return ackDueNs;
    }

    /**
     * Any frame to the partner carries the ack, so sending one settles what is owed.
     */
    public void onAckSent()
    {
        ackOwed = false;
        ackAwaited = false;
        framesSinceAck = 0;
    }

    private void oweAwaited(final long nowNs, final long delayNs)
    {
        owe(nowNs, delayNs);
        ackAwaited = true;
    }

    /** Owes an ack due {@code delayNs} from now, or earlier if one is owed already. */
    private void owe(final long nowNs, final long delayNs)
    {
        final long dueNs = nowNs + delayNs;
        if (!ackOwed || dueNs - ackDueNs < 0)
        {
            ackOwed = true;
            ackDueNs = dueNs;
        }
    }
}
