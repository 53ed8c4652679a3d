package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

import java.util.Arrays;

/**
 * How soon a blocked Probe returns when what it waits for comes only after another receive moved on: rank 0 posts
 * an object receive (its serialized part large enough for rendezvous, so rank 1's send completes only once rank 0
 * asked for that part), then probes for a message rank 1 sends after that send completed. Rank 0 times each
 * probe over several rounds and fails unless the median is below the milliseconds given as the last argument; it
 * prints every probe's time on stderr. Both ranks print "ProbeWake OK".
 */
public final class ProbeWake
{
    private static final int ROUNDS = 7;
    /** Serialized, more than the device's 128 KiB eager limit. */
    private static final int OBJECT_BYTES = 200_000;

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final long limitMs = Long.parseLong(appArgs[appArgs.length - 1]);
        final int me = MPI.COMM_WORLD.Rank();
        Check.that(2 == MPI.COMM_WORLD.Size(), "ProbeWake needs 2 ranks");
        final long[] probeNs = new long[ROUNDS];
        for (int round = 0; round < ROUNDS; round++)
        {
            final Object[] object = new Object[1];
            final int[] after = new int[1];
            if (0 == me)
            {
                final Request objectReceive = MPI.COMM_WORLD.Irecv(object, 0, 1, MPI.OBJECT, 1, 1);
                MPI.COMM_WORLD.Barrier();
                final long startNs = System.nanoTime();
                final Status probed = MPI.COMM_WORLD.Probe(1, 2);
                probeNs[round] = System.nanoTime() - startNs;
                Check.equal(2, probed.tag, "probed tag");
                Check.equal(1, probed.Get_count(MPI.INT), "probed count");
                MPI.COMM_WORLD.Recv(after, 0, 1, MPI.INT, 1, 2);
                Check.equal(round, after[0], "the message after the object");
                objectReceive.Wait();
                final byte[] bytes = (byte[])object[0];
                Check.equal(OBJECT_BYTES, bytes.length, "object length");
                Check.equal((byte)round, bytes[OBJECT_BYTES - 1], "object's last byte");
            }
            else
            {
                final byte[] bytes = new byte[OBJECT_BYTES];
                Arrays.fill(bytes, (byte)round);
                object[0] = bytes;
                MPI.COMM_WORLD.Barrier();
                MPI.COMM_WORLD.Send(object, 0, 1, MPI.OBJECT, 0, 1);
                after[0] = round;
                MPI.COMM_WORLD.Send(after, 0, 1, MPI.INT, 0, 2);
            }
        }
        if (0 == me)
        {
            final long[] ms = Arrays.stream(probeNs).map(ns -> ns / 1_000_000).toArray();
            System.err.println("ProbeWake: probe times (ms) " + Arrays.toString(ms));
            Arrays.sort(ms);
            Check.that(ms[ROUNDS / 2] < limitMs, "median probe time " + ms[ROUNDS / 2] + " ms, limit " + limitMs +
                " ms: the probe did not wake for the object receive's arrival");
        }
        MPI.COMM_WORLD.Barrier();
        System.out.println("ProbeWake OK");
        MPI.Finalize();
    }
}
