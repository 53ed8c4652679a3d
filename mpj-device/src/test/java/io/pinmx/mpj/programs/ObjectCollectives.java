package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Status;

/**
 * Collectives and exchanges of MPI.OBJECT (MPJ's dynamic buffers, many of them between each pair with one tag):
 * Gather, Scatter, Allgather, Alltoall, Allgatherv and Gatherv from every root, and Sendrecv of objects, each
 * object naming its origin and destination slot. Prints "ObjectCollectives OK" on every rank.
 */
public final class ObjectCollectives
{
    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        for (int root = 0; root < n; root++)
        {
            final Object[] mine = {"g" + me};
            final Object[] all = new Object[n];
            MPI.COMM_WORLD.Gather(mine, 0, 1, MPI.OBJECT, all, 0, 1, MPI.OBJECT, root);
            if (me == root)
            {
                for (int r = 0; r < n; r++)
                {
                    Check.that(("g" + r).equals(all[r]), "object gather root " + root + " slot " + r + ": " + all[r]);
                }
            }
            final Object[] parts = new Object[n];
            for (int r = 0; r < n; r++)
            {
                parts[r] = new int[] {root, r};
            }
            final Object[] got = new Object[1];
            MPI.COMM_WORLD.Scatter(parts, 0, 1, MPI.OBJECT, got, 0, 1, MPI.OBJECT, root);
            final int[] part = (int[])got[0];
            Check.that(part[0] == root && part[1] == me, "object scatter root " + root);
            final int[] counts = new int[n];
            final int[] displs = new int[n];
            int at = 0;
            for (int r = 0; r < n; r++)
            {
                counts[r] = r + 1;
                displs[r] = at;
                at += counts[r];
            }
            final Object[] several = new Object[me + 1];
            for (int i = 0; i <= me; i++)
            {
                several[i] = me + "." + i;
            }
            final Object[] gathered = new Object[at];
            MPI.COMM_WORLD.Gatherv(several, 0, me + 1, MPI.OBJECT, gathered, 0, counts, displs, MPI.OBJECT, root);
            if (me == root)
            {
                for (int r = 0; r < n; r++)
                {
                    for (int i = 0; i <= r; i++)
                    {
                        Check.that((r + "." + i).equals(gathered[displs[r] + i]), "object gatherv root " + root);
                    }
                }
            }
        }
        final Object[] everyone = new Object[n];
        MPI.COMM_WORLD.Allgather(new Object[] {me * 10L}, 0, 1, MPI.OBJECT, everyone, 0, 1, MPI.OBJECT);
        for (int r = 0; r < n; r++)
        {
            Check.that(Long.valueOf(r * 10L).equals(everyone[r]), "object allgather slot " + r);
        }
        final Object[] out = new Object[n];
        for (int r = 0; r < n; r++)
        {
            out[r] = me + "->" + r;
        }
        final Object[] in = new Object[n];
        MPI.COMM_WORLD.Alltoall(out, 0, 1, MPI.OBJECT, in, 0, 1, MPI.OBJECT);
        for (int r = 0; r < n; r++)
        {
            Check.that((r + "->" + me).equals(in[r]), "object alltoall from " + r + ": " + in[r]);
        }
        final int next = (me + 1) % n;
        final int previous = (me + n - 1) % n;
        final Object[] back = new Object[2];
        final Status s = MPI.COMM_WORLD.Sendrecv(new Object[] {"a" + me, new StringBuilder("b" + me)}, 0, 2, MPI.OBJECT,
            next, 4, back, 0, 2, MPI.OBJECT, previous, 4);
        Check.equal(previous, s.source, "object sendrecv: source");
        Check.that(("a" + previous).equals(back[0]) && ("b" + previous).equals(back[1].toString()), "object sendrecv");
        MPI.COMM_WORLD.Barrier();
        System.out.println("ObjectCollectives OK");
        MPI.Finalize();
    }
}
