package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * The device's eager threshold at its boundary, 2 ranks: messages whose endpoint length (device header and MPJ's
 * static buffer) is the threshold - 1, the threshold and the threshold + 1 bytes. Rank 0 Isends each while rank 1
 * waits for something else: a send up to the threshold must complete before rank 1 posts its receive (eager), the
 * one past it must not (rendezvous: the receiver pulls only once its receive matched); then rank 1 receives each
 * and checks count, source, tag and every byte. Prints "EagerThreshold OK" on every rank.
 * <p>
 * Arguments: the threshold in bytes, then the bytes of a message's endpoint length that are not the MPJ data.
 */
public final class EagerThreshold
{
    private static final int DATA_TAG = 1;
    private static final int GO_TAG = 2;
    /** How long an eager send may take to complete on a loaded host before the test calls it rendezvous. */
    private static final long EAGER_DEADLINE_NS = 60_000_000_000L;
    /** How long a rendezvous send is watched for a completion it cannot have. */
    private static final long RENDEZVOUS_WATCH_NS = 300_000_000L;

    public static void main(final String[] args) throws Exception
    {
        final String[] own = MPI.Init(args);
        Check.that(2 == MPI.COMM_WORLD.Size(), "EagerThreshold runs on 2 ranks");
        final int threshold = Integer.parseInt(own[0]);
        final int overhead = Integer.parseInt(own[1]);
        final int me = MPI.COMM_WORLD.Rank();
        for (int length = threshold - 1; length <= threshold + 1; length++)
        {
            final int size = length - overhead;
            if (0 == me)
            {
                send(size, length <= threshold);
            }
            else
            {
                receive(size);
            }
            MPI.COMM_WORLD.Barrier();
        }
        System.out.println("EagerThreshold OK");
        MPI.Finalize();
    }

    private static void send(final int size, final boolean eager)
    {
        final byte[] out = new byte[size];
        for (int i = 0; i < size; i++)
        {
            out[i] = Check.pattern(0, 0, size, i);
        }
        final Request sent = MPI.COMM_WORLD.Isend(out, 0, size, MPI.BYTE, 1, DATA_TAG);
        final long startNs = System.nanoTime();
        boolean done = false;
        while (!done && System.nanoTime() - startNs < (eager ? EAGER_DEADLINE_NS : RENDEZVOUS_WATCH_NS))
        {
            done = null != sent.Test();
        }
        Check.that(eager == done, size + " B: the send " + (eager ?
            "did not complete before its receive was posted (not eager)" :
            "completed before its receive was posted (not rendezvous)"));
        MPI.COMM_WORLD.Send(new byte[1], 0, 1, MPI.BYTE, 1, GO_TAG);
        if (!done)
        {
            sent.Wait();
        }
    }

    private static void receive(final int size)
    {
        MPI.COMM_WORLD.Recv(new byte[1], 0, 1, MPI.BYTE, 0, GO_TAG);
        final byte[] in = new byte[size];
        final Status s = MPI.COMM_WORLD.Recv(in, 0, size, MPI.BYTE, 0, DATA_TAG);
        Check.equal(size, s.Get_count(MPI.BYTE), size + " B: count");
        Check.equal(0, s.source, size + " B: source");
        Check.equal(DATA_TAG, s.tag, size + " B: tag");
        for (int i = 0; i < size; i++)
        {
            Check.that(in[i] == Check.pattern(0, 0, size, i), size + " B: byte " + i + " is " + in[i]);
        }
    }
}
