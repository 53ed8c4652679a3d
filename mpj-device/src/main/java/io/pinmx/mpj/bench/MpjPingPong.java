package io.pinmx.mpj.bench;

import io.pinmx.job.JitQuiet;
import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.Intracomm;
import mpi.MPI;

import java.util.Arrays;
import java.util.Locale;

/**
 * IMB PingPong as an MPJ Express program, so one code runs on any MPJ device (pinmx's mxdev, MPJ's niodev) for a
 * same-run comparison: rank 0 sends, rank 1 returns, t is half the round trip, MB = 10^6 bytes, sizes 0 and
 * 2^a..2^b ({@code -msglog a:b}, default 0:22), IMB's repetitions (1000, fewer above 40 KiB volume), IMB's 2
 * untimed repetitions and a barrier before each size ({@code -reps N}: at least N timed repetitions per size). Rank 0
 * times each round trip alone too and prints the median half round trip beside IMB's mean: one descheduled
 * repetition of ten moves a mean, not a median. Messages are MPJ byte arrays ({@code Send}/{@code Recv} of
 * {@code MPI.BYTE}), as an MPJ user writes them: MPJ copies them into and out of its direct buffers on either
 * device. Before the table, untimed passes over every size (up to {@link ImbRules#WARM_UP_REPETITIONS} each) until
 * the JIT is quiet on every rank ({@link ImbRules#warmUp}). Extra ranks wait at the barriers.
 * <p>
 * {@code main(RANK CONFIG DEVICE [-msglog a:b] [-reps N])}.
 */
public final class MpjPingPong
{
    private static final int TAG = 1;

    private static final String USAGE = """
        usage: bin/pinmx-run -np N --mpj io.pinmx.mpj.bench.MpjPingPong [-msglog a:b] [-reps N]   (N >= 2)
          IMB PingPong between ranks 0 and 1 over MPJ Express; sizes 0 and 2^a..2^b bytes (default 0:22);
          -reps N: at least N timed repetitions per size (default IMB's: 1000, fewer above 40 KiB volume).
          Columns: #bytes #repetitions t[usec] (mean half round trip) Mbytes/sec t_median[usec].
          Reads PINMX_MPJ_PROGRESS and the job's PINMX_* variables (bin/pinmx-run --help, docs/environment.md).
          exit status: 0 done, 1 a rank failed
        """;

    private MpjPingPong()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (ProgramArguments.answered(MpjArguments.own(args), USAGE))
        {
            return;
        }
        final String device = args.length > 2 ? args[2] : "?";
        final PingPongArguments arguments = PingPongArguments.parse(MPI.Init(args));
        final int[] logs = arguments.logs();
        final Intracomm comm = MPI.COMM_WORLD;
        final int rank = comm.Rank();
        if (comm.Size() < 2)
        {
            throw new IllegalArgumentException("PingPong needs at least 2 ranks, got " + comm.Size());
        }
        final byte[] buffer = new byte[1 << logs[1]];
        final long[] roundTripNs = new long[arguments.repetitions(0)];
        final JitQuiet.Outcome warmUp = ImbRules.warmUp(comm, () ->
        {
            for (int s = -1; s <= logs[1] - logs[0]; s++)
            {
                final int bytes = s < 0 ? 0 : 1 << (logs[0] + s);
                exchange(comm, rank, buffer, bytes,
                    Math.min(ImbRules.WARM_UP_REPETITIONS, ImbRules.repetitions(bytes)), roundTripNs);
            }
        });
        comm.Barrier();
        if (0 == rank)
        {
            System.out.println("#---------------------------------------------------");
            System.out.println("# Benchmarking PingPong (MPJ Express, byte[] Send/Recv)");
            System.out.println("# #processes = 2 (of " + comm.Size() + ")");
            System.out.println("# MPJ device = " + device);
            System.out.println("# JIT warm-up: " + warmUp.describe(
                "every size (<= " + ImbRules.WARM_UP_REPETITIONS + " repetitions each)"));
            System.out.println("#---------------------------------------------------");
            System.out.printf(Locale.ROOT, "%12s %12s %12s %12s %15s%n",
                "#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "t_median[usec]");
        }
        for (int s = -1; s <= logs[1] - logs[0]; s++)
        {
            final int bytes = s < 0 ? 0 : 1 << (logs[0] + s);
            final int reps = arguments.repetitions(bytes);
            exchange(comm, rank, buffer, bytes, ImbRules.IMB_WARM_UP, roundTripNs);
            comm.Barrier();
            final long startNs = System.nanoTime();
            exchange(comm, rank, buffer, bytes, reps, roundTripNs);
            final double halfRoundTripUsec = (System.nanoTime() - startNs) / 1e3 / reps / 2;
            if (0 == rank)
            {
                Arrays.sort(roundTripNs, 0, reps);
                final double medianUsec = (roundTripNs[(reps - 1) / 2] + roundTripNs[reps / 2]) / 2e3 / 2;
                System.out.printf(Locale.ROOT, "%12d %12d %12.2f %12.2f %15.2f%n",
                    bytes, reps, halfRoundTripUsec, bytes / halfRoundTripUsec, medianUsec);
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    /** Rank 0 records each repetition's round trip in {@code roundTripNs}. */
    private static void exchange(final Intracomm comm, final int rank, final byte[] buffer, final int bytes,
        final int reps, final long[] roundTripNs)
    {
        if (0 == rank)
        {
            for (int i = 0; i < reps; i++)
            {
                final long startNs = System.nanoTime();
                comm.Send(buffer, 0, bytes, MPI.BYTE, 1, TAG);
                comm.Recv(buffer, 0, bytes, MPI.BYTE, 1, TAG);
                roundTripNs[i] = System.nanoTime() - startNs;
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
}
