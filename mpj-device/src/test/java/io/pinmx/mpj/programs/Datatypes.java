package io.pinmx.mpj.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Derived datatypes over the device, each in a ring (send to the next rank, receive from the previous one):
 * Contiguous, Vector (eager and past the device's 128 KiB eager limit), Indexed and Struct sent and received with
 * the same type (the gaps of the receive buffer must stay untouched), a Vector received as plain elements, and
 * Status.Get_count / Get_elements for each (count in derived items, elements in base elements). Prints
 * "Datatypes OK" on every rank.
 */
public final class Datatypes
{
    private static final int UNTOUCHED = -7;

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        final int next = (me + 1) % n;
        final int previous = (me + n - 1) % n;
        contiguous(me, next, previous);
        vector(me, next, previous, 3, 2, 5, 10);
        // 20 000 blocks of 2 ints: 160 000 bytes of data, past the device's 128 KiB eager limit: a rendezvous message.
        vector(me, next, previous, 20_000, 2, 3, 11);
        vectorIntoElements(me, next, previous);
        indexed(me, next, previous);
        struct(me, next, previous);
        MPI.COMM_WORLD.Barrier();
        System.out.println("Datatypes OK");
        MPI.Finalize();
    }

    private static int value(final int rank, final int i)
    {
        return rank * 100_000 + i;
    }

    private static void contiguous(final int me, final int next, final int previous)
    {
        final Datatype four = Datatype.Contiguous(4, MPI.INT);
        four.Commit();
        final int items = 3;
        final int[] out = new int[items * 4 + 2];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = value(me, i);
        }
        final int[] in = new int[items * 4 + 2];
        java.util.Arrays.fill(in, UNTOUCHED);
        // Offsets count base elements: send from out[2], land at in[1].
        final Request r = MPI.COMM_WORLD.Irecv(in, 1, items, four, previous, 7);
        MPI.COMM_WORLD.Send(out, 2, items, four, next, 7);
        final Status s = r.Wait();
        Check.equal(previous, s.source, "contiguous: source");
        Check.equal(7, s.tag, "contiguous: tag");
        Check.equal(items, s.Get_count(four), "contiguous: Get_count");
        Check.equal(items * 4, s.Get_elements(MPI.INT), "contiguous: Get_elements");
        Check.equal(UNTOUCHED, in[0], "contiguous: in[0]");
        for (int i = 0; i < items * 4; i++)
        {
            Check.equal(value(previous, i + 2), in[1 + i], "contiguous: in[" + (1 + i) + "]");
        }
        Check.equal(UNTOUCHED, in[items * 4 + 1], "contiguous: last");
    }

    private static void vector(
        final int me, final int next, final int previous, final int blocks, final int blockLength, final int stride,
        final int tag)
    {
        final Datatype v = Datatype.Vector(blocks, blockLength, stride, MPI.INT);
        v.Commit();
        final int span = (blocks - 1) * stride + blockLength;
        final int[] out = new int[span];
        for (int i = 0; i < span; i++)
        {
            out[i] = value(me, i);
        }
        final int[] in = new int[span];
        java.util.Arrays.fill(in, UNTOUCHED);
        final Request r = MPI.COMM_WORLD.Irecv(in, 0, 1, v, previous, tag);
        MPI.COMM_WORLD.Send(out, 0, 1, v, next, tag);
        final Status s = r.Wait();
        final String what = "vector " + blocks + "x" + blockLength + "/" + stride;
        Check.equal(previous, s.source, what + ": source");
        Check.equal(tag, s.tag, what + ": tag");
        Check.equal(1, s.Get_count(v), what + ": Get_count");
        Check.equal((long)blocks * blockLength, s.Get_elements(MPI.INT), what + ": Get_elements");
        for (int i = 0; i < span; i++)
        {
            final boolean inBlock = i % stride < blockLength;
            Check.equal(inBlock ? value(previous, i) : UNTOUCHED, in[i], what + ": in[" + i + "]");
        }
    }

    /** A vector's elements arrive packed when the receiver names the base type. */
    private static void vectorIntoElements(final int me, final int next, final int previous)
    {
        final Datatype v = Datatype.Vector(4, 1, 3, MPI.DOUBLE);
        v.Commit();
        final double[] out = new double[10];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = me + i / 16.0;
        }
        final double[] in = new double[4];
        final Request r = MPI.COMM_WORLD.Irecv(in, 0, 4, MPI.DOUBLE, previous, 12);
        MPI.COMM_WORLD.Send(out, 0, 1, v, next, 12);
        final Status s = r.Wait();
        Check.equal(4, s.Get_count(MPI.DOUBLE), "vector into doubles: Get_count");
        for (int i = 0; i < 4; i++)
        {
            Check.that(in[i] == previous + (3 * i) / 16.0, "vector into doubles: in[" + i + "] = " + in[i]);
        }
    }

    private static void indexed(final int me, final int next, final int previous)
    {
        final int[] lengths = {1, 3, 2};
        final int[] displacements = {0, 4, 9};
        final Datatype x = Datatype.Indexed(lengths, displacements, MPI.LONG);
        x.Commit();
        final int items = 2;
        final int extent = x.Extent();
        Check.equal(11, extent, "indexed: extent");
        final long[] out = new long[extent * items];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = 10_000_000_000L * me + i;
        }
        final long[] in = new long[extent * items];
        java.util.Arrays.fill(in, UNTOUCHED);
        MPI.COMM_WORLD.Sendrecv(out, 0, items, x, next, 13, in, 0, items, x, previous, 13);
        for (int item = 0; item < items; item++)
        {
            for (int i = 0; i < extent; i++)
            {
                final boolean covered = i == 0 || (i >= 4 && i < 7) || (i >= 9 && i < 11);
                final int at = item * extent + i;
                Check.equal(covered ? 10_000_000_000L * previous + at : UNTOUCHED, in[at], "indexed: in[" + at + "]");
            }
        }
        // The receiver may name the base type instead: 6 elements per item.
        final long[] flat = new long[12];
        final Request r = MPI.COMM_WORLD.Irecv(flat, 0, 12, MPI.LONG, previous, 14);
        MPI.COMM_WORLD.Send(out, 0, items, x, next, 14);
        final Status s = r.Wait();
        Check.equal(12, s.Get_count(MPI.LONG), "indexed into longs: Get_count");
        Check.equal(10_000_000_000L * previous + 4, flat[1], "indexed into longs: flat[1]");
        Check.equal(10_000_000_000L * previous + 11 + 10, flat[11], "indexed into longs: flat[11]");
    }

    /** A Struct of one base type (MPJ's buffers hold one type per section) with gaps between its blocks. */
    private static void struct(final int me, final int next, final int previous)
    {
        final int[] lengths = {2, 1, 3};
        final int[] displacements = {0, 3, 6};
        final Datatype t = Datatype.Struct(lengths, displacements, new Datatype[] {MPI.SHORT, MPI.SHORT, MPI.SHORT});
        t.Commit();
        final int items = 3;
        final int extent = t.Extent();
        Check.equal(9, extent, "struct: extent");
        final short[] out = new short[extent * items];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = (short)(me * 1000 + i);
        }
        final short[] in = new short[extent * items];
        java.util.Arrays.fill(in, (short)UNTOUCHED);
        final Request r = MPI.COMM_WORLD.Irecv(in, 0, items, t, previous, 15);
        MPI.COMM_WORLD.Send(out, 0, items, t, next, 15);
        final Status s = r.Wait();
        Check.equal(items, s.Get_count(t), "struct: Get_count");
        Check.equal(items * 6L, s.Get_elements(MPI.SHORT), "struct: Get_elements");
        for (int item = 0; item < items; item++)
        {
            for (int i = 0; i < extent; i++)
            {
                final boolean covered = i < 2 || i == 3 || i >= 6;
                final int at = item * extent + i;
                Check.equal(covered ? previous * 1000 + at : UNTOUCHED, in[at], "struct: in[" + at + "]");
            }
        }
    }
}
