package io.pinmx.rma;

/**
 * The {@link CostModel.Scatter} through a passive peer's scattered puts of several shapes (k pieces of N bytes in
 * all, each timed): the start-up, per-byte and per-piece costs that minimise the squared relative error over the
 * probes, none negative. Relative, not absolute, error: the probes span three orders of magnitude, and an absolute fit
 * would fit the largest and leave the small ones, where the per-piece cost shows, far off. With three unknowns the
 * non-negative fit is the best of the seven fits over each subset of them (the others held at 0) whose solution is
 * non-negative.
 */
final class ScatterFit
{
    private static final int TERMS = 3;

    private ScatterFit()
    {
    }

    /**
     * @param pieces     each probe's pieces (k).
     * @param totalBytes each probe's bytes in all (N).
     * @param ns         each probe's time.
     * @throws IllegalArgumentException if the arrays differ in length, hold fewer than three probes, or a time is not
     *                                  positive.
     */
    static CostModel.Scatter fit(final long[] pieces, final long[] totalBytes, final double[] ns)
    {
        if (pieces.length != totalBytes.length || pieces.length != ns.length || pieces.length < TERMS)
        {
            throw new IllegalArgumentException("scatter fit: " + pieces.length + " piece counts, " +
                totalBytes.length + " sizes and " + ns.length + " times (at least " + TERMS + " of each)");
        }
        for (int i = 0; i < ns.length; i++)
        {
            if (!(ns[i] > 0))
            {
                throw new IllegalArgumentException("scatter fit: probe " + i + " took " + ns[i] + " ns");
            }
        }
        double[] best = new double[TERMS];
        double bestError = Double.POSITIVE_INFINITY;
        for (int free = 1; free < 1 << TERMS; free++)
        {
            final double[] solution = solve(free, pieces, totalBytes, ns);
            if (null != solution)
            {
                final double error = error(solution, pieces, totalBytes, ns);
                if (error < bestError)
                {
                    bestError = error;
                    best = solution;
                }
            }
        }
        return new CostModel.Scatter(best[0], best[1], best[2]);
    }

    /** Term j of probe i divided by its time: the relative fit's design matrix. */
    private static double term(final int j, final int i, final long[] pieces, final long[] totalBytes,
        final double[] ns)
    {
        final double value = switch (j)
        {
            case 0 -> 1;
            case 1 -> totalBytes[i];
            default -> pieces[i];
        };
        return value / ns[i];
    }

    /**
     * @return the least-squares solution over the terms set in {@code free} (the others 0), or null if it is singular
     *         or has a negative term.
     */
    private static double[] solve(final int free, final long[] pieces, final long[] totalBytes, final double[] ns)
    {
        final int[] terms = new int[Integer.bitCount(free)];
        for (int j = 0, n = 0; j < TERMS; j++)
        {
            if (0 != (free & (1 << j)))
            {
                terms[n++] = j;
            }
        }
        final int n = terms.length;
        final double[][] a = new double[n][n + 1];
        for (int i = 0; i < ns.length; i++)
        {
            for (int r = 0; r < n; r++)
            {
                final double tr = term(terms[r], i, pieces, totalBytes, ns);
                for (int c = 0; c < n; c++)
                {
                    a[r][c] += tr * term(terms[c], i, pieces, totalBytes, ns);
                }
                a[r][n] += tr;
            }
        }
        final double[] x = gauss(a);
        if (null == x)
        {
            return null;
        }
        final double[] solution = new double[TERMS];
        for (int r = 0; r < n; r++)
        {
            if (x[r] < 0)
            {
                return null;
            }
            solution[terms[r]] = x[r];
        }
        return solution;
    }

    /** Gaussian elimination with partial pivoting of an n x (n + 1) system; null if singular. */
    private static double[] gauss(final double[][] a)
    {
        final int n = a.length;
        for (int c = 0; c < n; c++)
        {
            int pivot = c;
            for (int r = c + 1; r < n; r++)
            {
                if (Math.abs(a[r][c]) > Math.abs(a[pivot][c]))
                {
                    pivot = r;
                }
            }
            if (Math.abs(a[pivot][c]) < 1e-300)
            {
                return null;
            }
            final double[] swap = a[c];
            a[c] = a[pivot];
            a[pivot] = swap;
            for (int r = c + 1; r < n; r++)
            {
                final double f = a[r][c] / a[c][c];
                for (int k = c; k <= n; k++)
                {
                    a[r][k] -= f * a[c][k];
                }
            }
        }
        final double[] x = new double[n];
        for (int r = n - 1; r >= 0; r--)
        {
            double sum = a[r][n];
            for (int k = r + 1; k < n; k++)
            {
                sum -= a[r][k] * x[k];
            }
            x[r] = sum / a[r][r];
        }
        return x;
    }

    private static double error(final double[] s, final long[] pieces, final long[] totalBytes, final double[] ns)
    {
        double sum = 0;
        for (int i = 0; i < ns.length; i++)
        {
            final double relative = (s[0] + s[1] * totalBytes[i] + s[2] * pieces[i]) / ns[i] - 1;
            sum += relative * relative;
        }
        return sum;
    }
}
