package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.MemorySegment;

/**
 * ARMCI's message helpers ({@code armci_msg_*}) of one {@link Rma}: broadcast and element-wise reductions
 * ({@link ReduceOp}) over the job's ranks or a group's members, collective over them. Reductions combine in rank (or
 * group-rank) order, so every rank gets the same bits; a rank that gives a bad part still takes part, so the others
 * fail naming it, and a refused reduction changes nothing anywhere. Used by the thread that issues the Rma's
 * operations.
 */
public final class RmaMessages
{
    private final Rma rma;
    private final Job job;

    RmaMessages(final Rma rma, final Job job)
    {
        this.rma = rma;
        this.job = job;
    }

    /** @return {@code root}'s bytes on every rank. */
    public byte[] broadcast(final int root, final byte[] bytes)
    {
        rma.checkRank(root, "broadcast root");
        return job.broadcast(root, bytes);
    }

    /**
     * Collective over the group's members: the bytes of the member with group rank {@code root} on every member (the
     * others' bytes are not used).
     */
    public byte[] broadcast(final RmaGroup group, final int root, final byte[] bytes)
    {
        RmaGroup.check(group, "group broadcast");
        group.worldRank(root);
        final boolean mine = group.rank() == root;
        if (mine && null == bytes)
        {
            throw new IllegalArgumentException("group broadcast: the root's bytes are null");
        }
        return group.allGather(mine ? bytes : new byte[0]).get(root);
    }

    /**
     * Collective, in place ({@code armci_msg_igop}): every element becomes the operation over every rank's element at
     * that index, combined in rank order so every rank gets the same bits.
     *
     * @throws IllegalArgumentException on this rank if it gave null values or an operation ints have not; the others
     *                                  then fail naming it, and nothing changes anywhere.
     * @throws RmaException             naming the rank that refused its part or reduces another operation, type or
     *                                  length.
     */
    public void reduce(final ReduceOp op, final int[] values)
    {
        reduce(op, ElementType.INT, null == values ? null : MemorySegment.ofArray(values));
    }

    /** As {@link #reduce(ReduceOp, int[])} ({@code armci_msg_lgop}). */
    public void reduce(final ReduceOp op, final long[] values)
    {
        reduce(op, ElementType.LONG, null == values ? null : MemorySegment.ofArray(values));
    }

    /** As {@link #reduce(ReduceOp, int[])} ({@code armci_msg_fgop}): the arithmetic operations only. */
    public void reduce(final ReduceOp op, final float[] values)
    {
        reduce(op, ElementType.FLOAT, null == values ? null : MemorySegment.ofArray(values));
    }

    /** As {@link #reduce(ReduceOp, int[])} ({@code armci_msg_dgop}): the arithmetic operations only. */
    public void reduce(final ReduceOp op, final double[] values)
    {
        reduce(op, ElementType.DOUBLE, null == values ? null : MemorySegment.ofArray(values));
    }

    /**
     * As {@link #reduce(ReduceOp, int[])} over the elements of {@code type} in a caller's segment (heap or native,
     * native byte order, any alignment): INT, LONG, FLOAT or DOUBLE.
     *
     * @throws IllegalArgumentException on this rank also if the segment is not whole elements or is read-only.
     */
    public void reduce(final ReduceOp op, final ElementType type, final MemorySegment values)
    {
        reduce(rma.worldGroup(), op, type, values);
    }

    /**
     * As {@link #reduce(ReduceOp, ElementType, MemorySegment)}, collective over the group's members
     * ({@code armci_msg_group_gop_scope}), combined in group-rank order.
     */
    public void reduce(final RmaGroup group, final ReduceOp op, final ElementType type, final MemorySegment values)
    {
        rma.checkOpen();
        RmaGroup.check(group, "group reduction");
        Reductions.reduce(group, job.rank(), op, type, values);
    }

    /** As {@link #reduce(ReduceOp, int[])} over the group's members. */
    public void reduce(final RmaGroup group, final ReduceOp op, final int[] values)
    {
        reduce(group, op, ElementType.INT, null == values ? null : MemorySegment.ofArray(values));
    }

    public void reduce(final RmaGroup group, final ReduceOp op, final long[] values)
    {
        reduce(group, op, ElementType.LONG, null == values ? null : MemorySegment.ofArray(values));
    }

    public void reduce(final RmaGroup group, final ReduceOp op, final double[] values)
    {
        reduce(group, op, ElementType.DOUBLE, null == values ? null : MemorySegment.ofArray(values));
    }

    /** Element-wise sum over every rank's array, the result on every rank (a new array). */
    public int[] sum(final int[] values)
    {
        return reduced(ReduceOp.SUM, values);
    }

    public int[] min(final int[] values)
    {
        return reduced(ReduceOp.MIN, values);
    }

    public int[] max(final int[] values)
    {
        return reduced(ReduceOp.MAX, values);
    }

    public long[] sum(final long[] values)
    {
        return reduced(ReduceOp.SUM, values);
    }

    public long[] min(final long[] values)
    {
        return reduced(ReduceOp.MIN, values);
    }

    public long[] max(final long[] values)
    {
        return reduced(ReduceOp.MAX, values);
    }

    /** Sums in rank order, so every rank gets the same bits. */
    public double[] sum(final double[] values)
    {
        return reduced(ReduceOp.SUM, values);
    }

    public double[] min(final double[] values)
    {
        return reduced(ReduceOp.MIN, values);
    }

    public double[] max(final double[] values)
    {
        return reduced(ReduceOp.MAX, values);
    }

    private int[] reduced(final ReduceOp op, final int[] values)
    {
        final int[] result = null == values ? null : values.clone();
        reduce(op, result);
        return result;
    }

    private long[] reduced(final ReduceOp op, final long[] values)
    {
        final long[] result = null == values ? null : values.clone();
        reduce(op, result);
        return result;
    }

    private double[] reduced(final ReduceOp op, final double[] values)
    {
        final double[] result = null == values ? null : values.clone();
        reduce(op, result);
        return result;
    }
}
