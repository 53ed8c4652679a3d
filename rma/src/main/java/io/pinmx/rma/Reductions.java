package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * ARMCI's reduction helpers over a group's members (the world's, or another group's in group order): every member's elements are gathered everywhere with a header (its
 * operation, type and whether it refused its own part) and combined in rank order, so every rank computes the same
 * result (to the bit, for floating point). The result replaces the caller's elements only when every rank's part
 * was accepted: a refused or mismatched reduction changes nothing on any rank.
 */
final class Reductions
{
    /** Why a rank refused its own part; it still takes part in the gather so that the others fail naming it. */
    private enum Refusal
    {
        NONE("-"),
        NULL_OPERATION("gave no operation or element type"),
        NULL_VALUES("gave null values"),
        UNDEFINED("gave an operation its element type has not"),
        PARTIAL_ELEMENT("gave bytes that are not whole elements"),
        READ_ONLY("gave read-only values");

        private final String said;

        Refusal(final String said)
        {
            this.said = said;
        }
    }

    private static final int HEADER_BYTES = 4;
    private static final ElementType[] TYPES = ElementType.values();
    private static final ReduceOp[] OPS = ReduceOp.values();
    private static final Refusal[] REFUSALS = Refusal.values();

    private Reductions()
    {
    }

    /**
     * Replaces every element of {@code values} with the operation over every rank's element at that index.
     *
     * @param self this rank's world rank, for messages (which name every rank by world rank).
     * @throws IllegalArgumentException naming what this rank gave wrong (no operation, null values, an operation the
     *                                  type has not, bytes that are not whole elements, read-only values); the other
     *                                  ranks fail naming this one.
     * @throws RmaException             naming the rank that refused its part, or that is in another reduction (another
     *                                  operation, type or length) or another collective call.
     */
    static void reduce(final RmaGroup group, final int self, final ReduceOp op, final ElementType type,
        final MemorySegment values)
    {
        final Refusal refusal = null == op || null == type ? Refusal.NULL_OPERATION :
            null == values ? Refusal.NULL_VALUES :
            !op.appliesTo(type) ? Refusal.UNDEFINED :
            0 != values.byteSize() % type.bytes() ? Refusal.PARTIAL_ELEMENT :
            values.isReadOnly() ? Refusal.READ_ONLY : Refusal.NONE;
        final long bytes = Refusal.NONE == refusal ? values.byteSize() : 0;
        final byte[] mine = new byte[Math.toIntExact(HEADER_BYTES + bytes)];
        mine[0] = (byte)refusal.ordinal();
        mine[1] = (byte)(null == op ? 0 : op.ordinal());
        mine[2] = (byte)(null == type ? 0 : type.ordinal());
        if (Refusal.NONE == refusal)
        {
            MemorySegment.copy(values, 0, MemorySegment.ofArray(mine), HEADER_BYTES, bytes);
        }
        final List<byte[]> all = group.allGather(mine);
        if (Refusal.NONE != refusal)
        {
            throw new IllegalArgumentException("reduction " + op + " of " + type + ": this rank " + refusal.said +
                (null == values ? "" : " (" + values.byteSize() + " bytes)"));
        }
        for (int g = 0; g < all.size(); g++)
        {
            final byte[] theirs = all.get(g);
            final int r = group.worldRank(g);
            if (theirs.length < HEADER_BYTES || theirs[0] < 0 || theirs[0] >= REFUSALS.length ||
                theirs[1] < 0 || theirs[1] >= OPS.length || theirs[2] < 0 || theirs[2] >= TYPES.length)
            {
                throw new RmaException("collective mismatch in " + op + ": rank " + r + " is in another collective call");
            }
            if (Refusal.NONE.ordinal() != theirs[0])
            {
                throw new RmaException("collective " + op + " of " + type + ": rank " + r + " " +
                    REFUSALS[theirs[0]].said);
            }
            if (theirs[1] != op.ordinal() || theirs[2] != type.ordinal() || theirs.length != mine.length)
            {
                throw new RmaException("collective mismatch in " + op + ": rank " + r + " reduces " +
                    (theirs.length - HEADER_BYTES) / TYPES[theirs[2]].bytes() + " " + TYPES[theirs[2]] + " by " +
                    OPS[theirs[1]] + ", rank " + self + " " + bytes / type.bytes() + " " + type + " by " + op);
            }
        }
        combine(all, op, type, values);
    }

    private static void combine(final List<byte[]> all, final ReduceOp op, final ElementType type,
        final MemorySegment values)
    {
        final MemorySegment[] parts = new MemorySegment[all.size()];
        for (int r = 0; r < parts.length; r++)
        {
            parts[r] = MemorySegment.ofArray(all.get(r)).asSlice(HEADER_BYTES);
        }
        // ABSMIN and ABSMAX give absolute values even from one rank: the first element is combined with itself.
        final boolean absolute = ReduceOp.ABSMIN == op || ReduceOp.ABSMAX == op;
        final long elements = values.byteSize() / type.bytes();
        for (long i = 0; i < elements; i++)
        {
            final long at = i * type.bytes();
            switch (type)
            {
                case INT ->
                {
                    int acc = parts[0].get(ValueLayout.JAVA_INT_UNALIGNED, at);
                    acc = absolute ? op.apply(acc, acc) : acc;
                    for (int r = 1; r < parts.length; r++)
                    {
                        acc = op.apply(acc, parts[r].get(ValueLayout.JAVA_INT_UNALIGNED, at));
                    }
                    values.set(ValueLayout.JAVA_INT_UNALIGNED, at, acc);
                }
                case LONG ->
                {
                    long acc = parts[0].get(ValueLayout.JAVA_LONG_UNALIGNED, at);
                    acc = absolute ? op.apply(acc, acc) : acc;
                    for (int r = 1; r < parts.length; r++)
                    {
                        acc = op.apply(acc, parts[r].get(ValueLayout.JAVA_LONG_UNALIGNED, at));
                    }
                    values.set(ValueLayout.JAVA_LONG_UNALIGNED, at, acc);
                }
                case FLOAT ->
                {
                    float acc = parts[0].get(ValueLayout.JAVA_FLOAT_UNALIGNED, at);
                    acc = absolute ? op.apply(acc, acc) : acc;
                    for (int r = 1; r < parts.length; r++)
                    {
                        acc = op.apply(acc, parts[r].get(ValueLayout.JAVA_FLOAT_UNALIGNED, at));
                    }
                    values.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at, acc);
                }
                case DOUBLE ->
                {
                    double acc = parts[0].get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at);
                    acc = absolute ? op.apply(acc, acc) : acc;
                    for (int r = 1; r < parts.length; r++)
                    {
                        acc = op.apply(acc, parts[r].get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at));
                    }
                    values.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, acc);
                }
                case COMPLEX_FLOAT, COMPLEX_DOUBLE -> throw new IllegalStateException(type + " reached the combine");
            }
        }
    }
}
