package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The gather under ARMCI's reduction and select helpers: each member's record is a 4-byte header (why it refused its
 * own part, its operation, its element type, one flag of the call's own) and then its elements. A member that refused
 * still takes part, so that every other member fails naming it; a record whose header makes no sense comes from a
 * member in another collective call.
 */
final class VettedGather
{
    static final int HEADER_BYTES = 4;
    /** The refusal ordinal of a member that accepted its part. */
    static final int ACCEPTED = 0;

    private static final ElementType[] TYPES = ElementType.values();
    private static final ReduceOp[] OPS = ReduceOp.values();

    /** How another member's call differs from this member's, after "collective mismatch in ". */
    @FunctionalInterface
    interface Mismatch
    {
        String describe(int worldRank, ReduceOp theirOp, ElementType theirType, long theirBytes);
    }

    private VettedGather()
    {
    }

    /**
     * @param elements this member's elements; null when it refused its part (then the record is the header alone).
     */
    static byte[] record(final int refusal, final ReduceOp op, final ElementType type, final int flag,
        final MemorySegment elements)
    {
        final long bytes = null == elements ? 0 : elements.byteSize();
        final byte[] mine = new byte[Math.toIntExact(HEADER_BYTES + bytes)];
        mine[0] = (byte)refusal;
        mine[1] = (byte)(null == op ? 0 : op.ordinal());
        mine[2] = (byte)(null == type ? 0 : type.ordinal());
        mine[3] = (byte)flag;
        if (null != elements)
        {
            MemorySegment.copy(elements, 0, MemorySegment.ofArray(mine), HEADER_BYTES, bytes);
        }
        return mine;
    }

    /**
     * Checks every member's record against this member's accepted one.
     *
     * @param call       the call's name in messages ("select MIN", "SUM").
     * @param refusalSaid what each refusal ordinal says of the member that gave it.
     * @throws RmaException naming the first member, in group order, that is in another collective call, refused its
     *                      part, or does another operation, type or length.
     */
    static void vet(final List<byte[]> all, final RmaGroup group, final byte[] mine, final String call,
        final ReduceOp op, final ElementType type, final String[] refusalSaid, final Mismatch mismatch)
    {
        for (int g = 0; g < all.size(); g++)
        {
            final byte[] theirs = all.get(g);
            final int r = group.worldRank(g);
            if (theirs.length < HEADER_BYTES || theirs[0] < 0 || theirs[0] >= refusalSaid.length ||
                theirs[1] < 0 || theirs[1] >= OPS.length || theirs[2] < 0 || theirs[2] >= TYPES.length)
            {
                throw new RmaException("collective mismatch in " + call + ": rank " + r + " is in another collective call");
            }
            if (ACCEPTED != theirs[0])
            {
                throw new RmaException("collective " + call + " of " + type + ": rank " + r + " " + refusalSaid[theirs[0]]);
            }
            if (theirs[1] != op.ordinal() || theirs[2] != type.ordinal() || theirs.length != mine.length)
            {
                throw new RmaException("collective mismatch in " +
                    mismatch.describe(r, OPS[theirs[1]], TYPES[theirs[2]], theirs.length - HEADER_BYTES));
            }
        }
    }
}
