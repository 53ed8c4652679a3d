package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Object messages (MPJ's dynamic buffer) from every rank at once into ANY_SOURCE receives: each object must arrive
 * with the message of its own sender, small and large (rendezvous) ones alike. Also objects by Bcast and mixed
 * with primitive messages, and object receives from one sender with one tag completed in reverse order. Prints "Objects OK".
 */
public final class Objects
{
    private static final int PER_RANK = 30;

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        if (0 == me)
        {
            final int[] next = new int[n];
            for (int k = 0; k < PER_RANK * (n - 1); k++)
            {
                final Object[] in = new Object[1];
                final Status s = MPI.COMM_WORLD.Recv(in, 0, 1, MPI.OBJECT, MPI.ANY_SOURCE, 50);
                @SuppressWarnings("unchecked")
                final Map<String, Object> m = (Map<String, Object>)in[0];
                Check.equal(s.source, (Integer)m.get("from"), "object's sender against the status");
                Check.equal(next[s.source], (Integer)m.get("seq"), "objects from rank " + s.source + " in order");
                final int seq = next[s.source]++;
                Check.equal(bulk(s.source, seq).size(), ((List<?>)m.get("bulk")).size(), "object's payload");
                Check.that(bulk(s.source, seq).equals(m.get("bulk")), "object's payload content");
            }
        }
        else
        {
            final Request[] sends = new Request[PER_RANK];
            final Object[][] keep = new Object[PER_RANK][];
            for (int seq = 0; seq < PER_RANK; seq++)
            {
                final Map<String, Object> m = new HashMap<>();
                m.put("from", me);
                m.put("seq", seq);
                m.put("bulk", bulk(me, seq));
                keep[seq] = new Object[]{m};
                sends[seq] = MPI.COMM_WORLD.Isend(keep[seq], 0, 1, MPI.OBJECT, 0, 50);
            }
            Request.Waitall(sends);
        }
        MPI.COMM_WORLD.Barrier();
        reverseCompletion(me, n);
        final Object[] shared = new Object[2];
        if (0 == me)
        {
            shared[0] = "broadcast";
            shared[1] = bulk(0, 1);
        }
        MPI.COMM_WORLD.Bcast(shared, 0, 2, MPI.OBJECT, 0);
        Check.that("broadcast".equals(shared[0]) && bulk(0, 1).equals(shared[1]), "object bcast");
        System.out.println("Objects OK");
        MPI.Finalize();
    }

    /**
     * Several object messages from one sender with one tag, their receives completed in the reverse of their
     * posting order (Wait on the last first, then Waitall over the others reversed): the k-th receive posted must
     * get the k-th object sent, whichever request is waited for first.
     */
    private static void reverseCompletion(final int me, final int n)
    {
        final int count = 6;
        final int next = (me + 1) % n;
        final int previous = (me + n - 1) % n;
        final Object[][] in = new Object[count][1];
        final Request[] receives = new Request[count];
        for (int k = 0; k < count; k++)
        {
            receives[k] = MPI.COMM_WORLD.Irecv(in[k], 0, 1, MPI.OBJECT, previous, 51);
        }
        MPI.COMM_WORLD.Barrier();
        final Request[] sends = new Request[count];
        for (int k = 0; k < count; k++)
        {
            sends[k] = MPI.COMM_WORLD.Isend(new Object[] {me + "#" + k + (1 == k % 3 ? bulk(me, 0).toString() : "")},
                0, 1, MPI.OBJECT, next, 51);
        }
        // Both messages of each send have arrived once the sender's Waitall returned and a barrier passed.
        Request.Waitall(sends);
        MPI.COMM_WORLD.Barrier();
        receives[count - 1].Wait();
        final Request[] reversed = new Request[count - 1];
        for (int k = 0; k < count - 1; k++)
        {
            reversed[k] = receives[count - 2 - k];
        }
        Request.Waitall(reversed);
        for (int k = 0; k < count; k++)
        {
            final String got = (String)in[k][0];
            Check.that(null != got && got.startsWith(previous + "#" + k) &&
                got.length() == (previous + "#" + k + (1 == k % 3 ? bulk(previous, 0).toString() : "")).length(),
                "reverse completion: receive " + k + " got " + (null == got ? null : got.substring(0,
                    Math.min(20, got.length()))));
        }
    }

    /** Every fourth object is large enough that its serialized form goes by rendezvous. */
    private static ArrayList<String> bulk(final int from, final int seq)
    {
        final ArrayList<String> l = new ArrayList<>();
        final int items = 0 == seq % 4 ? 12_000 : seq;
        for (int i = 0; i < items; i++)
        {
            l.add(from + "/" + seq + "/" + i);
        }
        return l;
    }
}
