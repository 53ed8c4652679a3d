package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * ARMCI's message helpers ({@code armci_msg_*}) of one {@link Rma}: broadcast, element-wise reductions
 * ({@link ReduceOp}) and select over the job's ranks or a group's members, collective over them, or over the members
 * an {@link ArmciScope} takes in. Reductions combine in rank (or
 * group-rank) order, so every rank gets the same bits; a rank that gives a bad part still takes part, so the others
 * fail naming it, and a refused reduction changes nothing anywhere. Used by the thread that issues the Rma's
 * operations.
 */
public final class RmaMessages
{
    /** First byte of a scoped broadcast's part: no reduction or select part starts with it. */
    private static final byte BROADCAST_MARK = 'B';
    private static final int BROADCAST_HEADER_BYTES = 1 + Integer.BYTES + 1;

    private final Rma rma;
    private final Job job;
    private final TwoSidedMessages twoSided;

    RmaMessages(final Rma rma, final Job job, final TwoSidedMessages twoSided)
    {
        this.rma = rma;
        this.job = job;
        this.twoSided = twoSided;
    }

    // ---------------------------------------------------------------- two-sided

    /**
     * {@code armci_msg_snd}: sends the buffer's bytes (any length, heap or native) to a rank with a tag; returns once
     * the buffer may be reused, which for a message longer than the endpoint's eager size is once the receiver took it.
     *
     * @throws IllegalArgumentException naming the rank if it is outside the job or this rank, or if the buffer is null.
     * @throws IllegalStateException    when the job has more than 65,536 ranks (a message carries its sender's rank).
     * @throws RmaException             naming the rank if it exited; when every rank is on shared memory, also if its
     *                                  endpoint for messages did not open (with its reason) or it published none
     *                                  within {@code OnDemandMessageEndpoint.PEER_WAIT} of this rank wanting it.
     */
    public void send(final int tag, final MemorySegment buffer, final int to)
    {
        rma.checkOpen();
        twoSided.send(tag, buffer, to);
    }

    /**
     * {@link #send} without the wait: starts sending the buffer's bytes to the rank with the tag, and the handle (null:
     * implicit, {@link Rma#waitAll()}) completes it, after which the buffer may be reused (an eager message through the
     * driver completes on the receiver's acknowledgement). Messages from one rank with one tag still arrive in the
     * order sent.
     *
     * @throws IllegalArgumentException naming the rank if it is outside the job or this rank, the buffer if it is null
     *                                  or confined to a thread (the endpoint reads it after the call).
     * @throws RmaException             naming the rank if it exited.
     */
    public void nbSend(final int tag, final MemorySegment buffer, final int to, final RmaHandle handle)
    {
        rma.checkOpen();
        twoSided.nbSend(tag, buffer, to, rma.followedBy(handle));
    }

    /**
     * {@code armci_msg_rcv}: receives the next message with the tag from the rank into the start of the buffer.
     *
     * @return the message's length in bytes.
     * @throws IllegalArgumentException naming the rank if it is outside the job or this rank, the buffer if it is null
     *                                  or read-only, or both sizes if the message is longer than the buffer (it then
     *                                  stays queued for a receive with room).
     * @throws RmaException             naming the rank if it exited.
     */
    public long receive(final int tag, final MemorySegment buffer, final int from)
    {
        rma.checkOpen();
        return twoSided.receive(tag, buffer, from);
    }

    /**
     * {@code armci_msg_rcvany}: receives the next message with the tag from any rank, as
     * {@link #receive(int, MemorySegment, int)}.
     *
     * @return who sent it (a world rank) and its length.
     * @throws RmaException naming a rank of this host that exited while none had sent.
     */
    public ReceivedMessage receiveAny(final int tag, final MemorySegment buffer)
    {
        rma.checkOpen();
        return twoSided.receiveAny(tag, buffer);
    }

    /** @return the longest two-sided message that goes eagerly (the scenarios send longer ones too). */
    long eagerBytes()
    {
        return twoSided.eagerBytes();
    }

    // ---------------------------------------------------------------- collectives

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

    // ---------------------------------------------------------------- scopes and select

    /** {@code armci_msg_bcast_scope}: as {@link #broadcast(ArmciScope, RmaGroup, int, byte[])} over the world. */
    public byte[] broadcast(final ArmciScope scope, final int root, final byte[] bytes)
    {
        return broadcast(scope, rma.worldGroup(), root, bytes);
    }

