package io.pinmx.mpj.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.User_function;

/**
 * The collectives Collectives leaves out, each checked element by element: Scan (SUM, and a user-defined
 * op), Reduce_scatter (2 ranks: MPJ 0.44 gets it wrong on 4, on niodev too), Allgatherv, Gatherv and Scatterv with uneven counts
 * and displacements from every root (small and past the rendezvous threshold), Bcast of a Vector datatype, and
 * Allreduce with MAX/MIN/PROD. Prints "MoreCollectives OK" on every rank.
 */
public final class MoreCollectives
{
    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        scan(me);
        if (2 == n)
        {
            reduceScatter(me, n);
        }
        for (final int unit : new int[] {3, 9000})
        {
            allgatherv(me, n, unit);
            for (int root = 0; root < n; root++)
            {
                gathervScatterv(me, n, root, unit);
            }
        }
        bcastVector(me, n);
        reductions(me, n);
        MPI.COMM_WORLD.Barrier();
        System.out.println("MoreCollectives OK");
        MPI.Finalize();
    }

    private static void scan(final int me)
    {
        final int[] in = {me + 1, 2 * me, 7};
        final int[] out = new int[3];
        MPI.COMM_WORLD.Scan(in, 0, out, 0, 3, MPI.INT, MPI.SUM);
        Check.equal((long)(me + 1) * (me + 2) / 2, out[0], "scan sum [0]");
        Check.equal((long)me * (me + 1), out[1], "scan sum [1]");
        Check.equal(7L * (me + 1), out[2], "scan sum [2]");
        // A user op that keeps the larger value: its scan is the running maximum.
        final Op keepMax = new Op(new User_function()
        {
            @Override
            public void Call(final Object inVec, final int inOffset, final Object inOutVec, final int inOutOffset,
                final int count, final Datatype type)
            {
                final long[] a = (long[])inVec;
                final long[] b = (long[])inOutVec;
                for (int i = 0; i < count; i++)
                {
                    b[inOutOffset + i] = Math.max(a[inOffset + i], b[inOutOffset + i]);
                }
            }
        }, true);
        final long[] value = {(me * 37L) % 5};
        final long[] running = new long[1];
        MPI.COMM_WORLD.Scan(value, 0, running, 0, 1, MPI.LONG, keepMax);
        long expected = 0;
        for (int r = 0; r <= me; r++)
        {
            expected = Math.max(expected, (r * 37L) % 5);
        }
        Check.equal(expected, running[0], "scan user op");
    }

    /**
     * Every rank gets 2 elements, each the sum over ranks of (rank * 1000 + index). Run on 2 ranks only: on 4 ranks
     * MPJ 0.44's Reduce_scatter itself returns wrong sums (rank 0 3000 for 6000, rank 2 11016 for 6016), the same on
     * niodev, with equal and with uneven counts.
     */
    private static void reduceScatter(final int me, final int n)
    {
        final int per = 2;
        final int[] counts = new int[n];
        java.util.Arrays.fill(counts, per);
        final int total = per * n;
        final int[] in = new int[total];
        for (int i = 0; i < total; i++)
        {
            in[i] = me * 1000 + i;
        }
        final int[] out = new int[per];
        MPI.COMM_WORLD.Reduce_scatter(in, 0, out, 0, counts, MPI.INT, MPI.SUM);
        final int first = me * per;
        final int rankSum = n * (n - 1) / 2;
        for (int i = 0; i < per; i++)
        {
            Check.equal(rankSum * 1000L + (long)n * (first + i), out[i], "reduce_scatter [" + i + "]");
        }
    }

    private static int count(final int rank, final int unit)
    {
        return unit * (rank + 1);
    }

    private static void allgatherv(final int me, final int n, final int unit)
    {
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        int at = 1;
        for (int r = 0; r < n; r++)
        {
            counts[r] = count(r, unit);
            displs[r] = at;
            at += counts[r] + 2;
        }
        final double[] mine = new double[count(me, unit)];
        for (int i = 0; i < mine.length; i++)
        {
            mine[i] = me + i / 1e6;
        }
        final double[] all = new double[at];
        java.util.Arrays.fill(all, -1);
        MPI.COMM_WORLD.Allgatherv(mine, 0, mine.length, MPI.DOUBLE, all, 0, counts, displs, MPI.DOUBLE);
        checkLayout(all, counts, displs, n, "allgatherv unit " + unit);
    }

    private static void checkLayout(final double[] all, final int[] counts, final int[] displs, final int n,
        final String what)
    {
        Check.that(all[0] == -1, what + ": slot before the first block written");
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < counts[r]; i++)
            {
                Check.that(all[displs[r] + i] == r + i / 1e6, what + ": rank " + r + " element " + i);
            }
            Check.that(all[displs[r] + counts[r]] == -1, what + ": gap after rank " + r + " written");
        }
    }

    private static void gathervScatterv(final int me, final int n, final int root, final int unit)
    {
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        int at = 1;
        // Blocks in reverse rank order in the root's buffer: displacements need not grow with rank.
        for (int r = n - 1; r >= 0; r--)
        {
            counts[r] = count(r, unit);
            displs[r] = at;
            at += counts[r] + 1;
        }
        final double[] mine = new double[count(me, unit)];
        for (int i = 0; i < mine.length; i++)
        {
            mine[i] = me + i / 1e6;
        }
        final double[] all = new double[at];
        java.util.Arrays.fill(all, -1);
        MPI.COMM_WORLD.Gatherv(mine, 0, mine.length, MPI.DOUBLE, all, 0, counts, displs, MPI.DOUBLE, root);
        if (me == root)
        {
            checkLayout(all, counts, displs, n, "gatherv root " + root + " unit " + unit);
        }
        final double[] back = new double[count(me, unit) + 1];
        back[back.length - 1] = -5;
        MPI.COMM_WORLD.Scatterv(all, 0, counts, displs, MPI.DOUBLE, back, 0, count(me, unit), MPI.DOUBLE, root);
        for (int i = 0; i < count(me, unit); i++)
        {
            Check.that(back[i] == me + i / 1e6, "scatterv root " + root + " unit " + unit + " element " + i);
        }
        Check.that(back[back.length - 1] == -5, "scatterv root " + root + ": wrote past its count");
    }

    /** The root's every third int, in a Vector datatype, lands in the same places on every rank. */
    private static void bcastVector(final int me, final int n)
    {
        final Datatype every3 = Datatype.Vector(50, 1, 3, MPI.INT);
        every3.Commit();
        final int root = n - 1;
        final int[] buf = new int[148];
        for (int i = 0; i < buf.length; i++)
        {
            buf[i] = me == root ? 10_000 + i : -1;
        }
        MPI.COMM_WORLD.Bcast(buf, 0, 1, every3, root);
        for (int i = 0; i < buf.length; i++)
        {
            Check.equal(me == root || 0 == i % 3 ? 10_000 + i : -1, buf[i], "bcast vector [" + i + "]");
        }
    }

    private static void reductions(final int me, final int n)
    {
        final long[] in = {me - 2, me * me, me + 1};
        final long[] max = new long[3];
        final long[] min = new long[3];
        final long[] prod = new long[3];
        MPI.COMM_WORLD.Allreduce(in, 0, max, 0, 3, MPI.LONG, MPI.MAX);
        MPI.COMM_WORLD.Allreduce(in, 0, min, 0, 3, MPI.LONG, MPI.MIN);
        MPI.COMM_WORLD.Allreduce(in, 0, prod, 0, 3, MPI.LONG, MPI.PROD);
        Check.equal(n - 3, max[0], "allreduce max");
        Check.equal(-2, min[0], "allreduce min");
        Check.equal((long)(n - 1) * (n - 1), max[1], "allreduce max of squares");
        long factorial = 1;
        for (int r = 1; r <= n; r++)
        {
            factorial *= r;
        }
        Check.equal(factorial, prod[2], "allreduce prod");
    }
}
