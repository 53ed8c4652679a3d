package io.pinmx.mpj.bench;

import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

import java.util.Arrays;
import java.util.Locale;

/**
 * The time of each single collective, not of a run: the Java Grande section 1 pattern (a Reduce or Scatter of
 * {@code -doubles} doubles to rank 0, then a Barrier), NPB IS's key exchange (an Alltoallv of {@code -doubles}
 * doubles to every rank, then a Barrier), or the own part of either (each rank's Irecv from itself, Send to itself
 * and Wait of {@code -doubles} doubles, then a Barrier), timed operation by operation on rank 0, so a run whose mean is
 * far above its median shows a few stalled operations rather than a slower path. Prints, per round of {@code -reps}
 * operations, the mean, median, 90th and 99th percentiles and the largest in microseconds, and how many operations
 * took over {@value #STALL_US} us; the first round runs while the JIT still compiles the path.
 * <p>
 * {@code main(RANK CONFIG DEVICE [-op reduce|scatter|alltoallv|self] [-doubles N] [-reps N] [-rounds N])}, defaults
 * reduce, 4472 doubles (the suite's 35 KB size), 2000 operations, 3 rounds.
 */
public final class MpjCollectiveTimes
{
    static final int STALL_US = 1000;

    private static final String USAGE = """
        usage: bin/pinmx-run -np N --mpj io.pinmx.mpj.bench.MpjCollectiveTimes [-op reduce|scatter|alltoallv|self]
                             [-doubles N] [-reps N] [-rounds N]
          Times each Reduce or Scatter (then Barrier) to rank 0 of -doubles doubles (default 4472), each
          Alltoallv of -doubles doubles to every rank, or each rank's message of -doubles doubles to itself
          (Irecv, Send, Wait; then Barrier), -reps per round (default 2000),
          -rounds rounds (default 3); prints each round's mean, median, p90, p99 and largest time in
          microseconds and how many operations took over 1000 us.
          Reads PINMX_MPJ_PROGRESS and the job's PINMX_* variables (bin/pinmx-run --help, docs/environment.md).
          exit status: 0 done, 1 a rank failed
        """;

    private enum Operation
    {
        REDUCE,
        SCATTER,
        ALLTOALLV,
        SELF
    }

    private MpjCollectiveTimes()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (ProgramArguments.answered(MpjArguments.own(args), USAGE))
        {
            return;
        }
        final String[] own = MPI.Init(args);
        Operation operation = Operation.REDUCE;
        int doubles = 4472;
        int reps = 2000;
        int rounds = 3;
        for (int i = 0; i < own.length; i++)
        {
            switch (own[i])
            {
                case "-op" -> operation = operation(own, ++i);
                case "-doubles" -> doubles = positive(own, ++i);
                case "-reps" -> reps = positive(own, ++i);
                case "-rounds" -> rounds = positive(own, ++i);
                default -> throw new IllegalArgumentException("MpjCollectiveTimes: unknown argument '" + own[i] +
                    "' (expected -op reduce|scatter|alltoallv|self, -doubles N, -reps N, -rounds N)");
            }
        }
        final Intracomm comm = MPI.COMM_WORLD;
        final int size = comm.Size();
        final double[] send = new double[doubles * size];
        final double[] receive = new double[doubles * size];
        Arrays.fill(send, 1.0 + comm.Rank());
        final long[] opNs = new long[reps];
        final int[] counts = new int[size];
        final int[] offsets = new int[size];
        for (int r = 0; r < size; r++)
        {
            counts[r] = doubles;
            offsets[r] = r * doubles;
        }
        for (int round = 0; round < rounds; round++)
        {
            comm.Barrier();
            for (int i = 0; i < reps; i++)
            {
                final long startNs = System.nanoTime();
                if (Operation.REDUCE == operation)
                {
                    comm.Reduce(send, 0, receive, 0, doubles, MPI.DOUBLE, MPI.SUM, 0);
                }
                else if (Operation.SCATTER == operation)
                {
                    comm.Scatter(send, 0, doubles, MPI.DOUBLE, receive, 0, doubles, MPI.DOUBLE, 0);
                }
                else if (Operation.ALLTOALLV == operation)
                {
                    comm.Alltoallv(send, 0, counts, offsets, MPI.DOUBLE, receive, 0, counts, offsets, MPI.DOUBLE);
                }
                else
                {
                    final Request fromSelf = comm.Irecv(receive, 0, doubles, MPI.DOUBLE, comm.Rank(), 0);
                    comm.Send(send, 0, doubles, MPI.DOUBLE, comm.Rank(), 0);
                    fromSelf.Wait();
                }
                comm.Barrier();
                opNs[i] = System.nanoTime() - startNs;
            }
            check(operation, comm.Rank(), size, receive, doubles);
            if (0 == comm.Rank())
            {
                print(operation, doubles, round, opNs);
            }
        }
        MPI.Finalize();
    }

    /** A stalled path that delivered wrong data would make its times meaningless: every element is checked. */
    private static void check(
        final Operation operation, final int rank, final int size, final double[] receive, final int doubles)
    {
        if (Operation.REDUCE == operation && 0 != rank)
        {
            return;
        }
        final int checked = Operation.ALLTOALLV == operation ? doubles * size : doubles;
        for (int i = 0; i < checked; i++)
        {
            final double expected = switch (operation)
            {
                case REDUCE -> size * (size + 1) / 2.0;
                case SCATTER -> 1.0;
                case ALLTOALLV -> 1.0 + i / doubles;
                case SELF -> 1.0 + rank;
            };
            if (receive[i] != expected)
            {
                throw new IllegalStateException("MpjCollectiveTimes: rank " + rank + " received " + receive[i] +
                    " at element " + i + ", expected " + expected);
            }
        }
    }

    private static void print(final Operation operation, final int doubles, final int round, final long[] opNs)
    {
        final long[] sorted = opNs.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        final long totalNs = Arrays.stream(sorted).sum();
        final long stalls = Arrays.stream(sorted).filter(ns -> ns > STALL_US * 1000L).count();
        System.out.printf(Locale.ROOT, "%s %d doubles round %d: %d ops, us mean %.1f p50 %.1f p90 %.1f p99 %.1f " +
            "max %.1f; over %d us: %d%n", operation.name().toLowerCase(Locale.ROOT), doubles, round, n,
            totalNs / 1e3 / n, sorted[n / 2] / 1e3, sorted[n * 9 / 10] / 1e3, sorted[n * 99 / 100] / 1e3,
            sorted[n - 1] / 1e3, STALL_US, stalls);
    }

    private static Operation operation(final String[] args, final int i)
    {
        for (final Operation operation : Operation.values())
        {
            if (i < args.length && operation.name().toLowerCase(Locale.ROOT).equals(args[i]))
            {
                return operation;
            }
        }
        throw new IllegalArgumentException("MpjCollectiveTimes: -op needs reduce, scatter, alltoallv or self");
    }

    private static int positive(final String[] args, final int i)
    {
        if (i >= args.length || !args[i].matches("[1-9][0-9]{0,8}"))
        {
            throw new IllegalArgumentException("MpjCollectiveTimes: " + args[i - 1] + " needs a positive number");
        }
        return Integer.parseInt(args[i]);
    }
}
