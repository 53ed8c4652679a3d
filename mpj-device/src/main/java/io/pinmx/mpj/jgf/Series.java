package io.pinmx.mpj.jgf;

import mpi.Intracomm;
import mpi.MPI;

/**
 * Series: the first N Fourier coefficient pairs of f(x) = (x+1)^x on [0, 2], each an integral by the suite's
 * trapezoid rule; coefficients are shared out in blocks and gathered on rank 0. Valid when the first four pairs
 * match the suite's reference values. Operations: coefficients computed (2N - 1).
 */
final class Series implements Section2Kernel
{
    /** Trapezoid sections of every integral. */
    static final int STEPS = 1000;
    /** The suite's first four pairs (a_n, b_n) for its rule with 1000 sections. */
    static final double[][] REFERENCE = {
        {2.8729524964837996, 0.0},
        {1.1161046676147888, -1.8819691893398025},
        {0.34429060398168704, -1.1645642623320958},
        {0.15238898702519288, -0.8143461113044298}};
    static final double TOLERANCE = 1e-12;
    private static final double LOWER = 0.0;
    private static final double UPPER = 2.0;

    @Override
    public String name()
    {
        return "Series";
    }

    static int coefficients(final JgfSize size)
    {
        return switch (size)
        {
            case A -> 10_000;
            case B -> 100_000;
        };
    }

    @Override
    public Section2Result run(final Intracomm comm, final JgfSize size)
    {
        final int rank = comm.Rank();
        final int n = coefficients(size);
        final BlockShare share = new BlockShare(n, comm.Size(), 1);
        final int first = share.start(rank);
        final int mine = share.length(rank);
        final double[] myA = new double[mine];
        final double[] myB = new double[mine];
        final double[] a = new double[0 == rank ? n : 0];
        final double[] b = new double[0 == rank ? n : 0];

        comm.Barrier();
        final long startNs = System.nanoTime();
        for (int i = 0; i < mine; i++)
        {
            final int term = first + i;
            myA[i] = coefficientA(term);
            myB[i] = coefficientB(term);
        }
        comm.Gatherv(myA, 0, mine, MPI.DOUBLE, a, 0, share.lengths(), share.starts(), MPI.DOUBLE, 0);
        comm.Gatherv(myB, 0, mine, MPI.DOUBLE, b, 0, share.lengths(), share.starts(), MPI.DOUBLE, 0);
        comm.Barrier();
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        return 0 == rank ? new Section2Result(seconds, 2.0 * n - 1, "coefficients", validate(a, b)) : null;
    }

    static double coefficientA(final int term)
    {
        return 0 == term ? integrate(0.0, false) / 2.0 : integrate(Math.PI * term, false);
    }

    static double coefficientB(final int term)
    {
        return 0 == term ? 0.0 : integrate(Math.PI * term, true);
    }

    /**
     * The suite's trapezoid rule over [0, 2] in {@link #STEPS} sections: both ends halved, interior points 1 to
     * STEPS - 2 (the suite's rule leaves out the last interior point, and its reference values depend on that).
     */
    static double integrate(final double omegaN, final boolean sine)
    {
        final double dx = (UPPER - LOWER) / STEPS;
        double sum = f(LOWER, omegaN, sine) / 2.0;
        double x = LOWER;
        for (int k = 1; k <= STEPS - 2; k++)
        {
            x += dx;
            sum += f(x, omegaN, sine);
        }
        return (sum + f(UPPER, omegaN, sine) / 2.0) * dx;
    }

    private static double f(final double x, final double omegaN, final boolean sine)
    {
        final double base = Math.pow(x + 1.0, x);
        if (0.0 == omegaN)
        {
            return base;
        }
        return base * (sine ? Math.sin(omegaN * x) : Math.cos(omegaN * x));
    }

    /**
     * @return null when the first four pairs are within {@link #TOLERANCE} of the suite's, else the first that is not.
     */
    static String validate(final double[] a, final double[] b)
    {
        for (int i = 0; i < REFERENCE.length; i++)
        {
            if (Math.abs(a[i] - REFERENCE[i][0]) > TOLERANCE || Math.abs(b[i] - REFERENCE[i][1]) > TOLERANCE)
            {
                return "coefficient pair " + i + " is (" + a[i] + ", " + b[i] + "), the reference (" + REFERENCE[i][0] +
                    ", " + REFERENCE[i][1] + ")";
            }
        }
        return null;
    }
}
