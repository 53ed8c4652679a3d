package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Status;

/**
 * MPI.Init again after MPI.Finalize in one JVM, three times. In every round but the last, each rank other than 0
 * leaves a message to rank 0 that nobody receives; the next round's wildcard receives must get only that round's
 * messages. Prints "Reinit OK".
 */
public final class Reinit
{
    private static final int ROUNDS = 3;

    public static void main(final String[] args) throws Exception
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            MPI.Init(args);
            final int me = MPI.COMM_WORLD.Rank();
            final int n = MPI.COMM_WORLD.Size();
            if (0 == me)
            {
                for (int k = 1; k < n; k++)
                {
                    final int[] in = new int[2];
                    final Status s = MPI.COMM_WORLD.Recv(in, 0, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    Check.equal(round, in[0], "round of the message from rank " + s.source);
                    Check.equal(s.source, in[1], "sender in the message");
                }
            }
            else
            {
                MPI.COMM_WORLD.Send(new int[]{round, me}, 0, 2, MPI.INT, 0, 5);
            }
            MPI.COMM_WORLD.Barrier();
            if (0 != me && round < ROUNDS - 1)
            {
                MPI.COMM_WORLD.Isend(new int[]{-1, me}, 0, 2, MPI.INT, 0, 5);
            }
            MPI.Finalize();
        }
        System.out.println("Reinit OK");
    }
}
