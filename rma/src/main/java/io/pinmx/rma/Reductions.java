package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/**
 * ARMCI's reduction helpers over a group's members (the world's, or another group's in group order): every member's
 * elements are gathered everywhere ({@link VettedGather}) and combined in rank order, so every rank computes the same
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

    private static final String[] REFUSALS_SAID = Arrays.stream(Refusal.values()).map(r -> r.said).toArray(String[]::new);

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
        final byte[] mine = VettedGather.record(refusal.ordinal(), op, type, 0, Refusal.NONE == refusal ? values : null);
        final List<byte[]> all = group.allGather(mine);
        if (Refusal.NONE != refusal)
        {
            throw new IllegalArgumentException("reduction " + op + " of " + type + ": this rank " + refusal.said +
                (null == values ? "" : " (" + values.byteSize() + " bytes)"));
        }
        VettedGather.vet(all, group, mine, op.toString(), op, type, REFUSALS_SAID, (r, theirOp, theirType, theirBytes) ->
            op + ": rank " + r + " reduces " + theirBytes / theirType.bytes() + " " + theirType + " by " + theirOp +
            ", rank " + self + " " + bytes / type.bytes() + " " + type + " by " + op);
        combine(all, op, type, values);
    }

    private static void combine(final List<byte[]> all, final ReduceOp op, final ElementType type,
        final MemorySegment values)
    {
        final MemorySegment[] parts = new MemorySegment[all.size()];
        for (int r = 0; r < parts.length; r++)
        {
            parts[r] = MemorySegment.ofArray(all.get(r)).asSlice(VettedGather.HEADER_BYTES);
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
