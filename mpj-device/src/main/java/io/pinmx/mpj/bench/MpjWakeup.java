package io.pinmx.mpj.bench;

import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.Intracomm;
import mpi.MPI;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

/**
 * How late a rank blocked in {@code Recv} learns of a message sent by a partner that computed first: the pattern of
 * every collective in NPB IS, where one rank waits on another still sorting. Each round rank 0 computes (busy, no MPJ
 * call) for {@code -compute-us}, reads the clock, sends 64 bytes carrying that time to rank 1, which has been in
 * {@code Recv} since the round began and reads the clock on its return; rank 1 then answers so both start the next
 * round together. Same host, so both read the same monotonic clock. Prints the median, 90th percentile and largest
 * wake-up of {@code -rounds} rounds, in microseconds, after {@value #WARM_UP_ROUNDS} untimed rounds of
 * {@value #WARM_UP_COMPUTE_US} us each (longer than either device polls before it blocks, so the JIT compiles the
 * blocked path: with a few untimed rounds the median measures interpreted code, not the wake-up).
 * <p>
 * {@code main(RANK CONFIG DEVICE [-rounds N] [-compute-us N])}, defaults 200 rounds of 2000 us.
 */
public final class MpjWakeup
{
    private static final int BYTES = 64;
    private static final int WARM_UP_ROUNDS = 2000;
    private static final int WARM_UP_COMPUTE_US = 150;
    private static final int TAG = 7;

    private static final String USAGE = """
        usage: bin/pinmx-run -np 2 --mpj io.pinmx.mpj.bench.MpjWakeup [-rounds N] [-compute-us N]
          How late a rank blocked in Recv learns of a message from a partner that computed first (defaults 200
          rounds of 2000 us); prints the median, 90th percentile and largest wake-up in microseconds.
          Reads PINMX_MPJ_PROGRESS and the job's PINMX_* variables (bin/pinmx-run --help, docs/environment.md).
          exit status: 0 done, 1 a rank failed
        """;

    private MpjWakeup()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (ProgramArguments.answered(MpjArguments.own(args), USAGE))
        {
            return;
        }
        final String[] own = MPI.Init(args);
        int rounds = 200;
        long computeNs = 2_000_000;
        for (int i = 0; i < own.length; i++)
        {
            switch (own[i])
            {
                case "-rounds" -> rounds = positive(own, ++i);
                case "-compute-us" -> computeNs = 1000L * positive(own, ++i);
                default -> throw new IllegalArgumentException("MpjWakeup: unknown argument '" + own[i] +
                    "' (expected -rounds N, -compute-us N)");
            }
        }
        final Intracomm comm = MPI.COMM_WORLD;
        if (comm.Size() != 2)
        {
            throw new IllegalArgumentException("MpjWakeup needs 2 ranks, got " + comm.Size());
        }
        final byte[] message = new byte[BYTES];
        final ByteBuffer view = ByteBuffer.wrap(message);
        final long[] wakeNs = new long[rounds];
        comm.Barrier();
        for (int round = -WARM_UP_ROUNDS; round < rounds; round++)
        {
            if (0 == comm.Rank())
            {
                final long until = System.nanoTime() + (round < 0 ? 1000L * WARM_UP_COMPUTE_US : computeNs);
                while (System.nanoTime() < until)
                {
                    Thread.onSpinWait();
                }
                view.putLong(0, System.nanoTime());
                comm.Send(message, 0, BYTES, MPI.BYTE, 1, TAG);
                comm.Recv(message, 0, BYTES, MPI.BYTE, 1, TAG);
            }
            else
            {
                comm.Recv(message, 0, BYTES, MPI.BYTE, 0, TAG);
                final long lateNs = System.nanoTime() - view.getLong(0);
                if (round >= 0)
                {
                    wakeNs[round] = lateNs;
                }
                comm.Send(message, 0, BYTES, MPI.BYTE, 0, TAG);
            }
        }
        final long[] all = new long[rounds];
        comm.Reduce(wakeNs, 0, all, 0, rounds, MPI.LONG, MPI.SUM, 0);
        if (0 == comm.Rank())
        {
            Arrays.sort(all);
            System.out.printf(Locale.ROOT, "# MPJ wake-up: %d rounds, %d us of computing before each send of %d B%n",
                rounds, computeNs / 1000, BYTES);
            System.out.printf(Locale.ROOT, "wake-up us: median %.1f p90 %.1f max %.1f%n", all[rounds / 2] / 1e3,
                all[rounds * 9 / 10] / 1e3, all[rounds - 1] / 1e3);
        }
        MPI.Finalize();
    }

    private static int positive(final String[] args, final int i)
    {
        if (i >= args.length || !args[i].matches("[1-9][0-9]{0,8}"))
        {
            throw new IllegalArgumentException("MpjWakeup: " + args[i - 1] + " needs a positive number");
        }
        return Integer.parseInt(args[i]);
    }
}
