package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The local side of a strided get joined where its pieces follow one another in the caller's segment: a column band
 * of a remote matrix into a contiguous buffer is one segment, packed bytes landing there with no staging.
 */
class PiecesTest
{
    private static final long ROW_BYTES = 2048;
    private static final long ROWS = 64;

    @Test
    void aStridedGetIntoContiguousMemoryIsOneSegment()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment into = arena.allocate(ROWS * ROW_BYTES + 64);
            final Pieces pieces = Pieces.strided(StridedPatch.of(new long[] {ROW_BYTES, ROWS},
                new long[] {2 * ROW_BYTES}, new long[] {ROW_BYTES}, 1), into.asSlice(64), 0, false);
            final MemorySegment[] joined = pieces.joinedLocal();
            assertEquals(1, joined.length);
            assertEquals(into.address() + 64, joined[0].address());
            assertEquals(ROWS * ROW_BYTES, joined[0].byteSize());
        }
    }

    @Test
    void piecesApartStayApartAndRunsJoin()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment into = arena.allocate(4 * ROWS * ROW_BYTES);
            // every row lands one row apart from the last: nothing joins
            final Pieces apart = Pieces.strided(StridedPatch.of(new long[] {ROW_BYTES, ROWS},
                new long[] {ROW_BYTES}, new long[] {2 * ROW_BYTES}, 1), into, 0, false);
            assertSame(apart.local, apart.joinedLocal());
            // blocks of 4 adjacent rows, a gap between blocks: one segment per block
            final Pieces blocks = Pieces.strided(StridedPatch.of(new long[] {ROW_BYTES, 4, ROWS / 4},
                new long[] {ROW_BYTES, 4 * ROW_BYTES}, new long[] {ROW_BYTES, 8 * ROW_BYTES}, 2), into, 0, false);
            final MemorySegment[] joined = blocks.joinedLocal();
            assertEquals(ROWS / 4, joined.length);
            for (int b = 0; b < joined.length; b++)
            {
                assertEquals(into.address() + b * 8 * ROW_BYTES, joined[b].address(), "block " + b);
                assertEquals(4 * ROW_BYTES, joined[b].byteSize(), "block " + b);
            }
        }
    }

    @Test
    void vectorPiecesAreNotJoined()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment into = arena.allocate(2 * ROW_BYTES);
            final Pieces pieces = Pieces.vectors(new IoVector[] {IoVector.ofPieces(
                new MemorySegment[] {into.asSlice(0, ROW_BYTES), into.asSlice(ROW_BYTES, ROW_BYTES)},
                new long[] {0, 4 * ROW_BYTES}, ROW_BYTES)});
            assertSame(pieces.local, pieces.joinedLocal());
        }
    }
}
