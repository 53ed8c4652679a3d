package io.pinmx.mpj.programs;

import mpi.MPI;

/**
 * The collectives MPJ Express builds on the device: barrier, bcast, reduce, allreduce, gather, scatter, allgather,
 * alltoall and alltoallv, from every root, with small and large (rendezvous) payloads. Prints "Collectives OK".
 */
public final class Collectives
{
    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        for (int i = 0; i < 5; i++)
        {
            MPI.COMM_WORLD.Barrier();
        }
        for (final int count : new int[]{1, 20_000})
        {
            for (int root = 0; root < n; root++)
            {
                bcast(me, root, count);
                reduce(me, n, root, count);
                gatherScatter(me, n, root, count);
            }
            allreduce(me, n, count);
            alltoall(me, n, count);
        }
        alltoallv(me, n);
        System.out.println("Collectives OK");
        MPI.Finalize();
    }

    private static void bcast(final int me, final int root, final int count)
    {
        final long[] data = new long[count];
        if (me == root)
        {
            for (int i = 0; i < count; i++)
            {
                data[i] = root * 1_000_000L + i;
            }
        }
        MPI.COMM_WORLD.Bcast(data, 0, count, MPI.LONG, root);
        for (int i = 0; i < count; i++)
        {
            Check.equal(root * 1_000_000L + i, data[i], "bcast from " + root + " at " + i);
        }
    }

    private static void reduce(final int me, final int n, final int root, final int count)
    {
        final int[] in = new int[count];
        final int[] sum = new int[count];
        final double[] din = new double[count];
        final double[] max = new double[count];
        for (int i = 0; i < count; i++)
        {
            in[i] = me + i;
            din[i] = me * 0.5 + i;
        }
        MPI.COMM_WORLD.Reduce(in, 0, sum, 0, count, MPI.INT, MPI.SUM, root);
        MPI.COMM_WORLD.Reduce(din, 0, max, 0, count, MPI.DOUBLE, MPI.MAX, root);
        if (me == root)
        {
            for (int i = 0; i < count; i++)
            {
                Check.equal(n * (n - 1) / 2 + (long)n * i, sum[i], "reduce SUM to " + root + " at " + i);
                Check.that((n - 1) * 0.5 + i == max[i], "reduce MAX to " + root + " at " + i + ": " + max[i]);
            }
        }
    }

    private static void allreduce(final int me, final int n, final int count)
    {
        final long[] in = new long[count];
        final long[] out = new long[count];
        for (int i = 0; i < count; i++)
        {
            in[i] = (long)me * i;
        }
        MPI.COMM_WORLD.Allreduce(in, 0, out, 0, count, MPI.LONG, MPI.SUM);
        for (int i = 0; i < count; i++)
        {
            Check.equal((long)n * (n - 1) / 2 * i, out[i], "allreduce at " + i);
        }
    }

    private static void gatherScatter(final int me, final int n, final int root, final int count)
    {
        final int[] mine = new int[count];
        for (int i = 0; i < count; i++)
        {
            mine[i] = me * 7 + i;
        }
        final int[] all = new int[count * n];
        MPI.COMM_WORLD.Gather(mine, 0, count, MPI.INT, all, 0, count, MPI.INT, root);
        if (me == root)
        {
            for (int r = 0; r < n; r++)
            {
                for (int i = 0; i < count; i++)
                {
                    Check.equal(r * 7L + i, all[r * count + i], "gather to " + root + " from " + r + " at " + i);
                }
            }
        }
        final int[] toScatter = new int[count * n];
        if (me == root)
        {
            for (int k = 0; k < toScatter.length; k++)
            {
                toScatter[k] = root * 100 + k;
            }
        }
        final int[] part = new int[count];
        MPI.COMM_WORLD.Scatter(toScatter, 0, count, MPI.INT, part, 0, count, MPI.INT, root);
        for (int i = 0; i < count; i++)
        {
            Check.equal(root * 100L + me * count + i, part[i], "scatter from " + root + " to " + me + " at " + i);
        }
        final int[] everyone = new int[count * n];
        MPI.COMM_WORLD.Allgather(mine, 0, count, MPI.INT, everyone, 0, count, MPI.INT);
        for (int r = 0; r < n; r++)
        {
            Check.equal(r * 7L + count - 1, everyone[r * count + count - 1], "allgather from " + r);
        }
    }

    private static void alltoall(final int me, final int n, final int count)
    {
        final int[] out = new int[count * n];
        final int[] in = new int[count * n];
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < count; i++)
            {
                out[r * count + i] = me * 10_000 + r * 100 + i % 100;
            }
        }
        MPI.COMM_WORLD.Alltoall(out, 0, count, MPI.INT, in, 0, count, MPI.INT);
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < count; i++)
            {
                Check.equal(r * 10_000L + me * 100 + i % 100, in[r * count + i], "alltoall from " + r + " at " + i);
            }
        }
    }

    /** Rank r sends (r + d + 1) * 1000 ints to rank d: uneven counts, some past the rendezvous threshold. */
    private static void alltoallv(final int me, final int n)
    {
        final int[] sendCounts = new int[n];
        final int[] sendOffsets = new int[n];
        final int[] recvCounts = new int[n];
        final int[] recvOffsets = new int[n];
        int sendTotal = 0;
        int recvTotal = 0;
        for (int r = 0; r < n; r++)
        {
            sendCounts[r] = (me + r + 1) * 1000;
            sendOffsets[r] = sendTotal;
            sendTotal += sendCounts[r];
            recvCounts[r] = (r + me + 1) * 1000;
            recvOffsets[r] = recvTotal;
            recvTotal += recvCounts[r];
        }
        final int[] out = new int[sendTotal];
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < sendCounts[r]; i++)
            {
                out[sendOffsets[r] + i] = me * 1_000_000 + r * 10_000 + i;
            }
        }
        final int[] in = new int[recvTotal];
        MPI.COMM_WORLD.Alltoallv(out, 0, sendCounts, sendOffsets, MPI.INT, in, 0, recvCounts, recvOffsets, MPI.INT);
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < recvCounts[r]; i++)
            {
                Check.equal(r * 1_000_000L + me * 10_000 + i, in[recvOffsets[r] + i], "alltoallv from " + r + " at " + i);
            }
        }
    }
}
