package io.pinmx.rma;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccumulatorTest
{
    private static final int ELEMENTS = 64;
    private final Arena arena = Arena.ofShared();
    private final LockStripes stripes = new LockStripes(arena.allocate(64 * Long.BYTES, Long.BYTES));

    @AfterEach
    void close()
    {
        arena.close();
    }

    @Test
    void everyTypeAddsScaleTimesSource()
    {
        final MemorySegment src = arena.allocate(ELEMENTS * 16L, 8);
        final MemorySegment dst = arena.allocate(ELEMENTS * 16L, 8);
        for (int i = 0; i < ELEMENTS; i++)
        {
            src.setAtIndex(ValueLayout.JAVA_INT, i, i - 7);
            dst.setAtIndex(ValueLayout.JAVA_INT, i, 1000 * i);
        }
        Accumulator.accumulate(AccumulateScale.ofInt(-3), src, 0, dst, 0, ELEMENTS * 4L, stripes);
        for (int i = 0; i < ELEMENTS; i++)
        {
            assertEquals(1000 * i - 3 * (i - 7), dst.getAtIndex(ValueLayout.JAVA_INT, i), "int " + i);
        }
        for (int i = 0; i < ELEMENTS; i++)
        {
            src.setAtIndex(ValueLayout.JAVA_LONG, i, (long)i << 33);
            dst.setAtIndex(ValueLayout.JAVA_LONG, i, 5);
        }
        Accumulator.accumulate(AccumulateScale.ofLong(2), src, 0, dst, 0, ELEMENTS * 8L, stripes);
        for (int i = 0; i < ELEMENTS; i++)
        {
            assertEquals(5 + ((long)i << 34), dst.getAtIndex(ValueLayout.JAVA_LONG, i), "long " + i);
        }
        for (int i = 0; i < ELEMENTS; i++)
        {
            src.setAtIndex(ValueLayout.JAVA_FLOAT, i, i * 0.5f);
            dst.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1.25f);
        }
        Accumulator.accumulate(AccumulateScale.ofFloat(4f), src, 0, dst, 0, ELEMENTS * 4L, stripes);
        for (int i = 0; i < ELEMENTS; i++)
        {
            assertEquals(1.25f + 4f * (i * 0.5f), dst.getAtIndex(ValueLayout.JAVA_FLOAT, i), "float " + i);
        }
        for (int i = 0; i < ELEMENTS; i++)
        {
            src.setAtIndex(ValueLayout.JAVA_DOUBLE, i, i / 3.0);
            dst.setAtIndex(ValueLayout.JAVA_DOUBLE, i, -1.0);
        }
        Accumulator.accumulate(AccumulateScale.ofDouble(0.1), src, 0, dst, 0, ELEMENTS * 8L, stripes);
        for (int i = 0; i < ELEMENTS; i++)
        {
            assertEquals(-1.0 + 0.1 * (i / 3.0), dst.getAtIndex(ValueLayout.JAVA_DOUBLE, i), "double " + i);
        }
    }

    @Test
    void complexScalesMultiplyAsComplexNumbers()
    {
        final MemorySegment src = arena.allocate(ELEMENTS * 16L, 8);
        final MemorySegment dst = arena.allocate(ELEMENTS * 16L, 8);
        for (int i = 0; i < ELEMENTS; i++)
        {
            src.setAtIndex(ValueLayout.JAVA_FLOAT, 2L * i, i);
            src.setAtIndex(ValueLayout.JAVA_FLOAT, 2L * i + 1, 2 * i);
            dst.setAtIndex(ValueLayout.JAVA_FLOAT, 2L * i, 1);
            dst.setAtIndex(ValueLayout.JAVA_FLOAT, 2L * i + 1, -1);
        }
        // (2 + 3i) * (x + 2x i) = (2x - 6x) + (4x + 3x) i
        Accumulator.accumulate(AccumulateScale.ofComplexFloat(2, 3), src, 0, dst, 0, ELEMENTS * 8L, stripes);
        for (int i = 0; i < ELEMENTS; i++)
        {
            assertEquals(1 - 4f * i, dst.getAtIndex(ValueLayout.JAVA_FLOAT, 2L * i), "complex float re " + i);
            assertEquals(-1 + 7f * i, dst.getAtIndex(ValueLayout.JAVA_FLOAT, 2L * i + 1), "complex float im " + i);
        }
        for (int i = 0; i < ELEMENTS; i++)
        {
            src.setAtIndex(ValueLayout.JAVA_DOUBLE, 2L * i, i);
            src.setAtIndex(ValueLayout.JAVA_DOUBLE, 2L * i + 1, 2 * i);
            dst.setAtIndex(ValueLayout.JAVA_DOUBLE, 2L * i, 1);
            dst.setAtIndex(ValueLayout.JAVA_DOUBLE, 2L * i + 1, -1);
        }
        Accumulator.accumulate(AccumulateScale.ofComplexDouble(2, 3), src, 0, dst, 0, ELEMENTS * 16L, stripes);
        for (int i = 0; i < ELEMENTS; i++)
        {
            assertEquals(1 - 4.0 * i, dst.getAtIndex(ValueLayout.JAVA_DOUBLE, 2L * i), "complex double re " + i);
            assertEquals(-1 + 7.0 * i, dst.getAtIndex(ValueLayout.JAVA_DOUBLE, 2L * i + 1), "complex double im " + i);
        }
    }

    @Test
    void partialElementsAndMisalignedTargetsAreRefusedUntouched()
    {
        final MemorySegment src = arena.allocate(64, 8);
        final MemorySegment dst = arena.allocate(64, 8);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Accumulator.accumulate(AccumulateScale.ofLong(1), src, 0, dst, 0, 12, stripes));
        assertTrue(ex.getMessage().contains("12 bytes is not a whole number of 8-byte LONG elements"), ex.getMessage());
        ex = assertThrows(IllegalArgumentException.class,
            () -> Accumulator.accumulate(AccumulateScale.ofDouble(1), src, 0, dst, 4, 8, stripes));
        assertTrue(ex.getMessage().contains("target offset 4 is not aligned to 8 bytes"), ex.getMessage());
        ex = assertThrows(IllegalArgumentException.class,
            () -> Accumulator.accumulate(AccumulateScale.ofInt(1), src, 0, dst, 2, 4, stripes));
        assertTrue(ex.getMessage().contains("target offset 2 is not aligned to 4 bytes"), ex.getMessage());
        for (long i = 0; i < 64; i++)
        {
            assertEquals(0, dst.get(ValueLayout.JAVA_BYTE, i), "target byte " + i + " written by a refused accumulate");
        }
    }

    /** Threads hammering the same elements of every type: every addend lands exactly once. */
    @Test
    void concurrentAccumulatesOnTheSameElementsLoseNoUpdate() throws Exception
    {
        final int threads = 4;
        final int rounds = 2000;
        for (final ElementType type : ElementType.values())
        {
            final MemorySegment dst = arena.allocate(8 * type.bytes(), 8);
            final MemorySegment ones = arena.allocate(8 * type.bytes(), 8);
            for (int e = 0; e < 8; e++)
            {
                Elements.set(type, ones, e, 1);
            }
            final List<Runnable> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                workers.add(() ->
                {
                    for (int r = 0; r < rounds; r++)
                    {
                        Accumulator.accumulate(Elements.scale(type, 1), ones, 0, dst, 0, 8L * type.bytes(), stripes);
                    }
                });
            }
            runTogether(workers);
            final double expected = threads * rounds;
            for (int e = 0; e < 8; e++)
            {
                assertEquals(expected, Elements.get(type, dst, e), type + " element " + e);
            }
        }
    }

    /**
     * Floating-point accumulates lock per chunk of target offsets: threads whose ranges start at different offsets,
     * and cross chunk boundaries still lose nothing.
     */
    @Test
    void accumulatesAcrossChunkBoundariesFromDifferentStartsLoseNoUpdate() throws Exception
    {
        final int rounds = 300;
        for (final ElementType type : ElementType.values())
        {
            final long span = 3 * Accumulator.CHUNK_BYTES;
            final MemorySegment dst = arena.allocate(span + 64, 16);
            final MemorySegment ones = arena.allocate(span + 64, 16);
            final int elements = (int)(span / type.bytes());
            for (int e = 0; e < elements; e++)
            {
                Elements.set(type, ones, e, 1);
            }
            // Three ranges in element units: the whole span, one starting just below the first boundary, one inside.
            final long[][] ranges = {{0, elements}, {(Accumulator.CHUNK_BYTES - 8) / type.bytes(), elements / 2},
                {Accumulator.CHUNK_BYTES / type.bytes() + 1, elements / 3}};
            final List<Runnable> workers = new ArrayList<>();
            for (final long[] range : ranges)
            {
                final long from = range[0] * type.bytes();
                final long bytes = Math.min(range[1] * type.bytes(), span - from);
                workers.add(() ->
                {
                    for (int r = 0; r < rounds; r++)
                    {
                        Accumulator.accumulate(Elements.scale(type, 1), ones, 0, dst, from, bytes, stripes);
                    }
                });
            }
            runTogether(workers);
            for (int e = 0; e < elements; e++)
            {
                int covering = 0;
                for (final long[] range : ranges)
                {
                    final long from = range[0];
                    final long to = from + Math.min(range[1], elements - from);
                    covering += e >= from && e < to ? 1 : 0;
                }
                assertEquals(covering * (double)rounds, Elements.get(type, dst, e), type + " element " + e);
            }
        }
    }

    /** Starts a thread per worker, lets them go at once and waits for all of them. */
    private static void runTogether(final List<Runnable> workers) throws InterruptedException
    {
        final CyclicBarrier start = new CyclicBarrier(workers.size());
        final List<Thread> threads = new ArrayList<>();
        for (final Runnable worker : workers)
        {
            threads.add(Thread.ofPlatform().start(() ->
            {
                try
                {
                    start.await(30, TimeUnit.SECONDS);
                }
                catch (final Exception e)
                {
                    throw new IllegalStateException(e);
                }
                worker.run();
            }));
        }
        for (final Thread t : threads)
        {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!t.isAlive(), "worker finished");
        }
    }
}
