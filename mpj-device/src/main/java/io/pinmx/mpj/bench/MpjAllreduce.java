package io.pinmx.mpj.bench;

import io.pinmx.job.JitQuiet;
import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.Intracomm;
import mpi.MPI;

import java.util.Locale;

/**
 * IMB Allreduce as an MPJ Express program (the collective NPB IS calls once per iteration, there on 1029 ints):
 * every rank calls {@code Allreduce} of {@code int} sums, sizes 4 B and 2^a..2^b bytes ({@code -msglog a:b}, default
 * 2:22), IMB's repetitions (1000, fewer above 40 MB of volume) after 2 untimed ones and a barrier, and untimed
 * passes over every size until the JIT is quiet ({@link ImbRules#warmUp}). Prints IMB's columns: bytes,
 * repetitions, and the fastest, slowest and mean rank's time per call in microseconds.
 * <p>
 * {@code main(RANK CONFIG DEVICE [-msglog a:b])}.
 */
public final class MpjAllreduce
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N --mpj io.pinmx.mpj.bench.MpjAllreduce [-msglog a:b]
          IMB Allreduce of ints over MPJ Express; sizes 2^a..2^b bytes.
          Reads PINMX_MPJ_PROGRESS and the job's PINMX_* variables (bin/pinmx-run --help, docs/environment.md).
          exit status: 0 done, 1 a rank failed
        """;

    private MpjAllreduce()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (ProgramArguments.answered(MpjArguments.own(args), USAGE))
        {
            return;
        }
        final String device = args.length > 2 ? args[2] : "?";
        final int[] logs = ImbRules.msglog(MPI.Init(args), "MpjAllreduce", 2);
        final Intracomm comm = MPI.COMM_WORLD;
        final int ints = (1 << logs[1]) / Integer.BYTES;
        final int[] in = new int[ints];
        final int[] out = new int[ints];
        final JitQuiet.Outcome warmUp = ImbRules.warmUp(comm, () ->
        {
            for (int log = logs[0]; log <= logs[1]; log++)
            {
                reduce(comm, in, out, 1 << log,
                    Math.min(ImbRules.WARM_UP_REPETITIONS, ImbRules.repetitions(1 << log)));
            }
        });
        if (0 == comm.Rank())
        {
            System.out.println("#----------------------------------------------------------------");
            System.out.println("# Benchmarking Allreduce (MPJ Express, int[] MPI.SUM)");
            System.out.println("# #processes = " + comm.Size());
            System.out.println("# MPJ device = " + device);
            System.out.println("# JIT warm-up: " + warmUp.describe(
                "every size (<= " + ImbRules.WARM_UP_REPETITIONS + " repetitions each)"));
            System.out.println("#----------------------------------------------------------------");
            System.out.printf(Locale.ROOT, "%12s %12s %12s %12s %12s%n", "#bytes", "#repetitions", "t_min[usec]",
                "t_max[usec]", "t_avg[usec]");
        }
        for (int log = logs[0]; log <= logs[1]; log++)
        {
            final int bytes = 1 << log;
            final int reps = ImbRules.repetitions(bytes);
            reduce(comm, in, out, bytes, ImbRules.IMB_WARM_UP);
            comm.Barrier();
            final long startNs = System.nanoTime();
            reduce(comm, in, out, bytes, reps);
            final double[] usec = {(System.nanoTime() - startNs) / 1e3 / reps};
            final double[] min = new double[1];
            final double[] max = new double[1];
            final double[] sum = new double[1];
            comm.Reduce(usec, 0, min, 0, 1, MPI.DOUBLE, MPI.MIN, 0);
            comm.Reduce(usec, 0, max, 0, 1, MPI.DOUBLE, MPI.MAX, 0);
            comm.Reduce(usec, 0, sum, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
            if (0 == comm.Rank())
            {
                System.out.printf(Locale.ROOT, "%12d %12d %12.2f %12.2f %12.2f%n", bytes, reps, min[0], max[0],
                    sum[0] / comm.Size());
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void reduce(final Intracomm comm, final int[] in, final int[] out, final int bytes, final int reps)
    {
        final int count = bytes / Integer.BYTES;
        for (int i = 0; i < reps; i++)
        {
            comm.Allreduce(in, 0, out, 0, count, MPI.INT, MPI.SUM);
        }
    }
}
