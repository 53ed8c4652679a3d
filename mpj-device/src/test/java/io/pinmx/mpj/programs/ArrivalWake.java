package io.pinmx.mpj.programs;

import mpi.MPI;

import java.util.Random;

/**
 * Whether every blocking receive ends when its message arrives: NPB IS's pattern of a computation of varying
 * length on each rank, then an Allreduce of 1029 ints and an Alltoall of one int, for the number of iterations
 * given as the first argument. A receive the device moves on while its waiter is about to block on it (the message
 * arrived in between) must not leave that waiter blocked on a request that is over. Each rank fails unless its
 * slowest Allreduce and Alltoall took less than the milliseconds given as the second argument; both ranks print
 * "ArrivalWake OK".
 */
public final class ArrivalWake
{
    private static final int BUCKETS = 1029;
    private static final long MAX_COMPUTE_NS = 2_000_000;

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int iterations = Integer.parseInt(appArgs[appArgs.length - 2]);
        final long limitMs = Long.parseLong(appArgs[appArgs.length - 1]);
        final int me = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final Random random = new Random(me);
        final int[] counts = new int[BUCKETS];
        final int[] totals = new int[BUCKETS];
        final int[] sendCounts = new int[size];
        final int[] receivedCounts = new int[size];
        long slowestNs = 0;
        for (int i = 0; i < iterations; i++)
        {
            Computation.busyFor((long)(random.nextDouble() * MAX_COMPUTE_NS));
            counts[0] = i + me;
            sendCounts[(me + 1) % size] = i;
            final long startNs = System.nanoTime();
            MPI.COMM_WORLD.Allreduce(counts, 0, totals, 0, BUCKETS, MPI.INT, MPI.SUM);
            MPI.COMM_WORLD.Alltoall(sendCounts, 0, 1, MPI.INT, receivedCounts, 0, 1, MPI.INT);
            slowestNs = Math.max(slowestNs, System.nanoTime() - startNs);
            Check.equal(size * i + size * (size - 1) / 2, totals[0], "Allreduce sum in iteration " + i);
            Check.equal(i, receivedCounts[(me + size - 1) % size], "Alltoall value in iteration " + i);
        }
        System.err.println("ArrivalWake: rank " + me + " slowest Allreduce and Alltoall " + slowestNs / 1_000_000 +
            " ms");
        Check.that(slowestNs / 1_000_000 < limitMs, "rank " + me + ": an Allreduce and Alltoall took " +
            slowestNs / 1_000_000 + " ms, limit " + limitMs + " ms: a receive did not end when its message arrived");
        MPI.COMM_WORLD.Barrier();
        System.out.println("ArrivalWake OK");
        MPI.Finalize();
    }
}
