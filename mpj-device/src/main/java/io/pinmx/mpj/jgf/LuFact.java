package io.pinmx.mpj.jgf;

import mpi.Intracomm;
import mpi.MPI;

/**
 * LUFact: LU factorisation with partial pivoting of LINPACK's generated N x N system, columns dealt cyclically to
 * the ranks; for each column its owner picks the pivot and computes the multipliers, a broadcast carries them, every
 * rank updates its own later columns. The factors are gathered on rank 0, which solves the system; all of it is
 * timed. Valid when LINPACK's normalised residual is within the suite's bound for the size. Operations: Mflop
 * (2n^3/3 + 2n^2).
 */
final class LuFact implements Section2Kernel
{
    @Override
    public String name()
    {
        return "LUFact";
    }

    static int order(final JgfSize size)
    {
        return switch (size)
        {
            case A -> 500;
            case B -> 1000;
        };
    }

    static double residualBound(final JgfSize size)
    {
        return switch (size)
        {
            case A -> 6.0;
            case B -> 12.0;
        };
    }

    @Override
    public Section2Result run(final Intracomm comm, final JgfSize size)
    {
        final int n = order(size);
        final int rank = comm.Rank();
        final int ranks = comm.Size();
        final double[][] whole = Linpack.matrix(n);
        final double[] b = Linpack.rightHandSide(whole);
        final int mine = (n - rank + ranks - 1) / ranks;
        final double[][] columns = new double[mine][];
        for (int c = 0; c < mine; c++)
        {
            columns[c] = whole[rank + c * ranks];
        }
        final int[] pivots = new int[n];

        comm.Barrier();
        final long startNs = System.nanoTime();
        factor(comm, columns, n, pivots);
        final double[][] factors = gather(comm, columns, n);
        if (0 == rank)
        {
            Linpack.solve(factors, pivots, b);
        }
        comm.Barrier();
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        if (0 != rank)
        {
            return null;
        }
        final double megaflops = (2.0 * n * n * n / 3.0 + 2.0 * n * n) / 1e6;
        return new Section2Result(seconds, megaflops, "Mflop", validate(Linpack.normalisedResidual(b), size));
    }

    /** LINPACK's dgefa over cyclically dealt columns: column k lives on rank k % ranks at index k / ranks. */
    static void factor(final Intracomm comm, final double[][] columns, final int n, final int[] pivots)
    {
        final int rank = comm.Rank();
        final int ranks = comm.Size();
        // Entry 0: the pivot row; entries 1..: the multipliers for rows k + 1 .. n - 1.
        final double[] step = new double[n];
        for (int k = 0; k < n - 1; k++)
        {
            final int owner = k % ranks;
            if (owner == rank)
            {
                pivotAndScale(columns[k / ranks], k, n, step);
            }
            comm.Bcast(step, 0, n - k, MPI.DOUBLE, owner);
            final int l = (int)step[0];
            pivots[k] = l;
            for (int c = firstAfter(k, rank, ranks); c < columns.length; c++)
            {
                eliminate(columns[c], k, l, n, step);
            }
        }
        pivots[n - 1] = n - 1;
    }

    private static void pivotAndScale(final double[] column, final int k, final int n, final double[] step)
    {
        int l = k;
        for (int i = k + 1; i < n; i++)
        {
            if (Math.abs(column[i]) > Math.abs(column[l]))
            {
                l = i;
            }
        }
        if (0.0 == column[l])
        {
            throw new ArithmeticException("LUFact: column " + k + " has no non-zero pivot");
        }
        final double pivot = column[l];
        column[l] = column[k];
        column[k] = pivot;
        final double t = -1.0 / pivot;
        step[0] = l;
        for (int i = k + 1; i < n; i++)
        {
            column[i] *= t;
            step[i - k] = column[i];
        }
    }

    private static void eliminate(final double[] column, final int k, final int l, final int n, final double[] step)
    {
        final double t = column[l];
        if (l != k)
        {
            column[l] = column[k];
            column[k] = t;
        }
        for (int i = k + 1; i < n; i++)
        {
            column[i] += t * step[i - k];
        }
    }

    /** This rank's first column index (in its own list) whose global column is after k. */
    private static int firstAfter(final int k, final int rank, final int ranks)
    {
        return k + 1 <= rank ? 0 : (k + 1 - rank + ranks - 1) / ranks;
    }

    private static double[][] gather(final Intracomm comm, final double[][] columns, final int n)
    {
        final int ranks = comm.Size();
        final double[] packed = new double[columns.length * n];
        for (int c = 0; c < columns.length; c++)
        {
            System.arraycopy(columns[c], 0, packed, c * n, n);
        }
        final int[] counts = new int[ranks];
        final int[] starts = new int[ranks];
        for (int r = 0, at = 0; r < ranks; r++)
        {
            counts[r] = (n - r + ranks - 1) / ranks * n;
            starts[r] = at;
            at += counts[r];
        }
        final double[] all = new double[0 == comm.Rank() ? n * n : 0];
        comm.Gatherv(packed, 0, packed.length, MPI.DOUBLE, all, 0, counts, starts, MPI.DOUBLE, 0);
        if (0 != comm.Rank())
        {
            return null;
        }
        final double[][] factors = new double[n][n];
        for (int j = 0; j < n; j++)
        {
            System.arraycopy(all, starts[j % ranks] + j / ranks * n, factors[j], 0, n);
        }
        return factors;
    }

    static String validate(final double normalisedResidual, final JgfSize size)
    {
        return normalisedResidual > residualBound(size) ? "normalised residual " + normalisedResidual +
            " is above the bound " + residualBound(size) : null;
    }
}
