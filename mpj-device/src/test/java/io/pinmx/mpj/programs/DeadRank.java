package io.pinmx.mpj.programs;

import mpi.MPI;

/**
 * For the killed-rank test: the last rank says it is ready and waits to be killed; rank 0 waits in a receive
 * naming it, rank 1 (when it is not the last) in an ANY_SOURCE receive, the others in a barrier. Each survivor
 * prints the error it got, stays alive (so that no other survivor sees it gone) until its standard input closes,
 * then exits with status 3; finishing normally is a failure (status 4).
 */
public final class DeadRank
{
    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int last = MPI.COMM_WORLD.Size() - 1;
        MPI.COMM_WORLD.Barrier();
        if (me == last)
        {
            System.out.println("ready");
            final int[] never = new int[1];
            MPI.COMM_WORLD.Recv(never, 0, 1, MPI.INT, 0, 99);
            System.exit(4);
        }
        try
        {
            final int[] in = new int[1];
            if (0 == me)
            {
                MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, last, 1);
            }
            else if (1 == me)
            {
                MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, MPI.ANY_SOURCE, 1);
            }
            else
            {
                MPI.COMM_WORLD.Barrier();
            }
        }
        catch (final Exception ex)
        {
            Throwable cause = ex;
            while (null != cause.getCause())
            {
                cause = cause.getCause();
            }
            System.out.println("failed: " + cause.getMessage());
            System.in.transferTo(java.io.OutputStream.nullOutputStream());
            System.exit(3);
        }
        System.exit(4);
    }
}
