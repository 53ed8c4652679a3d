package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code target += scale * source}, element by element, each element updated atomically against every
 * other accumulate and read-modify-write of its type on the same memory from any thread or process: integers by
 * atomic add (so they are atomic against fetch-and-add and swap, which are CPU atomics), floating-point types
 * (float, double, complex float, complex double) under the {@link LockStripes} stripe of each
 * {@value #CHUNK_BYTES}-byte chunk of target offsets they touch (no read-modify-write works on them). Every path of
 * the one-sided layer (local shared memory, the data server applying a remote request) goes through here, which is
 * what makes them atomic against each other.
 */
public final class Accumulator
{
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final ValueLayout.OfInt INT_IN = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG_IN = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT_IN = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE_IN = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT_AT = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout.OfDouble DOUBLE_AT = ValueLayout.JAVA_DOUBLE;
    /**
     * Floating-point accumulates take one lock stripe per chunk of this many bytes of target offsets: one
     * compare-and-set per chunk instead of a compare-and-set loop per element, which costs far more than the
     * arithmetic it guards.
     */
    static final long CHUNK_BYTES = 4096;

    private Accumulator()
    {
    }

    /**
     * @param scale        the scale; its type is the element type.
     * @param source       where the addends are read (any alignment, native or heap).
     * @param target       the target memory; {@code targetOffset} is also the lock-stripe key, so pass the
     *                     whole allocation slice, not a sub-slice.
     * @param bytes        a multiple of the element size.
     * @param stripes      the target's lock stripes (used by the floating-point types).
     * @throws IllegalArgumentException naming the length or offset that is not whole elements or not
     *                                  aligned for an atomic update.
     */
    public static void accumulate(
        final AccumulateScale scale,
        final MemorySegment source,
        final long sourceOffset,
        final MemorySegment target,
        final long targetOffset,
        final long bytes,
        final LockStripes stripes)
    {
        final ElementType type = scale.type();
        if (bytes < 0 || bytes % type.bytes() != 0)
        {
            throw new IllegalArgumentException("accumulate of " + bytes + " bytes is not a whole number of " +
                type.bytes() + "-byte " + type + " elements");
        }
        if ((target.address() + targetOffset) % type.alignmentBytes() != 0)
        {
            throw new IllegalArgumentException("accumulate target offset " + targetOffset + " is not aligned to " +
                type.alignmentBytes() + " bytes, which an atomic " + type + " update needs");
        }
        switch (type)
        {
            case INT -> ints((int)scale.integral(), source, sourceOffset, target, targetOffset, bytes);
            case LONG -> longs(scale.integral(), source, sourceOffset, target, targetOffset, bytes);
            default -> underChunkStripes(scale, source, sourceOffset, target, targetOffset, bytes, stripes);
        }
    }

    private static void ints(final int scale, final MemorySegment s, final long so, final MemorySegment t, final long to,
        final long bytes)
    {
        for (long i = 0; i < bytes; i += Integer.BYTES)
        {
            INT.getAndAdd(t, to + i, scale * s.get(INT_IN, so + i));
        }
    }

    private static void longs(final long scale, final MemorySegment s, final long so, final MemorySegment t, final long to,
        final long bytes)
    {
        for (long i = 0; i < bytes; i += Long.BYTES)
        {
            LONG.getAndAdd(t, to + i, scale * s.get(LONG_IN, so + i));
        }
    }

    /**
     * @return the end (a byte index of the accumulate, at most {@code bytes}) of the elements from index {@code i}
     * that start in the same {@value #CHUNK_BYTES}-byte chunk of target offsets: an element belongs to the chunk it
     * starts in, also when it reaches into the next one.
     */
    private static long chunkEnd(final long targetOffset, final long i, final long bytes, final int elementBytes)
    {
        final long nextChunk = ((targetOffset + i) & -CHUNK_BYTES) + CHUNK_BYTES;
        return Math.min(bytes, (nextChunk - targetOffset + elementBytes - 1) / elementBytes * elementBytes);
    }

    /**
     * Floating-point types: the elements of each chunk of target offsets under that chunk's stripe, the arithmetic
     * plain (nobody updates a floating-point element without the stripe).
     */
    private static void underChunkStripes(final AccumulateScale scale, final MemorySegment s, final long so,
        final MemorySegment t, final long to, final long bytes, final LockStripes stripes)
    {
        final ElementType type = scale.type();
        for (long i = 0; i < bytes;)
        {
            final long end = chunkEnd(to, i, bytes, type.bytes());
            final long stripe = stripes.stripeOf((to + i) & -CHUNK_BYTES);
            stripes.lock(stripe);
            try
            {
                switch (type)
                {
                    case FLOAT -> floats((float)scale.re(), s, so, t, to, i, end);
                    case DOUBLE -> doubles(scale.re(), s, so, t, to, i, end);
                    case COMPLEX_FLOAT -> complexFloats((float)scale.re(), (float)scale.im(), s, so, t, to, i, end);
                    default -> complexDoubles(scale.re(), scale.im(), s, so, t, to, i, end);
                }
            }
            finally
            {
                stripes.unlock(stripe);
            }
            i = end;
        }
    }

    /** The elements at byte indexes [from, end) of an accumulate: {@code t[to + i] += scale * s[so + i]}. */
    private static void floats(final float scale, final MemorySegment s, final long so, final MemorySegment t,
        final long to, final long from, final long end)
    {
        for (long i = from; i < end; i += Float.BYTES)
        {
            t.set(FLOAT_AT, to + i, t.get(FLOAT_AT, to + i) + scale * s.get(FLOAT_IN, so + i));
        }
    }

    private static void doubles(final double scale, final MemorySegment s, final long so, final MemorySegment t,
        final long to, final long from, final long end)
    {
        for (long i = from; i < end; i += Double.BYTES)
        {
            t.set(DOUBLE_AT, to + i, t.get(DOUBLE_AT, to + i) + scale * s.get(DOUBLE_IN, so + i));
        }
    }

    private static void complexFloats(final float sr, final float si, final MemorySegment s, final long so,
        final MemorySegment t, final long to, final long from, final long end)
    {
        for (long i = from; i < end; i += 2 * Float.BYTES)
        {
            final float xr = s.get(FLOAT_IN, so + i);
            final float xi = s.get(FLOAT_IN, so + i + Float.BYTES);
            t.set(FLOAT_AT, to + i, t.get(FLOAT_AT, to + i) + sr * xr - si * xi);
            t.set(FLOAT_AT, to + i + Float.BYTES, t.get(FLOAT_AT, to + i + Float.BYTES) + sr * xi + si * xr);
        }
    }

    private static void complexDoubles(final double sr, final double si, final MemorySegment s, final long so,
        final MemorySegment t, final long to, final long from, final long end)
    {
        for (long i = from; i < end; i += 2 * Double.BYTES)
        {
            final double xr = s.get(DOUBLE_IN, so + i);
            final double xi = s.get(DOUBLE_IN, so + i + Double.BYTES);
            t.set(DOUBLE_AT, to + i, t.get(DOUBLE_AT, to + i) + sr * xr - si * xi);
            t.set(DOUBLE_AT, to + i + Double.BYTES, t.get(DOUBLE_AT, to + i + Double.BYTES) + sr * xi + si * xr);
        }
    }
}
