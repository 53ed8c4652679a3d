package io.pinmx.apps.spmv;

/**
 * The repeated product the kernel times, as CG repeats its mat-vec: x' = A x / |A x|, from x_i = 1 + (i mod 10) / 10.
 * {@link #serial} is the one-rank product every distributed run is checked against.
 */
final class PowerIteration
{
    private PowerIteration()
    {
    }

    static double start(final int row)
    {
        return 1.0 + (row % 10) / 10.0;
    }

    /** The vector after {@code iterations} steps, computed by one rank holding every row. */
    static double[] serial(final MatrixKind kind, final int size, final int iterations)
    {
        final int n = (int)kind.rows(size);
        final CsrRows rows = kind.rows(size, 0, n);
        double[] x = new double[n];
        for (int i = 0; i < n; i++)
        {
            x[i] = start(i);
        }
        final int[] slots = rows.columns;
        final double[] y = new double[n];
        for (int it = 0; it < iterations; it++)
        {
            rows.multiply(slots, x, y);
            final double norm = Math.sqrt(squares(y));
            final double[] next = new double[n];
            for (int i = 0; i < n; i++)
            {
                next[i] = y[i] / norm;
            }
            x = next;
        }
        return x;
    }

    static double squares(final double[] y)
    {
        double sum = 0.0;
        for (final double v : y)
        {
            sum += v * v;
        }
        return sum;
    }
}
