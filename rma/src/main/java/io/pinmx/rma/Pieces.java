package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The contiguous pieces of one transfer in the order both ends enumerate them: each a local segment slice and a
 * remote offset of the same length. Data travelling between the ends is packed in this order.
 */
final class Pieces
{
    final MemorySegment[] local;
    final long[] remoteOffsets;
    final long[] lengths;
    final long totalBytes;
    /** The caller's segment every local piece is a slice of (a strided transfer), or null. */
    private final MemorySegment whole;

    private Pieces(final MemorySegment[] local, final long[] remoteOffsets, final long[] lengths,
        final MemorySegment whole)
    {
        this.local = local;
        this.whole = whole;
        this.remoteOffsets = remoteOffsets;
        this.lengths = lengths;
        long total = 0;
        for (final long length : lengths)
        {
            total += length;
        }
        this.totalBytes = total;
    }

    /** A thread object never started: a segment it may access is one any thread may access. */
    private static final Thread ANOTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    int count()
    {
        return lengths.length;
    }

    /**
     * @return true if the endpoint's progress thread may read and write every local piece (not confined to the
     *         caller's thread); otherwise the transfer is staged through memory it may touch.
     */
    boolean shareable()
    {
        for (final MemorySegment piece : local)
        {
            if (!shareable(piece))
            {
                return false;
            }
        }
        return true;
    }

    /** @return true if any thread, the endpoint's progress thread among them, may read and write the segment. */
    static boolean shareable(final MemorySegment segment)
    {
        return segment.isAccessibleBy(ANOTHER_THREAD);
    }

    /** The pieces of a strided patch; {@code localIsSource}: a put or accumulate (else a get). */
    static Pieces strided(final StridedPatch patch, final MemorySegment local, final long remoteBase,
        final boolean localIsSource)
    {
        final int n = Math.toIntExact(patch.pieces());
        final MemorySegment[] slices = new MemorySegment[n];
        final long[] remote = new long[n];
        final long[] lengths = new long[n];
        final int[] at = {0};
        patch.forEachPiece((s, t, bytes) ->
        {
            final int i = at[0]++;
            slices[i] = local.asSlice(localIsSource ? s : t, bytes);
            remote[i] = remoteBase + (localIsSource ? t : s);
            lengths[i] = bytes;
        });
        return new Pieces(slices, remote, lengths, local);
    }

    static Pieces vectors(final IoVector[] vectors)
    {
        int n = 0;
        for (final IoVector v : vectors)
        {
            n += v.count();
        }
        final MemorySegment[] slices = new MemorySegment[n];
        final long[] remote = new long[n];
        final long[] lengths = new long[n];
        int i = 0;
        for (final IoVector v : vectors)
        {
            for (int k = 0; k < v.count(); k++, i++)
            {
                slices[i] = v.piece(k);
                remote[i] = v.remoteOffset(k);
                lengths[i] = v.bytes();
            }
        }
        return new Pieces(slices, remote, lengths, null);
    }

    /** @return pieces [from, to) as a transfer of their own. */
    Pieces range(final int from, final int to)
    {
        return new Pieces(Arrays.copyOfRange(local, from, to), Arrays.copyOfRange(remoteOffsets, from, to),
            Arrays.copyOfRange(lengths, from, to), whole);
    }

    /**
     * @return the local pieces in order, those that follow one another in the caller's segment joined into one slice
     *         (a strided get into a contiguous destination is one segment): packed bytes can land there without
     *         staging; the pieces themselves when none join.
     */
    MemorySegment[] joinedLocal()
    {
        if (null == whole || local.length < 2)
        {
            return local;
        }
        int runs = 1;
        for (int i = 1; i < local.length; i++)
        {
            runs += follows(i) ? 0 : 1;
        }
        if (runs == local.length)
        {
            return local;
        }
        final MemorySegment[] joined = new MemorySegment[runs];
        int run = 0;
        long start = local[0].address() - whole.address();
        long bytes = local[0].byteSize();
        for (int i = 1; i < local.length; i++)
        {
            if (follows(i))
            {
                bytes += local[i].byteSize();
                continue;
            }
            joined[run++] = whole.asSlice(start, bytes);
            start = local[i].address() - whole.address();
            bytes = local[i].byteSize();
        }
        joined[run] = whole.asSlice(start, bytes);
        return joined;
    }

    private boolean follows(final int i)
    {
        return local[i].address() == local[i - 1].address() + local[i - 1].byteSize();
    }

    /** Copies the local pieces, in order, into {@code packed}. */
    void pack(final MemorySegment packed)
    {
        long at = 0;
        for (final MemorySegment piece : local)
        {
            MemorySegment.copy(piece, 0, packed, at, piece.byteSize());
            at += piece.byteSize();
        }
    }

    /** Copies {@code packed}, in order, into the local pieces. */
    void unpack(final MemorySegment packed)
    {
        long at = 0;
        for (final MemorySegment piece : local)
        {
            MemorySegment.copy(packed, at, piece, 0, piece.byteSize());
            at += piece.byteSize();
        }
    }
}
