package io.pinmx.mpj.jgf;

/**
 * The serial parts of LUFact, on column-major matrices ({@code a[j]} is column j): LINPACK's generated system whose
 * solution is all ones, the triangular solves with the pivots of a factorisation, and LINPACK's normalised residual.
 */
final class Linpack
{
    private static final int SEED = 1325;
    private static final int MULTIPLIER = 3125;
    private static final int MODULUS = 65536;
    private static final double OFFSET = 32768.0;
    private static final double SCALE = 16384.0;

    private Linpack()
    {
    }

    /** LINPACK's generator: entries in [-2, 2) from a linear congruence, column by column. */
    static double[][] matrix(final int n)
    {
        final double[][] a = new double[n][n];
        int state = SEED;
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                state = MULTIPLIER * state % MODULUS;
                a[j][i] = (state - OFFSET) / SCALE;
            }
        }
        return a;
    }

    /** The right-hand side whose solution is all ones: each row's sum. */
    static double[] rightHandSide(final double[][] a)
    {
        final int n = a.length;
        final double[] b = new double[n];
        for (final double[] column : a)
        {
            for (int i = 0; i < n; i++)
            {
                b[i] += column[i];
            }
        }
        return b;
    }

    /**
     * Solves in place with the factors {@code a} (multipliers below the diagonal, negated as LINPACK stores them) and
     * pivot rows {@code pivots}; {@code b} becomes the solution.
     */
    static void solve(final double[][] a, final int[] pivots, final double[] b)
    {
        final int n = a.length;
        for (int k = 0; k < n - 1; k++)
        {
            final int l = pivots[k];
            final double t = b[l];
            if (l != k)
            {
                b[l] = b[k];
                b[k] = t;
            }
            final double[] column = a[k];
            for (int i = k + 1; i < n; i++)
            {
                b[i] += t * column[i];
            }
        }
        for (int k = n - 1; k >= 0; k--)
        {
            final double[] column = a[k];
            b[k] /= column[k];
            final double t = -b[k];
            for (int i = 0; i < k; i++)
            {
                b[i] += t * column[i];
            }
        }
    }

    /** LINPACK's check: |A x - b| / (n |A| |x| eps), maximum norms, for the generated system of order n. */
    static double normalisedResidual(final double[] x)
    {
        final int n = x.length;
        final double[][] a = matrix(n);
        final double[] b = rightHandSide(a);
        double norma = 0.0;
        final double[] ax = new double[n];
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                ax[i] += a[j][i] * x[j];
                norma = Math.max(norma, a[j][i]);
            }
        }
        double residual = 0.0;
        double normx = 0.0;
        for (int i = 0; i < n; i++)
        {
            residual = Math.max(residual, Math.abs(ax[i] - b[i]));
            normx = Math.max(normx, Math.abs(x[i]));
        }
        return residual / (n * norma * normx * Math.ulp(1.0));
    }
}
