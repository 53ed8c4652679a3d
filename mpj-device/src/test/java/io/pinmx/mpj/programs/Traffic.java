package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Many messages at once over the device: every rank sends every other rank messages of each pinmx size class
 * (0 B, tiny up to 32 B, small up to 128 B, medium up to the device's 128 KiB, rendezvous above) in one burst, received by
 * ANY_SOURCE/ANY_TAG receives that must see each sender's messages in its sending order (checked by the tag and
 * the length of each); then 200 Isends and 200 Irecvs per rank (spread over its partners) outstanding at once, with tags posted in the
 * reverse order of the sends and completed through Waitany in whatever order they end; zero-length messages by
 * tag. Prints "Traffic OK" on every rank.
 */
public final class Traffic
{
    /** Sizes in bytes: each pinmx class and its edges, twice over so classes interleave. */
    private static final int[] SIZES = {0, 1, 32, 33, 128, 129, 5000, 32 * 1024, 32 * 1024 + 1, 70_000, 7, 120, 31_000,
        0, 200_000, 64};
    /**
     * Receives (and as many sends) a rank has outstanding at once, spread over its partners ({@link EagerFlood} has
     * 200 per partner).
     */
    private static final int OUTSTANDING_PER_RANK = 200;
    private static final int MAX_BYTES = 200_000;

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        mixedUnderWildcards(me, n);
        MPI.COMM_WORLD.Barrier();
        outstanding(me, n);
        MPI.COMM_WORLD.Barrier();
        zeroLength(me, n);
        MPI.COMM_WORLD.Barrier();
        System.out.println("Traffic OK");
        MPI.Finalize();
    }

    private static void mixedUnderWildcards(final int me, final int n)
    {
        final Request[] sends = new Request[(n - 1) * SIZES.length];
        final byte[][] out = new byte[SIZES.length][];
        for (int k = 0; k < SIZES.length; k++)
        {
            out[k] = new byte[SIZES[k]];
            for (int i = 0; i < SIZES[k]; i++)
            {
                out[k][i] = Check.pattern(me, k, SIZES[k], i);
            }
        }
        int s = 0;
        for (int d = 1; d < n; d++)
        {
            final int to = (me + d) % n;
            for (int k = 0; k < SIZES.length; k++)
            {
                sends[s++] = MPI.COMM_WORLD.Isend(out[k], 0, SIZES[k], MPI.BYTE, to, 100 + k);
            }
        }
        final int[] nextFrom = new int[n];
        final byte[] in = new byte[MAX_BYTES];
        for (int m = 0; m < (n - 1) * SIZES.length; m++)
        {
            final Status st = MPI.COMM_WORLD.Recv(in, 0, MAX_BYTES, MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);
            final int from = st.source;
            Check.that(from >= 0 && from < n && from != me, "wildcards: source " + from);
            final int k = nextFrom[from]++;
            Check.equal(100 + k, st.tag, "wildcards: message " + k + " from " + from + " (order)");
            Check.equal(SIZES[k], st.Get_count(MPI.BYTE), "wildcards: count of message " + k + " from " + from);
            for (int i = 0; i < SIZES[k]; i++)
            {
                if (in[i] != Check.pattern(from, k, SIZES[k], i))
                {
                    throw new AssertionError("wildcards: message " + k + " from " + from + " byte " + i);
                }
            }
        }
        Request.Waitall(sends);
    }

    /**
     * 200 messages in flight each way per rank, spread over its partners: sizes cycle through the classes, receives
     * posted by exact tag in reverse, completed by Waitany.
     */
    private static void outstanding(final int me, final int n)
    {
        final int partners = n - 1;
        final int perPartner = OUTSTANDING_PER_RANK / partners;
        final int total = partners * perPartner;
        final Request[] receives = new Request[total];
        final int[][] in = new int[total][];
        for (int d = 1; d <= partners; d++)
        {
            final int from = (me + n - d) % n;
            for (int t = perPartner - 1; t >= 0; t--)
            {
                final int at = (d - 1) * perPartner + t;
                in[at] = new int[ints(t)];
                receives[at] = MPI.COMM_WORLD.Irecv(in[at], 0, ints(t), MPI.INT, from, 1000 + t);
            }
        }
        final Request[] sends = new Request[total];
        for (int t = 0; t < perPartner; t++)
        {
            for (int d = 1; d <= partners; d++)
            {
                final int[] out = new int[ints(t)];
                for (int i = 0; i < out.length; i++)
                {
                    out[i] = me * 1_000_000 + t * 1000 + i;
                }
                sends[(d - 1) * perPartner + t] = MPI.COMM_WORLD.Isend(out, 0, out.length, MPI.INT, (me + d) % n,
                    1000 + t);
            }
        }
        final boolean[] done = new boolean[total];
        for (int c = 0; c < total; c++)
        {
            final Status st = Request.Waitany(receives);
            final int at = st.index;
            Check.that(at >= 0 && at < total && !done[at], "outstanding: waitany index " + at);
            done[at] = true;
            receives[at] = MPI.REQUEST_NULL;
            final int d = at / perPartner + 1;
            final int t = at % perPartner;
            final int from = (me + n - d) % n;
            Check.equal(from, st.source, "outstanding: source of tag " + (1000 + t));
            Check.equal(1000 + t, st.tag, "outstanding: tag");
            Check.equal(ints(t), st.Get_count(MPI.INT), "outstanding: count of tag " + (1000 + t));
            for (int i = 0; i < in[at].length; i++)
            {
                Check.equal(from * 1_000_000L + t * 1000L + i, in[at][i], "outstanding: tag " + (1000 + t) + " at " + i);
            }
        }
        Request.Waitall(sends);
    }

    /** Ints in message t: 0, tiny, small, medium and (every 50th) rendezvous. */
    private static int ints(final int t)
    {
        return switch (t % 5)
        {
            case 0 -> 0;
            case 1 -> 3;
            case 2 -> 30;
            case 3 -> 900;
            default -> 0 == t % 50 - 4 ? 20_000 : 8;
        };
    }

    /** Zero-length messages still carry source and tag, and match by tag. */
    private static void zeroLength(final int me, final int n)
    {
        final int next = (me + 1) % n;
        final int previous = (me + n - 1) % n;
        final Request b = MPI.COMM_WORLD.Irecv(new int[0], 0, 0, MPI.INT, previous, 2);
        final Request a = MPI.COMM_WORLD.Irecv(new int[0], 0, 0, MPI.INT, previous, 1);
        MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, next, 1);
        MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, next, 2);
        final Status sa = a.Wait();
        final Status sb = b.Wait();
        Check.equal(1, sa.tag, "zero length: first tag");
        Check.equal(2, sb.tag, "zero length: second tag");
        Check.equal(previous, sa.source, "zero length: source");
        Check.equal(0, sa.Get_count(MPI.INT), "zero length: count");
        MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, next, 3);
        final Status p = MPI.COMM_WORLD.Probe(previous, MPI.ANY_TAG);
        Check.equal(3, p.tag, "zero length: probed tag");
        Check.equal(0, p.Get_count(MPI.INT), "zero length: probed count");
        final Status r = MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, previous, 3);
        Check.equal(0, r.Get_count(MPI.INT), "zero length: count into a larger buffer");
    }
}
