package io.pinmx.mpj.npb;

import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.Intracomm;
import mpi.MPI;

import java.util.Locale;

/**
 * NPB IS (Integer Sort) for MPJ Express, following NPB's specification: NPB's keys from its generator, one untimed
 * ranking iteration, then {@link KeyRanker#ITERATIONS} timed ones with the partial verification in each, the full
 * verification after them, and NPB's report on rank 0 (class, size, iterations, the slowest rank's time, Mop/s as
 * keys ranked per second, "Verification = SUCCESSFUL" when every test key of every iteration had its published
 * rank and every rank's keys came out sorted).
 * <p>
 * An MPJ program: {@code main(RANK CONFIG DEVICE CLASS)}, e.g. {@code bin/pinmx-run -np 2 --mpj
 * io.pinmx.mpj.npb.IntegerSort A}; power-of-two ranks. Exits 1 when the verification failed.
 */
public final class IntegerSort
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N --mpj io.pinmx.mpj.npb.IntegerSort CLASS   (N a power of two)
          NAS Parallel Benchmarks IS (integer sort) over MPJ Express on pinmx; CLASS is S, W, A or B.
          Reads PINMX_MPJ_PROGRESS (caller or thread), NPB_TIMERS (1: time each stage) and the job's PINMX_*
          variables (bin/pinmx-run --help, docs/environment.md).
          exit status: 0 verified, 1 verification failed or a rank failed, 2 a bad CLASS or rank count
        """;

    private IntegerSort()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (ProgramArguments.answered(MpjArguments.own(args), USAGE))
        {
            return;
        }
        final String device = args.length > 2 ? args[2] : "?";
        final String[] own = MPI.Init(args);
        if (own.length != 1)
        {
            throw new IllegalArgumentException("usage: IntegerSort CLASS (one of S, W, A, B), got " + own.length +
                " program arguments");
        }
        final IsClass cls = IsClass.named(own[0]);
        final Intracomm comm = MPI.COMM_WORLD;
        final int rank = comm.Rank();
        final StageTimers timers = StageTimers.fromEnvironment();
        final KeyRanker ranker = new KeyRanker(cls, comm, timers);
        if (0 == rank)
        {
            System.out.printf("%n%n NAS Parallel Benchmarks (pinmx, Java MPJ) -- IS Benchmark%n%n");
            System.out.printf(" Size:  %d  (class %s)%n", cls.totalKeys(), cls);
            System.out.printf(" Iterations:   %d%n", KeyRanker.ITERATIONS);
            System.out.printf(" Total number of processes:  %d%n", comm.Size());
            System.out.printf(" MPJ device:  %s%n", device);
        }
        ranker.generateKeys();
        ranker.rank(1);
        ranker.resetPassed();
        comm.Barrier();
        // MPJ's Wtime counts milliseconds, too coarse for class S.
        final long startNs = System.nanoTime();
        timers.start();
        for (int iteration = 1; iteration <= KeyRanker.ITERATIONS; iteration++)
        {
            ranker.rank(iteration);
        }
        final double[] elapsed = {(System.nanoTime() - startNs) / 1e9};
        final double[] slowest = new double[1];
        comm.Reduce(elapsed, 0, slowest, 0, 1, MPI.DOUBLE, MPI.MAX, 0);
        timers.report(comm);
        ranker.fullVerify();
        final int[] passed = {ranker.passed()};
        final int[] allPassed = new int[1];
        comm.Reduce(passed, 0, allPassed, 0, 1, MPI.INT, MPI.SUM, 0);
        final boolean successful = allPassed[0] == IsClass.TEST_KEYS * KeyRanker.ITERATIONS + comm.Size();
        if (0 == rank)
        {
            report(cls, comm.Size(), slowest[0], successful);
        }
        MPI.Finalize();
        if (0 == rank && !successful)
        {
            System.exit(1);
        }
    }

    private static void report(final IsClass cls, final int ranks, final double seconds, final boolean successful)
    {
        final double mops = (double)KeyRanker.ITERATIONS * cls.totalKeys() / seconds / 1e6;
        System.out.printf("%n%n IS Benchmark Completed.%n");
        line("Class", cls.name());
        line("Size", Integer.toString(cls.totalKeys()));
        line("Iterations", Integer.toString(KeyRanker.ITERATIONS));
        line("Time in seconds", String.format(Locale.ROOT, "%.4f", seconds));
        line("Total processes", Integer.toString(ranks));
        line("Mop/s total", String.format(Locale.ROOT, "%.2f", mops));
        line("Mop/s/process", String.format(Locale.ROOT, "%.2f", mops / ranks));
        line("Operation type", "keys ranked");
        line("Verification", successful ? "SUCCESSFUL" : "UNSUCCESSFUL");
        System.out.flush();
    }

    private static void line(final String name, final String value)
    {
        System.out.printf(Locale.ROOT, " %-16s=%25s%n", name, value);
    }
}
