package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/**
 * ARMCI's select ({@code armci_msg_sel}): every member's record (a value of an element type at its start, then any
 * bytes, as Global Arrays' index of that value) is gathered everywhere with a header, and the record of the
 * contributing member holding the least (MIN) or greatest (MAX) value, the lowest group rank on a tie, replaces every
 * member's own. A refused or mismatched select changes nothing on any member.
 */
final class Selections
{
    /** Why a member refused its own part; it still takes part in the gather, so that the others fail naming it. */
    private enum Refusal
    {
        NONE("-"),
        NULL_ARGUMENT("gave no operation or element type"),
        NOT_MIN_OR_MAX("gave an operation other than MIN or MAX"),
        NOT_A_NUMBER("gave an element type select has not (INT, LONG, FLOAT or DOUBLE)"),
        NULL_RECORD("gave a null record"),
        SHORT_RECORD("gave a record shorter than its value"),
        READ_ONLY("gave a read-only record");

        private final String said;

        Refusal(final String said)
        {
            this.said = said;
        }
    }

    private static final int HEADER_BYTES = VettedGather.HEADER_BYTES;
    private static final String[] REFUSALS_SAID = Arrays.stream(Refusal.values()).map(r -> r.said).toArray(String[]::new);

    private Selections()
    {
    }

    /**
     * @param contribute false: this member's record is not a candidate (it still receives the selected one).
     * @return the world rank whose record was selected, or {@link RmaGroup#NOT_A_MEMBER} when no member contributed
     *         (then every record stays as it was).
     * @throws IllegalArgumentException naming what this member gave wrong; the others fail naming this one.
     * @throws RmaException             naming the member that refused its part, selects another way, or is in another
     *                                  collective call.
     */
    static int select(final RmaGroup group, final int self, final ReduceOp op, final ElementType type,
        final MemorySegment record, final boolean contribute)
    {
        final Refusal refusal = null == op || null == type ? Refusal.NULL_ARGUMENT :
            ReduceOp.MIN != op && ReduceOp.MAX != op ? Refusal.NOT_MIN_OR_MAX :
            type.ordinal() > ElementType.DOUBLE.ordinal() ? Refusal.NOT_A_NUMBER :
            null == record ? Refusal.NULL_RECORD :
            record.byteSize() < type.bytes() ? Refusal.SHORT_RECORD :
            record.isReadOnly() ? Refusal.READ_ONLY : Refusal.NONE;
        final long bytes = Refusal.NONE == refusal ? record.byteSize() : 0;
        final byte[] mine = VettedGather.record(refusal.ordinal(), op, type, contribute ? 1 : 0,
            Refusal.NONE == refusal ? record : null);
        final List<byte[]> all = group.allGather(mine);
        if (Refusal.NONE != refusal)
        {
            throw new IllegalArgumentException("select " + op + " of " + type + ": rank " + self + " " + refusal.said +
                (null == record ? "" : " (" + record.byteSize() + " bytes)"));
        }
        VettedGather.vet(all, group, mine, "select " + op, op, type, REFUSALS_SAID, (r, theirOp, theirType, theirBytes) ->
            "select: rank " + r + " selects " + theirOp + " of " + theirType + " in " + theirBytes + "-byte records, rank " +
            self + " " + op + " of " + type + " in " + bytes + "-byte records");
        int chosen = -1;
        for (int g = 0; g < all.size(); g++)
        {
            final byte[] theirs = all.get(g);
            if (1 == theirs[3] && (chosen < 0 || beats(op, type, theirs, all.get(chosen))))
            {
                chosen = g;
            }
        }
        if (chosen < 0)
        {
            return RmaGroup.NOT_A_MEMBER;
        }
        MemorySegment.copy(MemorySegment.ofArray(all.get(chosen)), HEADER_BYTES, record, 0, bytes);
        return group.worldRank(chosen);
    }

    /** @return whether the candidate's value is strictly less (MIN) or greater (MAX) than the best so far. */
    private static boolean beats(final ReduceOp op, final ElementType type, final byte[] candidate, final byte[] best)
    {
        final MemorySegment c = MemorySegment.ofArray(candidate);
        final MemorySegment b = MemorySegment.ofArray(best);
        final int order = switch (type)
        {
            case INT -> Integer.compare(c.get(ValueLayout.JAVA_INT_UNALIGNED, HEADER_BYTES),
                b.get(ValueLayout.JAVA_INT_UNALIGNED, HEADER_BYTES));
            case LONG -> Long.compare(c.get(ValueLayout.JAVA_LONG_UNALIGNED, HEADER_BYTES),
                b.get(ValueLayout.JAVA_LONG_UNALIGNED, HEADER_BYTES));
            case FLOAT -> Float.compare(c.get(ValueLayout.JAVA_FLOAT_UNALIGNED, HEADER_BYTES),
                b.get(ValueLayout.JAVA_FLOAT_UNALIGNED, HEADER_BYTES));
            case DOUBLE -> Double.compare(c.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, HEADER_BYTES),
                b.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, HEADER_BYTES));
            case COMPLEX_FLOAT, COMPLEX_DOUBLE -> throw new IllegalStateException(type + " reached the comparison");
        };
        return ReduceOp.MIN == op ? order < 0 : order > 0;
    }
}
