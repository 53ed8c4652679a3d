package io.pinmx.mpj.jgf;

import mpi.Intracomm;
import mpi.MPI;

import java.util.Random;

/**
 * SparseMatmult: y = A x repeated 200 times for the suite's seeded unstructured sparse matrix in coordinate form.
 * The non-zeros are shared out in blocks; each rank accumulates its products into a full-length partial y and an
 * all-reduce sums the partials after every repetition. Valid when the sum of y over every non-zero's row matches
 * the suite's reference for the size. Operations: repetitions.
 */
final class SparseMatmult implements Section2Kernel
{
    static final int REPETITIONS = 200;
    /** The reference sums carry the rounding of one summation order; partial sums per rank differ in the last bits. */
    static final double RELATIVE_TOLERANCE = 1e-12;
    private static final long SEED = 10101010L;
    private static final double X_SCALE = 1e-6;

    /** The suite's matrix of one size: rows = columns = {@code n}, {@code nonZeros} entries. */
    record Matrix(int n, double[] x, int[] row, int[] column, double[] value)
    {
    }

    @Override
    public String name()
    {
        return "SparseMatmult";
    }

    static int order(final JgfSize size)
    {
        return switch (size)
        {
            case A -> 50_000;
            case B -> 100_000;
        };
    }

    static int nonZeros(final JgfSize size)
    {
        return 5 * order(size);
    }

    static double reference(final JgfSize size)
    {
        return switch (size)
        {
            case A -> 75.02484945753453;
            case B -> 150.0130719633895;
        };
    }

    @Override
    public Section2Result run(final Intracomm comm, final JgfSize size)
    {
        final int rank = comm.Rank();
        final Matrix matrix = seededMatrix(order(size), nonZeros(size));
        final BlockShare share = new BlockShare(matrix.value().length, comm.Size(), 1);
        final int first = share.start(rank);
        final int end = first + share.length(rank);
        final double[] partial = new double[matrix.n()];
        final double[] y = new double[matrix.n()];

        comm.Barrier();
        final long startNs = System.nanoTime();
        for (int repetition = 0; repetition < REPETITIONS; repetition++)
        {
            multiplyAdd(matrix, first, end, partial);
            comm.Allreduce(partial, 0, y, 0, y.length, MPI.DOUBLE, MPI.SUM);
        }
        comm.Barrier();
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        return 0 == rank ? new Section2Result(seconds, REPETITIONS, "iterations", validate(rowSum(matrix, y), size)) : null;
    }

    /** The suite's matrix: x first, then each non-zero's row, column and value, from one seeded generator. */
    static Matrix seededMatrix(final int n, final int nonZeros)
    {
        final Random random = new Random(SEED);
        final double[] x = new double[n];
        for (int i = 0; i < n; i++)
        {
            x[i] = random.nextDouble() * X_SCALE;
        }
        final int[] row = new int[nonZeros];
        final int[] column = new int[nonZeros];
        final double[] value = new double[nonZeros];
        for (int i = 0; i < nonZeros; i++)
        {
            row[i] = Math.abs(random.nextInt()) % n;
            column[i] = Math.abs(random.nextInt()) % n;
            value[i] = random.nextDouble();
        }
        return new Matrix(n, x, row, column, value);
    }

    static void multiplyAdd(final Matrix matrix, final int first, final int end, final double[] y)
    {
        final int[] row = matrix.row();
        final int[] column = matrix.column();
        final double[] value = matrix.value();
        final double[] x = matrix.x();
        for (int i = first; i < end; i++)
        {
            y[row[i]] += x[column[i]] * value[i];
        }
    }

    /** The suite's check value: y summed over every non-zero's row, in the non-zeros' order. */
    static double rowSum(final Matrix matrix, final double[] y)
    {
        double sum = 0.0;
        for (final int r : matrix.row())
        {
            sum += y[r];
        }
        return sum;
    }

    static String validate(final double rowSum, final JgfSize size)
    {
        final double deviation = Math.abs(rowSum - reference(size));
        return deviation > RELATIVE_TOLERANCE * reference(size) ? "row sum " + rowSum + " differs from the reference " +
            reference(size) + " by " + deviation : null;
    }
}
