package io.pinmx.apps.mg;

import io.pinmx.mpj.npb.NpbRandom;

import java.util.Arrays;
import java.util.Comparator;

/**
 * NPB MG's right-hand side (zran3): NPB's generator gives each point of the finest grid a number in (0, 1), x
 * fastest, from the seed onwards; the {@link #CHARGES} largest become +1, the {@link #CHARGES} smallest -1, every
 * other point 0. Each rank draws its own slab (jumping the generator to its first plane) and keeps its extremes;
 * the ranks then pool their candidates, and each sets the charges that fall in its slab.
 */
final class RandomCharges
{
    static final int CHARGES = 10;
    /** Per candidate: value and global position. */
    private static final int FIELDS = 2;
    /** Per rank: its largest, then its smallest candidates. */
    private static final int PER_RANK = 2 * CHARGES * FIELDS;

    private RandomCharges()
    {
    }

    static void place(final Grid v, final int points, final SlabTransport transport)
    {
        final Extremes largest = new Extremes(true);
        final Extremes smallest = new Extremes(false);
        final long plane = (long)points * points;
        final long rowStep = NpbRandom.power(NpbRandom.MULTIPLIER, points);
        final long planeStep = NpbRandom.power(NpbRandom.MULTIPLIER, plane);
        long planeState = NpbRandom.multiply(NpbRandom.SEED,
            NpbRandom.power(NpbRandom.MULTIPLIER, plane * v.firstPlane));
        for (int z = 0; z < v.planes; z++)
        {
            long rowState = planeState;
            for (int y = 0; y < points; y++)
            {
                long state = rowState;
                final long rowStart = points * ((long)y + (long)points * (v.firstPlane + z));
                for (int x = 0; x < points; x++)
                {
                    state = NpbRandom.multiply(state, NpbRandom.MULTIPLIER);
                    final double value = NpbRandom.scaled(state);
                    largest.offer(value, rowStart + x);
                    smallest.offer(value, rowStart + x);
                }
                rowState = NpbRandom.multiply(rowState, rowStep);
            }
            planeState = NpbRandom.multiply(planeState, planeStep);
        }
        final double[] candidates = new double[transport.size() * PER_RANK];
        final int own = transport.rank() * PER_RANK;
        largest.writeTo(candidates, own);
        smallest.writeTo(candidates, own + CHARGES * FIELDS);
        final double[] pooled = transport.sum(candidates);
        v.zero();
        charge(v, points, chosen(pooled, 0, true), 1.0);
        charge(v, points, chosen(pooled, CHARGES * FIELDS, false), -1.0);
    }

    /** The global positions of the {@link #CHARGES} most extreme candidates among every rank's. */
    private static long[] chosen(final double[] pooled, final int part, final boolean largest)
    {
        final int ranks = pooled.length / PER_RANK;
        final Integer[] order = new Integer[ranks * CHARGES];
        for (int i = 0; i < order.length; i++)
        {
            order[i] = (i / CHARGES) * PER_RANK + part + (i % CHARGES) * FIELDS;
        }
        final Comparator<Integer> byValue = Comparator.comparingDouble(i -> pooled[i]);
        Arrays.sort(order, largest ? byValue.reversed() : byValue);
        final long[] positions = new long[CHARGES];
        for (int i = 0; i < CHARGES; i++)
        {
            positions[i] = (long)pooled[order[i] + 1];
        }
        return positions;
    }

    private static void charge(final Grid v, final int points, final long[] positions, final double value)
    {
        final long plane = (long)points * points;
        for (final long position : positions)
        {
            final int z = (int)(position / plane) - v.firstPlane;
            if (z >= 0 && z < v.planes)
            {
                final int y = (int)(position % plane / points);
                final int x = (int)(position % points);
                v.values[v.index(x + 1, y + 1, z + 1)] = value;
            }
        }
    }

    /** The {@link #CHARGES} largest (or smallest) values offered, with their positions. */
    private static final class Extremes
    {
        private final boolean largest;
        private final double[] values = new double[CHARGES];
        private final long[] positions = new long[CHARGES];
        private int worst;

        Extremes(final boolean largest)
        {
            this.largest = largest;
            Arrays.fill(values, largest ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
        }

        void offer(final double value, final long position)
        {
            if (largest ? value > values[worst] : value < values[worst])
            {
                values[worst] = value;
                positions[worst] = position;
                for (int i = 0; i < CHARGES; i++)
                {
                    if (largest ? values[i] < values[worst] : values[i] > values[worst])
                    {
                        worst = i;
                    }
                }
            }
        }

        void writeTo(final double[] out, final int at)
        {
            for (int i = 0; i < CHARGES; i++)
            {
                out[at + i * FIELDS] = values[i];
                out[at + i * FIELDS + 1] = positions[i];
            }
        }
    }
}
