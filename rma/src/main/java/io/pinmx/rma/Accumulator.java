package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@code target += scale * source}, element by element, each element updated atomically against every
 * other accumulate and read-modify-write on the same memory from any thread or process: integers by
 * atomic add, floats, doubles and complex floats by compare-and-set loops on their bits, complex doubles
 * under a {@link LockStripes} stripe. Every path of the one-sided layer (local shared memory, the data
 * server applying a remote request) goes through here, which is what makes them atomic against each other.
 */
public final class Accumulator
{
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final ValueLayout.OfInt INT_IN = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG_IN = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT_IN = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE_IN = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE_AT = ValueLayout.JAVA_DOUBLE;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private Accumulator()
    {
    }

    /**
     * @param scale        the scale; its type is the element type.
     * @param source       where the addends are read (any alignment, native or heap).
     * @param target       the target memory; {@code targetOffset} is also the lock-stripe key, so pass the
     *                     whole allocation slice, not a sub-slice.
     * @param bytes        a multiple of the element size.
     * @param stripes      the target's lock stripes (used by COMPLEX_DOUBLE only).
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
            case FLOAT -> floats((float)scale.re(), source, sourceOffset, target, targetOffset, bytes);
            case DOUBLE -> doubles(scale.re(), source, sourceOffset, target, targetOffset, bytes);
            case COMPLEX_FLOAT -> complexFloats((float)scale.re(), (float)scale.im(), source, sourceOffset, target,
                targetOffset, bytes);
            case COMPLEX_DOUBLE -> complexDoubles(scale.re(), scale.im(), source, sourceOffset, target, targetOffset,
                bytes, stripes);
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

    private static void floats(final float scale, final MemorySegment s, final long so, final MemorySegment t, final long to,
        final long bytes)
    {
        for (long i = 0; i < bytes; i += Float.BYTES)
        {
            final float addend = scale * s.get(FLOAT_IN, so + i);
            int seen;
            do
            {
                seen = (int)INT.getVolatile(t, to + i);
            }
            while (!INT.compareAndSet(t, to + i, seen, Float.floatToRawIntBits(Float.intBitsToFloat(seen) + addend)));
        }
    }

    private static void doubles(final double scale, final MemorySegment s, final long so, final MemorySegment t,
        final long to, final long bytes)
    {
        for (long i = 0; i < bytes; i += Double.BYTES)
        {
            final double addend = scale * s.get(DOUBLE_IN, so + i);
            long seen;
            do
            {
                seen = (long)LONG.getVolatile(t, to + i);
            }
            while (!LONG.compareAndSet(t, to + i, seen, Double.doubleToRawLongBits(Double.longBitsToDouble(seen) + addend)));
        }
    }

    private static void complexFloats(final float sr, final float si, final MemorySegment s, final long so,
        final MemorySegment t, final long to, final long bytes)
    {
        for (long i = 0; i < bytes; i += 2 * Float.BYTES)
        {
            final float xr = s.get(FLOAT_IN, so + i);
            final float xi = s.get(FLOAT_IN, so + i + Float.BYTES);
            final float ar = sr * xr - si * xi;
            final float ai = sr * xi + si * xr;
            long seen;
            long next;
            do
            {
                seen = (long)LONG.getVolatile(t, to + i);
                next = packFloats(realOf(seen) + ar, imaginaryOf(seen) + ai);
            }
            while (!LONG.compareAndSet(t, to + i, seen, next));
        }
    }

    private static void complexDoubles(final double sr, final double si, final MemorySegment s, final long so,
        final MemorySegment t, final long to, final long bytes, final LockStripes stripes)
    {
        for (long i = 0; i < bytes; i += 2 * Double.BYTES)
        {
            final double xr = s.get(DOUBLE_IN, so + i);
            final double xi = s.get(DOUBLE_IN, so + i + Double.BYTES);
            final long stripe = stripes.stripeOf(to + i);
            stripes.lock(stripe);
            try
            {
                t.set(DOUBLE_AT, to + i, t.get(DOUBLE_AT, to + i) + sr * xr - si * xi);
                t.set(DOUBLE_AT, to + i + Double.BYTES, t.get(DOUBLE_AT, to + i + Double.BYTES) + sr * xi + si * xr);
            }
            finally
            {
                stripes.unlock(stripe);
            }
        }
    }

    /** A complex float in memory is (re, im): the real part is the first four bytes. */
    private static float realOf(final long bits)
    {
        return Float.intBitsToFloat((int)(LITTLE_ENDIAN ? bits : bits >>> 32));
    }

    private static float imaginaryOf(final long bits)
    {
        return Float.intBitsToFloat((int)(LITTLE_ENDIAN ? bits >>> 32 : bits));
    }

    private static long packFloats(final float re, final float im)
    {
        final long r = Float.floatToRawIntBits(re) & 0xFFFF_FFFFL;
        final long m = Float.floatToRawIntBits(im) & 0xFFFF_FFFFL;
        return LITTLE_ENDIAN ? m << 32 | r : r << 32 | m;
    }
}
