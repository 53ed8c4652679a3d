package io.pinmx.mpj.bench;

import mpi.Intracomm;
import mpi.MPI;

import java.util.Locale;

/**
 * IMB PingPong as an MPJ Express program, so one code runs on any MPJ device (pinmx's mxdev, MPJ's niodev) for a
 * same-run comparison: rank 0 sends, rank 1 returns, t is half the round trip, MB = 10^6 bytes, sizes 0 and
 * 2^a..2^b ({@code -msglog a:b}, default 0:22), IMB's repetitions (1000, fewer above 40 KiB volume), IMB's 2
 * untimed repetitions and a barrier before each size. Messages are MPJ byte arrays ({@code Send}/{@code Recv} of
 * {@code MPI.BYTE}), as an MPJ user writes them: MPJ copies them into and out of its direct buffers on either
 * device. Before the table, {@link #WARM_UP_PASSES} untimed passes over every size (up to
 * {@link #WARM_UP_REPETITIONS} each) let the JIT compile every path. Extra ranks wait at the barriers.
 * <p>
 * {@code main(RANK CONFIG DEVICE [-msglog a:b])}.
 */
public final class MpjPingPong
{
    static final int WARM_UP_PASSES = 3;
    static final int WARM_UP_REPETITIONS = 200;
    private static final int IMB_WARM_UP = 2;
    private static final int MSGS_PER_SAMPLE = 1000;
    private static final long OVERALL_VOLUME_BYTES = 40L * 1048576;
    private static final int TAG = 1;

    private MpjPingPong()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String device = args.length > 2 ? args[2] : "?";
        final int[] logs = msglog(MPI.Init(args), "MpjPingPong", 0);
        final Intracomm comm = MPI.COMM_WORLD;
        final int rank = comm.Rank();
        if (comm.Size() < 2)
        {
            throw new IllegalArgumentException("PingPong needs at least 2 ranks, got " + comm.Size());
        }
        final byte[] buffer = new byte[1 << logs[1]];
        final long warmStartNs = System.nanoTime();
        for (int pass = 0; pass < WARM_UP_PASSES; pass++)
        {
            for (int s = -1; s <= logs[1] - logs[0]; s++)
            {
                final int bytes = s < 0 ? 0 : 1 << (logs[0] + s);
                exchange(comm, rank, buffer, bytes, Math.min(WARM_UP_REPETITIONS, repetitions(bytes)));
            }
        }
        comm.Barrier();
        if (0 == rank)
        {
            System.out.println("#---------------------------------------------------");
            System.out.println("# Benchmarking PingPong (MPJ Express, byte[] Send/Recv)");
            System.out.println("# #processes = 2 (of " + comm.Size() + ")");
            System.out.println("# MPJ device = " + device);
            System.out.printf(Locale.ROOT, "# JIT warm-up: %d passes over every size (<= %d repetitions), %.1f s%n",
                WARM_UP_PASSES, WARM_UP_REPETITIONS, (System.nanoTime() - warmStartNs) / 1e9);
            System.out.println("#---------------------------------------------------");
            System.out.printf(Locale.ROOT, "%12s %12s %12s %12s%n", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec");
        }
        for (int s = -1; s <= logs[1] - logs[0]; s++)
        {
            final int bytes = s < 0 ? 0 : 1 << (logs[0] + s);
            final int reps = repetitions(bytes);
            exchange(comm, rank, buffer, bytes, IMB_WARM_UP);
            comm.Barrier();
            final long startNs = System.nanoTime();
            exchange(comm, rank, buffer, bytes, reps);
            final double halfRoundTripUsec = (System.nanoTime() - startNs) / 1e3 / reps / 2;
            if (0 == rank)
            {
                System.out.printf(Locale.ROOT, "%12d %12d %12.2f %12.2f%n",
                    bytes, reps, halfRoundTripUsec, bytes / halfRoundTripUsec);
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void exchange(final Intracomm comm, final int rank, final byte[] buffer, final int bytes,
        final int reps)
    {
        if (0 == rank)
        {
            for (int i = 0; i < reps; i++)
            {
                comm.Send(buffer, 0, bytes, MPI.BYTE, 1, TAG);
                comm.Recv(buffer, 0, bytes, MPI.BYTE, 1, TAG);
            }
        }
        else if (1 == rank)
        {
            for (int i = 0; i < reps; i++)
            {
                comm.Recv(buffer, 0, bytes, MPI.BYTE, 0, TAG);
                comm.Send(buffer, 0, bytes, MPI.BYTE, 0, TAG);
            }
        }
    }

    /** IMB's rule: 1000, or fewer so that one size moves at most 40 MiB. */
    static int repetitions(final int bytes)
    {
        return 0 == bytes ? MSGS_PER_SAMPLE : (int)Math.max(1, Math.min(MSGS_PER_SAMPLE, OVERALL_VOLUME_BYTES / bytes));
    }

    /**
     * @param lowest the smallest log the program can use (Allreduce: 2, one int).
     * @return {a, b} of {@code -msglog a:b} in the program's own arguments, or {lowest, 22} without them.
     * @throws IllegalArgumentException naming the program and the bad argument.
     */
    static int[] msglog(final String[] own, final String program, final int lowest)
    {
        if (0 == own.length)
        {
            return new int[]{lowest, 22};
        }
        final String usage = "-msglog " + (2 == own.length ? own[1] : "") + ": expected a:b with " + lowest +
            " <= a <= b <= 30";
        if (2 != own.length || !"-msglog".equals(own[0]))
        {
            throw new IllegalArgumentException("usage: " + program + " [-msglog a:b], got " + String.join(" ", own));
        }
        final String[] ab = own[1].split(":", -1);
        try
        {
            final int a = 2 == ab.length ? Integer.parseInt(ab[0]) : lowest;
            final int b = Integer.parseInt(ab[ab.length - 1]);
            if (ab.length > 2 || a < lowest || b < a || b > 30)
            {
                throw new IllegalArgumentException(usage);
            }
            return new int[]{a, b};
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(usage);
        }
    }
}
