package io.pinmx.mpj.jgf;

import mpi.Intracomm;
import mpi.MPI;

import java.util.Random;

/**
 * SOR: red-black successive over-relaxation (omega 1.25, 100 iterations of two half-sweeps, the points with an even
 * row + column sum first) on the suite's seeded N x N grid with fixed edges. Rows are shared out in blocks; after
 * each half-sweep neighbours swap their edge rows; the grid is gathered on rank 0 inside the timed part. Valid when
 * the sum of the interior points matches the suite's reference for the size. Operations: iterations.
 */
final class Sor implements Section2Kernel
{
    static final int ITERATIONS = 100;
    static final double OMEGA = 1.25;
    static final double TOLERANCE = 1e-12;
    private static final long SEED = 10101010L;
    private static final double SCALE = 1e-6;
    private static final int TO_PREVIOUS = 1;
    private static final int TO_NEXT = 2;

    @Override
    public String name()
    {
        return "SOR";
    }

    static int points(final JgfSize size)
    {
        return switch (size)
        {
            case A -> 1000;
            case B -> 1500;
        };
    }

    static double reference(final JgfSize size)
    {
        return switch (size)
        {
            case A -> 0.498574406322512;
            case B -> 1.1234778980135105;
        };
    }

    @Override
    public Section2Result run(final Intracomm comm, final JgfSize size)
    {
        final int n = points(size);
        final int rank = comm.Rank();
        final int ranks = comm.Size();
        final BlockShare share = new BlockShare(n, ranks, 1);
        if (share.length(ranks - 1) < 1)
        {
            throw new IllegalArgumentException("SOR needs at least one row of its " + n + " per rank, got " + ranks +
                " ranks");
        }
        final int firstRow = share.start(rank);
        final int rows = share.length(rank);
        // Local rows 1..rows hold global rows firstRow..; local rows 0 and rows + 1 are the neighbours' edges.
        final double[] grid = new double[(rows + 2) * n];
        final double[] whole = seededGrid(n);
        final int fromRow = Math.max(0, firstRow - 1);
        final int toRow = Math.min(n, firstRow + rows + 1);
        System.arraycopy(whole, fromRow * n, grid, (fromRow - firstRow + 1) * n, (toRow - fromRow) * n);
        final double[] gathered = new double[0 == rank ? n * n : 0];

        comm.Barrier();
        final long startNs = System.nanoTime();
        for (int halfSweep = 0; halfSweep < 2 * ITERATIONS; halfSweep++)
        {
            relax(grid, n, firstRow, rows, halfSweep % 2);
            swapEdges(comm, grid, n, rows);
        }
        comm.Gatherv(grid, n, rows * n, MPI.DOUBLE, gathered, 0, scaled(share.lengths(), n), scaled(share.starts(), n),
            MPI.DOUBLE, 0);
        comm.Barrier();
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        return 0 == rank ? new Section2Result(seconds, ITERATIONS, "iterations", validate(interiorSum(gathered, n), size)) :
            null;
    }

    /** The suite's grid: row by row from its seeded generator, scaled to at most 1e-6. */
    static double[] seededGrid(final int n)
    {
        final Random random = new Random(SEED);
        final double[] grid = new double[n * n];
        for (int i = 0; i < grid.length; i++)
        {
            grid[i] = random.nextDouble() * SCALE;
        }
        return grid;
    }

    /** Updates the points of one colour (row + column parity) in this rank's interior rows. */
    static void relax(final double[] grid, final int n, final int firstRow, final int rows, final int colour)
    {
        final double quarterOmega = OMEGA * 0.25;
        final double keep = 1.0 - OMEGA;
        for (int local = 1; local <= rows; local++)
        {
            final int row = firstRow + local - 1;
            if (0 == row || n - 1 == row)
            {
                continue;
            }
            final int at = local * n;
            for (int j = 1 + ((row + 1 + colour) & 1); j < n - 1; j += 2)
            {
                grid[at + j] = quarterOmega * (grid[at - n + j] + grid[at + n + j] + grid[at + j - 1] + grid[at + j + 1]) +
                    keep * grid[at + j];
            }
        }
    }

    private static void swapEdges(final Intracomm comm, final double[] grid, final int n, final int rows)
    {
        final int rank = comm.Rank();
        if (rank + 1 < comm.Size())
        {
            comm.Sendrecv(grid, rows * n, n, MPI.DOUBLE, rank + 1, TO_NEXT, grid, (rows + 1) * n, n, MPI.DOUBLE, rank + 1,
                TO_PREVIOUS);
        }
        if (rank > 0)
        {
            comm.Sendrecv(grid, n, n, MPI.DOUBLE, rank - 1, TO_PREVIOUS, grid, 0, n, MPI.DOUBLE, rank - 1, TO_NEXT);
        }
    }

    static double interiorSum(final double[] grid, final int n)
    {
        double sum = 0.0;
        for (int i = 1; i < n - 1; i++)
        {
            for (int j = 1; j < n - 1; j++)
            {
                sum += grid[i * n + j];
            }
        }
        return sum;
    }

    static String validate(final double interiorSum, final JgfSize size)
    {
        final double deviation = Math.abs(interiorSum - reference(size));
        return deviation > TOLERANCE ? "interior sum " + interiorSum + " differs from the reference " + reference(size) +
            " by " + deviation : null;
    }

    private static int[] scaled(final int[] rows, final int n)
    {
        final int[] elements = new int[rows.length];
        for (int i = 0; i < rows.length; i++)
        {
            elements[i] = rows[i] * n;
        }
        return elements;
    }
}
