package io.pinmx.mpj.programs;

import mpi.Cartcomm;
import mpi.Comm;
import mpi.Graphcomm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;

/**
 * Communicators over the device (each a new context in the match bits): a dup's messages never match the
 * parent's receives with the same tag; Split by parity (ranks, a ring and an allreduce inside each half);
 * group algebra (Incl, Excl, Union, Intersection, Difference, Range_incl, Translate_ranks, Compare) and Create
 * from a group; an intercommunicator between the halves (messages across it, Remote_size) and its Merge;
 * a periodic Cartesian grid (Dims_create, Coords, Shift, Sendrecv along both dimensions, Sub) and a ring graph
 * (Neighbours, a message to every neighbour). Prints "Communicators OK" on every rank.
 */
public final class Communicators
{
    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        dup(me, n);
        final Intracomm half = split(me, n);
        groups(me, n);
        intercomm(me, n, half);
        cartesian(me, n);
        graph(me, n);
        MPI.COMM_WORLD.Barrier();
        System.out.println("Communicators OK");
        MPI.Finalize();
    }

    /** Same tag, same peer on two communicators: each receive gets its own communicator's message. */
    private static void dup(final int me, final int n)
    {
        final Intracomm copy = (Intracomm)MPI.COMM_WORLD.clone();
        Check.equal(me, copy.Rank(), "dup: rank");
        Check.equal(n, copy.Size(), "dup: size");
        final int next = (me + 1) % n;
        final int previous = (me + n - 1) % n;
        MPI.COMM_WORLD.Send(new int[] {1000 + me}, 0, 1, MPI.INT, next, 5);
        copy.Send(new int[] {2000 + me}, 0, 1, MPI.INT, next, 5);
        final int[] onCopy = new int[1];
        final int[] onWorld = new int[1];
        // The copy's receive is posted first and names ANY_SOURCE/ANY_TAG: it must still skip the world's message.
        final Status s = copy.Recv(onCopy, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        MPI.COMM_WORLD.Recv(onWorld, 0, 1, MPI.INT, previous, 5);
        Check.equal(2000 + previous, onCopy[0], "dup: the copy's message");
        Check.equal(1000 + previous, onWorld[0], "dup: the world's message");
        Check.equal(previous, s.source, "dup: source");
        Check.equal(Comm.Compare(MPI.COMM_WORLD, copy), MPI.CONGRUENT, "dup: compare");
        copy.Free();
    }

    private static Intracomm split(final int me, final int n)
    {
        final int color = me % 2;
        final Intracomm half = MPI.COMM_WORLD.Split(color, -me);
        final int size = (n + 1 - color) / 2;
        Check.equal(size, half.Size(), "split: size");
        // Key -me: the highest world rank of the colour comes first.
        Check.equal((size - 1) - me / 2, half.Rank(), "split: rank");
        final int[] sum = new int[1];
        half.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        int expected = 0;
        for (int r = color; r < n; r += 2)
        {
            expected += r;
        }
        Check.equal(expected, sum[0], "split: allreduce");
        final int hr = half.Rank();
        final int[] in = new int[1];
        final Status s = half.Sendrecv(new int[] {me}, 0, 1, MPI.INT, (hr + 1) % size, 6, in, 0, 1, MPI.INT,
            (hr + size - 1) % size, 6);
        final int previousWorld = 2 * ((size - 1) - (hr + size - 1) % size) + color;
        Check.equal(previousWorld, in[0], "split: ring data");
        Check.equal((hr + size - 1) % size, s.source, "split: ring source (rank in the half)");
        return half;
    }

    private static void groups(final int me, final int n)
    {
        final Group world = MPI.COMM_WORLD.Group();
        Check.equal(n, world.Size(), "group: size");
        Check.equal(me, world.Rank(), "group: rank");
        final int[] evens = new int[(n + 1) / 2];
        for (int i = 0; i < evens.length; i++)
        {
            evens[i] = 2 * i;
        }
        final Group even = world.Incl(evens);
        final Group odd = world.Excl(evens);
        Check.equal(evens.length, even.Size(), "group: incl size");
        Check.equal(n - evens.length, odd.Size(), "group: excl size");
        Check.equal(0 == me % 2 ? me / 2 : MPI.UNDEFINED, even.Rank(), "group: incl rank");
        final Group union = Group.Union(even, odd);
        Check.equal(n, union.Size(), "group: union size");
        Check.equal(0, Group.Intersection(even, odd).Size(), "group: intersection size");
        Check.equal(odd.Size(), Group.Difference(world, even).Size(), "group: difference size");
        final int[] translated = Group.Translate_ranks(odd, new int[] {0}, world);
        Check.equal(1, translated[0], "group: translate odd 0 to world");
        Check.equal(MPI.IDENT, Group.Compare(world, world), "group: compare ident");
        Check.that(MPI.IDENT != Group.Compare(world, even), "group: world and evens compare as ident");
        final Group firstTwo = world.Range_incl(new int[][] {{0, 1, 1}});
        Check.equal(2, firstTwo.Size(), "group: range_incl size");
        // A communicator over the even ranks only; the others get COMM_NULL (null in MPJ).
        final Intracomm evenComm = MPI.COMM_WORLD.Create(even);
        if (0 == me % 2)
        {
            Check.that(null != evenComm, "create: an even rank got no communicator");
            Check.equal(me / 2, evenComm.Rank(), "create: rank");
            final int[] root = {me};
            evenComm.Bcast(root, 0, 1, MPI.INT, evenComm.Size() - 1);
            Check.equal(2 * (evenComm.Size() - 1), root[0], "create: bcast from the last even rank");
        }
    }

    /** The halves of the split, joined by an intercommunicator with leaders world 0 and 1. */
    private static void intercomm(final int me, final int n, final Intracomm half)
    {
        final int color = me % 2;
        // Local leader: the half's rank of world rank 0 or 1, i.e. the last rank of the half (key -me).
        final int localLeader = half.Size() - 1;
        final int remoteLeader = 1 - color;
        // MPJ 0.44 is called on the peer communicator with the local one as argument (javap of
        // mpi.Comm.Create_intercomm: it takes the local group from its argument), not as mpiJava's spec names them.
        final Intercomm inter = MPI.COMM_WORLD.Create_intercomm(half, localLeader, remoteLeader, 77);
        Check.that(inter.Test_inter(), "intercomm: Test_inter");
        Check.equal(half.Size(), inter.Size(), "intercomm: local size");
        Check.equal(n - half.Size(), inter.Remote_size(), "intercomm: remote size");
        // Each even rank k of the half sends to remote rank k (if there is one), which replies.
        final int r = inter.Rank();
        if (r < inter.Remote_size())
        {
            final int[] in = new int[1];
            final Request pending = inter.Irecv(in, 0, 1, MPI.INT, r, 8);
            inter.Send(new int[] {me}, 0, 1, MPI.INT, r, 8);
            final Status s = pending.Wait();
            Check.equal(r, s.source, "intercomm: source is the remote rank");
            Check.equal(1 - color, in[0] % 2, "intercomm: message from the other half");
        }
        final Intracomm merged = inter.Merge(1 == color);
        Check.equal(n, merged.Size(), "merge: size");
        final int[] all = new int[n];
        merged.Allgather(new int[] {me}, 0, 1, MPI.INT, all, 0, 1, MPI.INT);
        // Low group (evens) first, then odds; each in its half's order.
        for (int k = 0; k < n; k++)
        {
            final boolean low = k < (n + 1) / 2;
            Check.equal(low ? 0 : 1, all[k] % 2, "merge: rank " + k + " holds world rank " + all[k]);
        }
        Check.equal(all[merged.Rank()], me, "merge: own slot");
    }

    private static void cartesian(final int me, final int n)
    {
        final int[] dims = {0, 0};
        Cartcomm.Dims_create(n, dims);
        Check.equal(n, (long)dims[0] * dims[1], "dims_create: product");
        final Cartcomm grid = MPI.COMM_WORLD.Create_cart(dims, new boolean[] {true, true}, false);
        final int rank = grid.Rank();
        final int[] coords = grid.Coords(rank);
        Check.equal(rank, grid.Rank(coords), "cart: rank of own coords");
        for (int dim = 0; dim < 2; dim++)
        {
            final ShiftParms shift = grid.Shift(dim, 1);
            final int[] expectDest = coords.clone();
            expectDest[dim] = (coords[dim] + 1) % dims[dim];
            final int[] expectSource = coords.clone();
            expectSource[dim] = (coords[dim] + dims[dim] - 1) % dims[dim];
            Check.equal(grid.Rank(expectDest), shift.rank_dest, "cart shift dim " + dim + ": dest");
            Check.equal(grid.Rank(expectSource), shift.rank_source, "cart shift dim " + dim + ": source");
            final double[] in = new double[300];
            final double[] out = new double[300];
            java.util.Arrays.fill(out, rank + dim / 10.0);
            final Status s = grid.Sendrecv(out, 0, 300, MPI.DOUBLE, shift.rank_dest, 9, in, 0, 300, MPI.DOUBLE,
                shift.rank_source, 9);
            Check.equal(shift.rank_source, s.source, "cart sendrecv dim " + dim + ": source");
            Check.that(in[299] == shift.rank_source + dim / 10.0, "cart sendrecv dim " + dim + ": data " + in[299]);
        }
        final Cartcomm row = grid.Sub(new boolean[] {false, true});
        Check.equal(dims[1], row.Size(), "cart sub: size");
        final int[] sum = new int[1];
        row.Allreduce(new int[] {coords[1]}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        Check.equal((long)dims[1] * (dims[1] - 1) / 2, sum[0], "cart sub: allreduce of column coordinates");
    }

    /** A ring as a graph: node i's neighbours are i-1 and i+1. */
    private static void graph(final int me, final int n)
    {
        final int[] index = new int[n];
        final int[] edges = new int[2 * n];
        for (int i = 0; i < n; i++)
        {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + n - 1) % n;
            edges[2 * i + 1] = (i + 1) % n;
        }
        final Graphcomm ring = MPI.COMM_WORLD.Create_graph(index, edges, false);
        final int rank = ring.Rank();
        final int[] neighbours = ring.Neighbours(rank);
        Check.equal(2, neighbours.length, "graph: neighbours");
        Check.equal((rank + n - 1) % n, neighbours[0], "graph: first neighbour");
        Check.equal((rank + 1) % n, neighbours[1], "graph: second neighbour");
        final int[][] in = new int[2][1];
        final Request[] r = new Request[4];
        for (int k = 0; k < 2; k++)
        {
            r[k] = ring.Irecv(in[k], 0, 1, MPI.INT, neighbours[k], 10 + k);
            // My first neighbour hears me as its second, and the other way round.
            r[2 + k] = ring.Isend(new int[] {rank}, 0, 1, MPI.INT, neighbours[k], 11 - k);
        }
        Request.Waitall(r);
        Check.equal(neighbours[0], in[0][0], "graph: from the first neighbour");
        Check.equal(neighbours[1], in[1][0], "graph: from the second neighbour");
    }
}
