package io.pinmx.mpj.programs;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Many eager messages in flight at once, as MPJ's Isend_eager and BufferRoller tests have them: every rank Isends
 * the number given (default 200) of messages to every other rank, interleaved over its partners, sizes cycling
 * from 0 B to just under the device's 128 KiB eager limit (most of the bytes in medium messages of many fragments,
 * which fill a partner's shared-memory ring), and only then posts as many receives from each partner and waits for
 * everything. Each message is checked byte by byte, with its source, tag and count. Prints "EagerFlood OK" on every
 * rank, and rank 0 the seconds the exchange took on stderr.
 */
public final class EagerFlood
{
    /** Message sizes in bytes, cycled through by tag: empty, tiny, small, one fragment, several, nearly the limit. */
    private static final int[] SIZES = {0, 8, 100, 3000, 40_000, 120_000};
    private static final int DEFAULT_PER_PARTNER = 200;

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int perPartner = appArgs.length > 0 ? Integer.parseInt(appArgs[appArgs.length - 1]) : DEFAULT_PER_PARTNER;
        final int me = MPI.COMM_WORLD.Rank();
        final int n = MPI.COMM_WORLD.Size();
        MPI.COMM_WORLD.Barrier();
        final long startNs = System.nanoTime();
        final Request[] sends = new Request[(n - 1) * perPartner];
        for (int t = 0; t < perPartner; t++)
        {
            final int k = t % SIZES.length;
            for (int d = 1; d < n; d++)
            {
                final int to = (me + d) % n;
                final byte[] data = new byte[SIZES[k]];
                for (int i = 0; i < data.length; i++)
                {
                    data[i] = Check.pattern(me, t, data.length, i);
                }
                sends[t * (n - 1) + d - 1] = MPI.COMM_WORLD.Isend(data, 0, data.length, MPI.BYTE, to, t);
            }
        }
        final Request[] receives = new Request[(n - 1) * perPartner];
        final byte[][] in = new byte[receives.length][];
        for (int d = 1; d < n; d++)
        {
            final int from = (me + n - d) % n;
            for (int t = 0; t < perPartner; t++)
            {
                final int at = (d - 1) * perPartner + t;
                in[at] = new byte[SIZES[t % SIZES.length]];
                receives[at] = MPI.COMM_WORLD.Irecv(in[at], 0, in[at].length, MPI.BYTE, from, t);
            }
        }
        final Status[] statuses = Request.Waitall(receives);
        Request.Waitall(sends);
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        for (int d = 1; d < n; d++)
        {
            final int from = (me + n - d) % n;
            for (int t = 0; t < perPartner; t++)
            {
                final int at = (d - 1) * perPartner + t;
                Check.equal(from, statuses[at].source, "flood: source of tag " + t + " from " + from);
                Check.equal(t, statuses[at].tag, "flood: tag from " + from);
                Check.equal(in[at].length, statuses[at].Get_count(MPI.BYTE),
                    "flood: count of tag " + t + " from " + from);
                for (int i = 0; i < in[at].length; i++)
                {
                    if (in[at][i] != Check.pattern(from, t, in[at].length, i))
                    {
                        throw new AssertionError("flood: message " + t + " from " + from + " byte " + i);
                    }
                }
            }
        }
        MPI.COMM_WORLD.Barrier();
        if (0 == me)
        {
            System.err.printf("EagerFlood: %d ranks, %d messages to each partner each way in %.2f s%n", n, perPartner,
                seconds);
        }
        System.out.println("EagerFlood OK");
        MPI.Finalize();
    }
}
