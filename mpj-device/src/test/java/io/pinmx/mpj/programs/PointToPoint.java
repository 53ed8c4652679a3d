package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Point-to-point over the device: a ring exchange at every pinmx size class (0 B, tiny, small, medium up to the
 * device's 128 KiB eager limit, rendezvous at 4 MiB) in bytes, ints and doubles; ANY_SOURCE/ANY_TAG; non-overtaking order of
 * mixed sizes; probe and iprobe (counts before the receive, and a receive by another tag after a probe); ssend
 * completing only after the receive matched; waitany and testall. Prints "PointToPoint OK" on every rank.
 */
public final class PointToPoint
{
    private static final int[] SIZES = {0, 1, 32, 33, 128, 129, 4000, 32 * 1024, 32 * 1024 + 1, 100_000, 4 << 20};

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        ring(me, n);
        wildcards(me, n);
        // A rank's next phase must not feed a wildcard receive of the previous one.
        MPI.COMM_WORLD.Barrier();
        order(me, n);
        probes(me, n);
        MPI.COMM_WORLD.Barrier();
        synchronous(me, n);
        waitAnyTestAll(me, n);
        MPI.COMM_WORLD.Barrier();
        System.out.println("PointToPoint OK");
        MPI.Finalize();
    }

    private static void ring(final int me, final int n)
    {
        final int next = (me + 1) % n;
        final int previous = (me + n - 1) % n;
        for (final int size : SIZES)
        {
            final byte[] out = new byte[size];
            for (int i = 0; i < size; i++)
            {
                out[i] = Check.pattern(me, 0, size, i);
            }
            final byte[] in = new byte[size];
            final Request r = MPI.COMM_WORLD.Irecv(in, 0, size, MPI.BYTE, previous, size % 1000);
            MPI.COMM_WORLD.Send(out, 0, size, MPI.BYTE, next, size % 1000);
            final Status s = r.Wait();
            Check.equal(previous, s.source, "ring " + size + " B: source");
            Check.equal(size % 1000, s.tag, "ring " + size + " B: tag");
            Check.equal(size, s.Get_count(MPI.BYTE), "ring " + size + " B: count");
            for (int i = 0; i < size; i++)
            {
                if (in[i] != Check.pattern(previous, 0, size, i))
                {
                    throw new AssertionError("ring " + size + " B: byte " + i + " is " + in[i]);
                }
            }
            final int ints = Math.max(1, size / 4);
            final int[] iout = new int[ints];
            final int[] iin = new int[ints];
            for (int i = 0; i < ints; i++)
            {
                iout[i] = me * 1_000_000 + i;
            }
            final double[] dout = {me + 0.5, size};
            final double[] din = new double[2];
            MPI.COMM_WORLD.Sendrecv(iout, 0, ints, MPI.INT, next, 1, iin, 0, ints, MPI.INT, previous, 1);
            MPI.COMM_WORLD.Sendrecv(dout, 0, 2, MPI.DOUBLE, next, 2, din, 0, 2, MPI.DOUBLE, previous, 2);
            for (int i = 0; i < ints; i++)
            {
                Check.equal(previous * 1_000_000L + i, iin[i], "ring ints " + ints + " at " + i);
            }
            Check.that(din[0] == previous + 0.5 && din[1] == size, "ring doubles " + din[0] + "," + din[1]);
        }
    }

    /** Rank 0 takes one message from every other rank by ANY_SOURCE and ANY_TAG; source and tag name the sender. */
    private static void wildcards(final int me, final int n)
    {
        if (0 == me)
        {
            final boolean[] seen = new boolean[n];
            for (int k = 1; k < n; k++)
            {
                final int[] in = new int[2];
                final Status s = MPI.COMM_WORLD.Recv(in, 0, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                Check.equal(in[0], s.source, "ANY_SOURCE: source");
                Check.equal(100 + in[0], s.tag, "ANY_TAG: tag");
                Check.that(!seen[s.source], "rank " + s.source + " received twice");
                seen[s.source] = true;
            }
        }
        else
        {
            MPI.COMM_WORLD.Send(new int[]{me, 0}, 0, 2, MPI.INT, 0, 100 + me);
        }
    }

    /** Messages from one sender with one tag arrive in the order sent, whatever mix of eager and rendezvous. */
    private static void order(final int me, final int n)
    {
        final int count = 60;
        if (0 == me)
        {
            final int[] next = new int[n];
            for (int k = 0; k < count * (n - 1); k++)
            {
                final byte[] in = new byte[64 * 1024];
                final Status s = MPI.COMM_WORLD.Recv(in, 0, in.length, MPI.BYTE, MPI.ANY_SOURCE, 7);
                final int seq = in[0] & 0xFF;
                Check.equal(next[s.source], seq, "order from rank " + s.source);
                Check.equal(length(seq), s.Get_count(MPI.BYTE), "order length of " + seq);
                next[s.source]++;
            }
        }
        else
        {
            final Request[] sends = new Request[count];
            for (int seq = 0; seq < count; seq++)
            {
                final byte[] out = new byte[length(seq)];
                out[0] = (byte)seq;
                sends[seq] = MPI.COMM_WORLD.Isend(out, 0, out.length, MPI.BYTE, 0, 7);
            }
            Request.Waitall(sends);
        }
    }

    private static int length(final int seq)
    {
        return switch (seq % 4)
        {
            case 0 -> 1;
            case 1 -> 40_000;
            case 2 -> 200;
            default -> 9_000;
        };
    }

    /**
     * Probe reports source, tag and count before the receive; a message probed with ANY_TAG is received by its own
     * tag after a later one with another tag.
     */
    private static void probes(final int me, final int n)
    {
        if (0 == me)
        {
            for (int k = 1; k < n; k++)
            {
                final Status p = MPI.COMM_WORLD.Probe(k, 20);
                Check.equal(k, p.source, "probe source");
                Check.equal(20, p.tag, "probe tag");
                final int count = p.Get_count(MPI.INT);
                Check.equal(10 * k, count, "probe count");
                final int[] in = new int[count];
                MPI.COMM_WORLD.Recv(in, 0, count, MPI.INT, k, 20);
                Check.equal(k, in[count - 1], "probed message's last int");
            }
            Status s;
            while (null == (s = MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG)))
            {
                Thread.onSpinWait();
            }
            Check.that(s.tag == 21 || s.tag == 22, "iprobe tag " + s.tag);
            // Both of that rank's messages: by the other tag first, then by the probed one.
            final int other = 21 == s.tag ? 22 : 21;
            final byte[] a = new byte[50_000];
            final byte[] b = new byte[50_000];
            final Status sa = MPI.COMM_WORLD.Recv(a, 0, a.length, MPI.BYTE, s.source, other);
            final Status sb = MPI.COMM_WORLD.Recv(b, 0, b.length, MPI.BYTE, s.source, s.tag);
            Check.equal(other, sa.tag, "second tag");
            Check.equal(other == 21 ? 10 : 40_000, sa.Get_count(MPI.BYTE), "tag " + other + " count");
            Check.equal(s.tag == 21 ? 10 : 40_000, sb.Get_count(MPI.BYTE), "tag " + s.tag + " count");
            Check.equal(s.tag, b[0], "probed message's content");
            for (int k = 1; k < n; k++)
            {
                if (k != s.source)
                {
                    MPI.COMM_WORLD.Recv(a, 0, a.length, MPI.BYTE, k, 21);
                    MPI.COMM_WORLD.Recv(b, 0, b.length, MPI.BYTE, k, 22);
                }
            }
            Check.that(null == MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG), "iprobe after every receive");
        }
        else
        {
            final int[] out = new int[10 * me];
            out[out.length - 1] = me;
            MPI.COMM_WORLD.Send(out, 0, out.length, MPI.INT, 0, 20);
            final byte[] small = new byte[10];
            small[0] = 21;
            final byte[] large = new byte[40_000];
            large[0] = 22;
            MPI.COMM_WORLD.Send(small, 0, small.length, MPI.BYTE, 0, 21);
            MPI.COMM_WORLD.Send(large, 0, large.length, MPI.BYTE, 0, 22);
        }
    }

    /**
     * An Issend stays incomplete while its receiver, held back by a message only the sender can give, has not
     * posted the receive; it completes once it has.
     */
    private static void synchronous(final int me, final int n)
    {
        if (0 == me)
        {
            final int[] data = {42};
            final Request ssend = MPI.COMM_WORLD.Issend(data, 0, 1, MPI.INT, 1, 30);
            final long until = System.nanoTime() + 300_000_000L;
            while (System.nanoTime() < until)
            {
                Check.that(null == ssend.Test(), "Issend completed before its receive was posted");
            }
            MPI.COMM_WORLD.Send(new int[]{1}, 0, 1, MPI.INT, 1, 31);
            ssend.Wait();
            MPI.COMM_WORLD.Ssend(data, 0, 1, MPI.INT, 1, 32);
        }
        else if (1 == me)
        {
            final int[] in = new int[1];
            MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 0, 31);
            MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 0, 30);
            Check.equal(42, in[0], "ssend data");
            MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 0, 32);
            Check.equal(42, in[0], "blocking ssend data");
        }
    }

    /** Rank 0: one Irecv per other rank, finished by Waitany (each index once), then by Testall. */
    private static void waitAnyTestAll(final int me, final int n)
    {
        for (int round = 0; round < 2; round++)
        {
            if (0 == me)
            {
                final int[][] in = new int[n - 1][1];
                final Request[] reqs = new Request[n - 1];
                for (int k = 1; k < n; k++)
                {
                    reqs[k - 1] = MPI.COMM_WORLD.Irecv(in[k - 1], 0, 1, MPI.INT, k, 40 + round);
                }
                MPI.COMM_WORLD.Barrier();
                if (0 == round)
                {
                    final boolean[] done = new boolean[n - 1];
                    for (int k = 1; k < n; k++)
                    {
                        final Status s = Request.Waitany(reqs);
                        Check.that(!done[s.index], "Waitany returned index " + s.index + " twice");
                        done[s.index] = true;
                        Check.equal(s.index + 1, s.source, "Waitany source");
                        Check.equal((s.index + 1) * 3L, in[s.index][0], "Waitany data");
                    }
                }
                else
                {
                    Status[] all;
                    while (null == (all = Request.Testall(reqs)))
                    {
                        Thread.onSpinWait();
                    }
                    for (int k = 1; k < n; k++)
                    {
                        Check.equal(k, all[k - 1].source, "Testall source");
                        Check.equal(k * 3L, in[k - 1][0], "Testall data");
                    }
                }
            }
            else
            {
                MPI.COMM_WORLD.Barrier();
                MPI.COMM_WORLD.Send(new int[]{me * 3}, 0, 1, MPI.INT, 0, 40 + round);
            }
        }
    }
}