    /**
     * {@code armci_msg_group_bcast_scope}: collective over the members of the group the scope takes in (ALL: every
     * member; NODE: the members on each host, apart; MASTERS: each host's lowest-ranked member): the bytes of
     * {@code root}, a world rank among them, on each of them. A member the scope leaves out (not its host's master,
     * in MASTERS) takes no part and gets its own {@code bytes} back.
     *
     * @throws IllegalArgumentException on this rank for a null scope or group, a group it is not in, a root the scope
     *                                  does not take in with it, or null bytes at the root; the others then fail
     *                                  naming it.
     * @throws RmaException             naming a member that refused its part, gave another root, or is in another
     *                                  collective call.
     */
    public byte[] broadcast(final ArmciScope scope, final RmaGroup group, final int root, final byte[] bytes)
    {
        final RmaGroup within = scoped(scope, group, "scoped broadcast");
        if (null == within)
        {
            return bytes;
        }
        final boolean mine = job.rank() == root;
        final String refusal = !within.contains(root) ? "root " + root + ", not one of the ranks " + scope +
            " takes in with it, " + Arrays.toString(within.worldRanks()) :
            mine && null == bytes ? "null bytes as the root" : null;
        final byte[] payload = null == refusal && mine ? bytes : new byte[0];
        final ByteBuffer part = ByteBuffer.allocate(BROADCAST_HEADER_BYTES + payload.length).put(BROADCAST_MARK)
            .putInt(root).put((byte)(null == refusal ? 0 : 1)).put(payload);
        final List<byte[]> all = within.allGather(part.array());
        if (null != refusal)
        {
            throw new IllegalArgumentException("scoped broadcast over group " + group.id() + ": rank " + job.rank() +
                " gave " + refusal);
        }
        byte[] fromRoot = null;
        for (int g = 0; g < all.size(); g++)
        {
            final ByteBuffer theirs = ByteBuffer.wrap(all.get(g));
            final int r = within.worldRank(g);
            if (theirs.capacity() < BROADCAST_HEADER_BYTES || BROADCAST_MARK != theirs.get(0))
            {
                throw new RmaException("collective mismatch in scoped broadcast: rank " + r +
                    " is in another collective call");
            }
            if (0 != theirs.get(1 + Integer.BYTES))
            {
                throw new RmaException("scoped broadcast over group " + group.id() + ": rank " + r +
                    " refused its part");
            }
            if (theirs.getInt(1) != root)
            {
                throw new RmaException("collective mismatch in scoped broadcast: rank " + r + " gives root " +
                    theirs.getInt(1) + ", rank " + job.rank() + " gives root " + root);
            }
            if (r == root)
            {
                fromRoot = Arrays.copyOfRange(all.get(g), BROADCAST_HEADER_BYTES, all.get(g).length);
            }
        }
        return fromRoot;
    }

    /** {@code armci_msg_gop_scope}: as {@link #reduce(ArmciScope, RmaGroup, ReduceOp, ElementType, MemorySegment)} over the world. */
    public void reduce(final ArmciScope scope, final ReduceOp op, final ElementType type, final MemorySegment values)
    {
        reduce(scope, rma.worldGroup(), op, type, values);
    }

    /**
     * {@code armci_msg_group_gop_scope}: as {@link #reduce(RmaGroup, ReduceOp, ElementType, MemorySegment)} over the
     * members the scope takes in (see {@link #broadcast(ArmciScope, RmaGroup, int, byte[])}); a member it leaves out
     * takes no part and keeps its values.
     */
    public void reduce(final ArmciScope scope, final RmaGroup group, final ReduceOp op, final ElementType type,
        final MemorySegment values)
    {
        final RmaGroup within = scoped(scope, group, "scoped reduction");
        if (null != within)
        {
            Reductions.reduce(within, job.rank(), op, type, values);
        }
    }

    /** {@code armci_msg_sel}: {@link #select(ArmciScope, RmaGroup, ReduceOp, ElementType, MemorySegment, boolean)} over every rank. */
    public int select(final ReduceOp op, final ElementType type, final MemorySegment record, final boolean contribute)
    {
        return select(ArmciScope.ALL, rma.worldGroup(), op, type, record, contribute);
    }

    /**
     * {@code armci_msg_sel_scope}: collective over the members the scope takes in; each gives a record whose start is
     * a value of {@code type} (INT, LONG, FLOAT or DOUBLE), the same length everywhere, and whether it contributes.
     * The record of the contributing member holding the least (MIN) or greatest (MAX) value, the lowest group rank on
     * a tie, replaces every taking-part member's record.
     *
     * @return the world rank whose record was selected; {@link RmaGroup#NOT_A_MEMBER} when none contributed (records
     *         unchanged) or this rank took no part.
     * @throws IllegalArgumentException on this rank for an operation other than MIN or MAX, another type, a null,
     *                                  read-only or too short record, or a bad scope or group; the others then fail
     *                                  naming it, and no record changes.
     * @throws RmaException             naming a member that refused its part, selects another way or length, or is in
     *                                  another collective call.
     */
    public int select(final ArmciScope scope, final RmaGroup group, final ReduceOp op, final ElementType type,
        final MemorySegment record, final boolean contribute)
    {
        final RmaGroup within = scoped(scope, group, "select");
        return null == within ? RmaGroup.NOT_A_MEMBER :
            Selections.select(within, job.rank(), op, type, record, contribute);
    }

    /** @return the members the scope takes in with this rank, or null if it takes no part. */
    private RmaGroup scoped(final ArmciScope scope, final RmaGroup group, final String what)
    {
        rma.checkOpen();
        if (null == scope)
        {
            throw new IllegalArgumentException(what + ": the scope is null");
        }
        RmaGroup.check(group, what);
        return rma.groups().scoped(scope, group);
    }

    // ---------------------------------------------------------------- convenience

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
