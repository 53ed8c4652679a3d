package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Packing and unpacking pieces a chunk at a time, chunks ending inside pieces, against a plain piece-by-piece copy;
 * and the chunk schedule both ends follow.
 */
class PieceCursorTest
{
    @Test
    void chunksThatSplitPiecesPackAndUnpackExactly()
    {
        final Random r = new Random(7);
        try (Arena arena = Arena.ofConfined())
        {
            for (int trial = 0; trial < 200; trial++)
            {
                final int pieces = 1 + r.nextInt(40);
                final long[] offsets = new long[pieces];
                final long[] lengths = new long[pieces];
                long at = 0;
                long total = 0;
                for (int i = 0; i < pieces; i++)
                {
                    at += r.nextInt(16);
                    offsets[i] = at;
                    lengths[i] = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(300);
                    at += lengths[i];
                    total += lengths[i];
                }
                final MemorySegment slice = arena.allocate(at + 1);
                final byte[] random = new byte[(int)slice.byteSize()];
                r.nextBytes(random);
                MemorySegment.copy(MemorySegment.ofArray(random), 0, slice, 0, random.length);
                final MemorySegment packed = arena.allocate(Math.max(1, total));
                final PieceCursor packer = PieceCursor.of(slice, offsets, lengths);
                long done = 0;
                while (done < total)
                {
                    final long chunk = Math.min(total - done, 1 + r.nextInt(100));
                    packer.pack(packed.asSlice(done, chunk));
                    done += chunk;
                }
                long p = 0;
                for (int i = 0; i < pieces; i++)
                {
                    final long from = p;
                    final int trialNo = trial;
                    assertEquals(-1, MemorySegment.mismatch(slice, offsets[i], offsets[i] + lengths[i], packed, from,
                        from + lengths[i]), () -> "trial " + trialNo + " packed piece at " + from);
                    p += lengths[i];
                }
                final MemorySegment back = arena.allocate(slice.byteSize());
                final PieceCursor unpacker = PieceCursor.of(back, offsets, lengths);
                done = 0;
                while (done < total)
                {
                    final long chunk = Math.min(total - done, 1 + r.nextInt(100));
                    unpacker.unpack(packed.asSlice(done, chunk));
                    done += chunk;
                }
                for (int i = 0; i < pieces; i++)
                {
                    assertEquals(-1, MemorySegment.mismatch(slice, offsets[i], offsets[i] + lengths[i], back,
                        offsets[i], offsets[i] + lengths[i]));
                }
            }
        }
    }

    @Test
    void accumulatesChunkByChunk()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment slice = arena.allocate(64 * 8);
            final long[] offsets = {0, 64, 200};
            final long[] lengths = {24, 40, 16};
            final MemorySegment data = arena.allocate(80);
            for (int e = 0; e < 10; e++)
            {
                data.set(ValueLayout.JAVA_LONG, 8L * e, e + 1);
            }
            final PieceCursor cursor = PieceCursor.of(slice, offsets, lengths);
            final LockStripes stripes = new LockStripes(arena.allocate(64 * Long.BYTES, Long.BYTES));
            // The first chunk ends inside the second piece.
            cursor.accumulate(AccumulateScale.ofLong(2), data.asSlice(0, 32), stripes);
            cursor.accumulate(AccumulateScale.ofLong(2), data.asSlice(32, 48), stripes);
            final long[] expectAt = {0, 8, 16, 64, 72, 80, 88, 96, 200, 208};
            for (int e = 0; e < expectAt.length; e++)
            {
                assertEquals(2L * (e + 1), slice.get(ValueLayout.JAVA_LONG, expectAt[e]), "element " + e);
            }
            assertEquals(0, slice.get(ValueLayout.JAVA_LONG, 24), "nothing between pieces");
        }
    }

    @Test
    void chunkScheduleStartsSmallGrowsToItsMaximumAndCoversTheTotal()
    {
        assertEquals(ChunkSchedule.FIRST_CHUNK_BYTES, ChunkSchedule.chunkBytes(0, 1L << 30));
        assertEquals(2 * ChunkSchedule.FIRST_CHUNK_BYTES, ChunkSchedule.chunkBytes(1, 1L << 30));
        assertEquals(ChunkSchedule.MAX_CHUNK_BYTES, ChunkSchedule.chunkBytes(40, 1L << 30));
        assertEquals(0, ChunkSchedule.chunks(0));
        for (final long total : new long[] {1, 16384, 16385, 1 << 20, (1 << 20) + 24, 16L << 20})
        {
            long sum = 0;
            final int n = ChunkSchedule.chunks(total);
            for (int c = 0; c < n; c++)
            {
                final long bytes = ChunkSchedule.chunkBytes(c, total - sum);
                assertTrue(bytes > 0 && bytes <= ChunkSchedule.MAX_CHUNK_BYTES);
                sum += bytes;
            }
            assertEquals(total, sum);
        }
    }
}
