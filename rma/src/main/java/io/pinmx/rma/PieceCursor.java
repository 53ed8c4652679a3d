package io.pinmx.rma;

import java.lang.foreign.MemorySegment;

/**
 * Walks the pieces of one transfer in packed order, a chunk at a time: packs the next bytes of the pieces into a
 * chunk, unpacks a chunk into them, or accumulates a chunk into them. A chunk may end inside a piece; the next call
 * goes on from there.
 */
final class PieceCursor
{
    private final MemorySegment base;
    private final MemorySegment[] segments;
    private final long[] offsets;
    private final long[] lengths;
    private int piece;
    private long inPiece;

    private PieceCursor(final MemorySegment base, final MemorySegment[] segments, final long[] offsets,
        final long[] lengths)
    {
        this.base = base;
        this.segments = segments;
        this.offsets = offsets;
        this.lengths = lengths;
    }

    /** Over pieces of one segment (a slice): piece i is {@code lengths[i]} bytes at {@code offsets[i]}. */
    static PieceCursor of(final MemorySegment base, final long[] offsets, final long[] lengths)
    {
        return new PieceCursor(base, null, offsets, lengths);
    }

    /** Over the local pieces of a transfer. */
    static PieceCursor of(final Pieces pieces)
    {
        return new PieceCursor(null, pieces.local, null, pieces.lengths);
    }

    private enum Move
    {
        PACK, UNPACK, ACCUMULATE
    }

    /** Copies the next {@code chunk.byteSize()} bytes of the pieces into {@code chunk}. */
    void pack(final MemorySegment chunk)
    {
        walk(chunk, Move.PACK, null, null);
    }

    /** Copies {@code chunk} into the next bytes of the pieces. */
    void unpack(final MemorySegment chunk)
    {
        walk(chunk, Move.UNPACK, null, null);
    }

    /** Accumulates {@code chunk} (whole elements) into the next bytes of the pieces. */
    void accumulate(final AccumulateScale scale, final MemorySegment chunk, final LockStripes stripes)
    {
        walk(chunk, Move.ACCUMULATE, scale, stripes);
    }

    private void walk(final MemorySegment chunk, final Move move, final AccumulateScale scale,
        final LockStripes stripes)
    {
        long at = 0;
        final long end = chunk.byteSize();
        while (at < end)
        {
            final long bytes = Math.min(lengths[piece] - inPiece, end - at);
            final MemorySegment segment = null == base ? segments[piece] : base;
            final long offset = (null == offsets ? 0 : offsets[piece]) + inPiece;
            switch (move)
            {
                case PACK -> MemorySegment.copy(segment, offset, chunk, at, bytes);
                case UNPACK -> MemorySegment.copy(chunk, at, segment, offset, bytes);
                case ACCUMULATE -> Accumulator.accumulate(scale, chunk, at, segment, offset, bytes, stripes);
            }
            at += bytes;
            inPiece += bytes;
            if (inPiece == lengths[piece])
            {
                piece++;
                inPiece = 0;
            }
        }
    }
}
