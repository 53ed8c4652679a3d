package io.pinmx.rma;

import io.pinmx.job.Job;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * ARMCI's reduction helpers over the job's control plane: every rank's array is gathered everywhere and combined
 * in rank order, so every rank computes the same result (to the bit, for doubles).
 */
final class Reductions
{
    enum Op
    {
        SUM, MIN, MAX
    }

    /** What a rank that was given a null array sends: one byte, shorter than any element. */
    private static final byte[] NULL_MARKER = {0};

    private Reductions()
    {
    }

    /** Ints travel and combine as longs: the low 32 bits of a long sum are the int sum with wraparound. */
    static int[] ints(final Job job, final int[] values, final Op op)
    {
        if (null == values)
        {
            refuseNull(job, op);
        }
        final long[] wide = new long[values.length];
        for (int i = 0; i < values.length; i++)
        {
            wide[i] = values[i];
        }
        final long[] combined = longs(job, wide, op);
        final int[] result = new int[values.length];
        for (int i = 0; i < values.length; i++)
        {
            result[i] = (int)combined[i];
        }
        return result;
    }

    static long[] longs(final Job job, final long[] values, final Op op)
    {
        if (null == values)
        {
            refuseNull(job, op);
        }
        final ByteBuffer mine = ByteBuffer.allocate(values.length * Long.BYTES);
        mine.asLongBuffer().put(values);
        final List<ByteBuffer> all = gather(job, mine.array(), values.length, Long.BYTES, op);
        final long[] result = new long[values.length];
        for (int i = 0; i < values.length; i++)
        {
            long acc = all.get(0).getLong(i * Long.BYTES);
            for (int r = 1; r < all.size(); r++)
            {
                final long v = all.get(r).getLong(i * Long.BYTES);
                acc = switch (op)
                {
                    case SUM -> acc + v;
                    case MIN -> Math.min(acc, v);
                    case MAX -> Math.max(acc, v);
                };
            }
            result[i] = acc;
        }
        return result;
    }

    static double[] doubles(final Job job, final double[] values, final Op op)
    {
        if (null == values)
        {
            refuseNull(job, op);
        }
        final ByteBuffer mine = ByteBuffer.allocate(values.length * Double.BYTES);
        mine.asDoubleBuffer().put(values);
        final List<ByteBuffer> all = gather(job, mine.array(), values.length, Double.BYTES, op);
        final double[] result = new double[values.length];
        for (int i = 0; i < values.length; i++)
        {
            double acc = all.get(0).getDouble(i * Double.BYTES);
            for (int r = 1; r < all.size(); r++)
            {
                final double v = all.get(r).getDouble(i * Double.BYTES);
                acc = switch (op)
                {
                    case SUM -> acc + v;
                    case MIN -> Math.min(acc, v);
                    case MAX -> Math.max(acc, v);
                };
            }
            result[i] = acc;
        }
        return result;
    }

    /**
     * A null array still takes part in the gather (as {@link #NULL_MARKER}, a length no array of elements has), so
     * that every other rank fails naming this one instead of waiting for it.
     *
     * @throws IllegalArgumentException always, naming the operation.
     */
    private static void refuseNull(final Job job, final Op op)
    {
        job.allGather(NULL_MARKER);
        throw new IllegalArgumentException(op + " of a null array: every rank must give one (of the same length)");
    }

    /**
     * @throws RmaException naming the rank whose array has another length or is null (the call was not collective).
     */
    private static List<ByteBuffer> gather(final Job job, final byte[] mine, final int length, final int elementBytes,
        final Op op)
    {
        final List<byte[]> all = job.allGather(mine);
        for (int r = 0; r < all.size(); r++)
        {
            if (all.get(r).length == NULL_MARKER.length && elementBytes > NULL_MARKER.length)
            {
                throw new RmaException("collective " + op + ": rank " + r + " gave a null array");
            }
            if (all.get(r).length != length * elementBytes)
            {
                throw new RmaException("collective mismatch in " + op + ": rank " + r + " gave " +
                    all.get(r).length / elementBytes + " elements, rank " + job.rank() + " gave " + length);
            }
        }
        return all.stream().map(ByteBuffer::wrap).toList();
    }
}
