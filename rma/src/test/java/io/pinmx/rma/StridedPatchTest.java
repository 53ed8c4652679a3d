package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StridedPatchTest
{
    @Test
    void piecesOfRandomPatchesMatchTheirDefinitionAtEveryLevel()
    {
        final Random random = new Random(42);
        for (int trial = 0; trial < 500; trial++)
        {
            final int levels = trial % (StridedPatch.MAX_LEVELS + 1);
            final long[] counts = new long[levels + 1];
            final long[] src = new long[levels];
            final long[] dst = new long[levels];
            counts[0] = 1 + random.nextInt(9);
            for (int i = 1; i <= levels; i++)
            {
                counts[i] = 1 + random.nextInt(3);
            }
            for (int i = 0; i < levels; i++)
            {
                final long inner = 0 == i ? counts[0] : counts[i] * src[i - 1];
                src[i] = inner + random.nextInt(4);
                final long innerDst = 0 == i ? counts[0] : counts[i] * dst[i - 1];
                dst[i] = innerDst + random.nextInt(4);
            }
            final StridedPatch patch = StridedPatch.of(counts, src, dst, levels);
            final List<long[]> expected = new ArrayList<>();
            enumerate(counts, src, dst, levels, 0, 0, expected);
            final List<long[]> seen = new ArrayList<>();
            patch.forEachPiece((s, d, bytes) -> seen.add(new long[] {s, d, bytes}));
            assertEquals(expected.size(), seen.size(), patch.toString());
            assertEquals(expected.size(), patch.pieces());
            long maxSrcEnd = 0;
            long maxDstEnd = 0;
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i)[0], seen.get(i)[0], "source offset of piece " + i + " of " + patch);
                assertEquals(expected.get(i)[1], seen.get(i)[1], "target offset of piece " + i + " of " + patch);
                assertEquals(counts[0], seen.get(i)[2]);
                maxSrcEnd = Math.max(maxSrcEnd, seen.get(i)[0] + counts[0]);
                maxDstEnd = Math.max(maxDstEnd, seen.get(i)[1] + counts[0]);
            }
            assertEquals(maxSrcEnd, patch.sourceExtentBytes(), patch.toString());
            assertEquals(maxDstEnd, patch.targetExtentBytes(), patch.toString());
            assertEquals(expected.size() * counts[0], patch.totalBytes());
        }
    }

    /** The definition: level i repeats the inner block count[i] times, stride[i-1] apart; level 1 is innermost. */
    private static void enumerate(final long[] counts, final long[] src, final long[] dst, final int level,
        final long s, final long d, final List<long[]> out)
    {
        if (0 == level)
        {
            out.add(new long[] {s, d});
            return;
        }
        for (long k = 0; k < counts[level]; k++)
        {
            enumerate(counts, src, dst, level - 1, s + k * src[level - 1], d + k * dst[level - 1], out);
        }
    }

    @Test
    void aZeroCountMovesNothing()
    {
        final StridedPatch patch = StridedPatch.of(new long[] {8, 0, 3}, new long[] {8, 8}, new long[] {8, 8}, 2);
        assertEquals(0, patch.pieces());
        assertEquals(0, patch.totalBytes());
        assertEquals(0, patch.targetExtentBytes());
        patch.forEachPiece((s, d, b) ->
        {
            throw new AssertionError("no piece expected");
        });
    }

    @Test
    void badShapesAreRefusedNamingWhatIsWrong()
    {
        assertMessage("stride levels 9 not in 0..8",
            () -> StridedPatch.of(new long[10], new long[9], new long[9], 9));
        assertMessage("stride levels -1",
            () -> StridedPatch.of(new long[1], new long[0], new long[0], -1));
        assertMessage("count[1] = -2 is negative",
            () -> StridedPatch.of(new long[] {8, -2}, new long[] {8}, new long[] {8}, 1));
        assertMessage("count has 1 entries; 1 stride levels need 2",
            () -> StridedPatch.of(new long[] {8}, new long[] {8}, new long[] {8}, 1));
        assertMessage("target stride[0] = 4 does not fit its counts: a level-0 block spans 8 bytes",
            () -> StridedPatch.of(new long[] {8, 2}, new long[] {8}, new long[] {4}, 1));
        assertMessage("target stride[1] = 15 does not fit its counts: a level-1 block spans 16 bytes",
            () -> StridedPatch.of(new long[] {8, 2, 2}, new long[] {8, 16}, new long[] {8, 15}, 2));
        assertMessage("source stride[0] = -8 is negative",
            () -> StridedPatch.of(new long[] {8, 2}, new long[] {-8}, new long[] {8}, 1));
        assertMessage("target stride[1] = -1 is negative",
            () -> StridedPatch.of(new long[] {8, 2, 1}, new long[] {8, 16}, new long[] {8, -1}, 2));
        assertMessage("target stride array has 1 entries",
            () -> StridedPatch.of(new long[] {8, 2, 2}, new long[] {8, 16}, new long[] {8}, 2));
        assertMessage("reaches beyond 2^63 - 1 bytes",
            () -> StridedPatch.of(new long[] {1L << 40, 1L << 30}, new long[] {1L << 40}, new long[] {1L << 40}, 1));
        final StridedPatch patch = StridedPatch.of(new long[] {12, 2}, new long[] {16}, new long[] {12}, 1);
        assertMessage("count[0] = 12 bytes is not a multiple of the 8-byte LONG element",
            () -> patch.checkElementMultiple(8, "LONG"));
        final StridedPatch oddStride = StridedPatch.of(new long[] {8, 2}, new long[] {12}, new long[] {8}, 1);
        assertMessage("stride[0] (source 12, target 8) is not a multiple of the 8-byte",
            () -> oddStride.checkElementMultiple(8, "DOUBLE"));
    }

    @Test
    void onlyTheWrittenSideMustNotOverlapItself()
    {
        // A source stride of 0 repeats one row (read twice); a level of count 1 never repeats, so its stride is free.
        final StridedPatch spread = StridedPatch.of(new long[] {8, 3}, new long[] {0}, new long[] {8}, 1);
        assertEquals(8, spread.sourceExtentBytes());
        assertEquals(24, spread.targetExtentBytes());
        final StridedPatch degenerate = StridedPatch.of(new long[] {8, 1, 2}, new long[] {0, 8}, new long[] {0, 8}, 2);
        assertEquals(2, degenerate.pieces());
        assertEquals(16, degenerate.targetExtentBytes());
        // Level-1 blocks of 8 + 16 bytes, 24 apart: interleaved without overlap (count[2] * stride[1] would refuse it).
        final StridedPatch interleaved = StridedPatch.of(new long[] {8, 2, 2}, new long[] {8, 16}, new long[] {16, 24}, 2);
        assertEquals(48, interleaved.targetExtentBytes());
        assertEquals(StridedPatch.remoteSide(new long[] {8, 3}, new long[] {0}, 1).pieces(), 3);
    }

    private static void assertMessage(final String expected, final Runnable call)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }
}
