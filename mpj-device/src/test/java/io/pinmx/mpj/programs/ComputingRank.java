package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Request;

import java.util.Arrays;

/**
 * For the computing-rank test: rank 0 posts 200 small sends, a 4 MiB send and a receive toward rank 1 and waits
 * for them, while rank 1 computes for the milliseconds given (no MPJ call, as a long compute phase or a starved
 * process) and only then receives every message, checks each, and answers. Both print "ComputingRank OK"; a
 * failed check or an MPJ error ends the rank with its message.
 */
public final class ComputingRank
{
    private static final int SMALL = 200;
    private static final int SMALL_INTS = 16;
    private static final int LARGE_BYTES = 4 << 20;

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final long computeMs = Long.parseLong(appArgs[appArgs.length - 1]);
        final int me = MPI.COMM_WORLD.Rank();
        if (2 != MPI.COMM_WORLD.Size())
        {
            throw new IllegalStateException("ComputingRank needs 2 ranks, has " + MPI.COMM_WORLD.Size());
        }
        MPI.COMM_WORLD.Barrier();
        final int[][] small = new int[SMALL][SMALL_INTS];
        final byte[] large = new byte[LARGE_BYTES];
        final int[] answer = new int[1];
        if (0 == me)
        {
            final Request[] requests = new Request[SMALL + 2];
            for (int i = 0; i < SMALL; i++)
            {
                Arrays.fill(small[i], i * 7 + 1);
                requests[i] = MPI.COMM_WORLD.Isend(small[i], 0, SMALL_INTS, MPI.INT, 1, i);
            }
            for (int b = 0; b < LARGE_BYTES; b++)
            {
                large[b] = (byte)(b * 31 + 5);
            }
            requests[SMALL] = MPI.COMM_WORLD.Isend(large, 0, LARGE_BYTES, MPI.BYTE, 1, SMALL);
            requests[SMALL + 1] = MPI.COMM_WORLD.Irecv(answer, 0, 1, MPI.INT, 1, SMALL + 1);
            Request.Waitall(requests);
            check(answer[0] == SMALL + 1, "answer " + answer[0]);
        }
        else
        {
            Computation.busyFor(computeMs * 1_000_000L);
            for (int i = 0; i < SMALL; i++)
            {
                MPI.COMM_WORLD.Recv(small[i], 0, SMALL_INTS, MPI.INT, 0, i);
                for (final int v : small[i])
                {
                    check(v == i * 7 + 1, "small message " + i + " holds " + v);
                }
            }
            MPI.COMM_WORLD.Recv(large, 0, LARGE_BYTES, MPI.BYTE, 0, SMALL);
            for (int b = 0; b < LARGE_BYTES; b++)
            {
                check(large[b] == (byte)(b * 31 + 5), "byte " + b + " of the 4 MiB message");
            }
            answer[0] = SMALL + 1;
            MPI.COMM_WORLD.Send(answer, 0, 1, MPI.INT, 0, SMALL + 1);
        }
        MPI.COMM_WORLD.Barrier();
        System.out.println("ComputingRank OK");
        MPI.Finalize();
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("ComputingRank: " + what);
        }
    }
}
