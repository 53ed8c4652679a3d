package io.pinmx.mpj.jgf;

import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.Intracomm;
import mpi.MPI;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Section 1 of the Java Grande Forum MPJ benchmarks: PingPong (2 ranks), Barrier, Bcast, Alltoall, Gather, Scatter
 * and Reduce over the suite's sizes and element types, each size timed by {@link DoublingTimer}. One line per size
 * on rank 0: {@code Section1:NAME:TYPE size N reps R time(s) T bytes/s P} (objects/s for object arrays,
 * barriers/s for Barrier).
 * <p>
 * An MPJ program: {@code bin/pinmx-run -np 2 --mpj io.pinmx.mpj.jgf.JgfSection1 [options] [BENCHMARK ...]}.
 */
public final class JgfSection1
{
    /** The suite's target time of one run. */
    static final double DEFAULT_TARGET_SECONDS = 10.0;
    private static final String USAGE = """
        usage: bin/pinmx-run -np N --mpj io.pinmx.mpj.jgf.JgfSection1 [options] [BENCHMARK ...]
          Java Grande Forum MPJ benchmarks, section 1, timed by the suite's doubling rule.
          BENCHMARK          PingPong (2 ranks only), Barrier, Bcast, Alltoall, Gather, Scatter, Reduce
                             (default: all that fit the number of ranks)
          --target-s S       seconds one timed run must last at least (default 10, the suite's)
          --max-elements N   skip the sizes above N elements (default: none skipped)
          --doubles-only     leave out the object-array variants
          exit status: 0 done, 1 a rank failed, 2 a bad argument
        """;

    private JgfSection1()
    {
    }

    /** The parsed program arguments. */
    record Options(List<Section1Kernel> kernels, double targetSeconds, int maxElements, boolean doublesOnly)
    {
        /**
         * @throws IllegalArgumentException naming the bad argument.
         */
        static Options parse(final String[] own, final int ranks)
        {
            final List<Section1Kernel> kernels = new ArrayList<>();
            double target = DEFAULT_TARGET_SECONDS;
            int maxElements = Integer.MAX_VALUE;
            boolean doublesOnly = false;
            for (int i = 0; i < own.length; i++)
            {
                switch (own[i])
                {
                    case "--target-s" -> target = positive(own, ++i, "--target-s");
                    case "--max-elements" -> maxElements = (int)Math.min(Integer.MAX_VALUE, positive(own, ++i, "--max-elements"));
                    case "--doubles-only" -> doublesOnly = true;
                    default -> kernels.add(Section1Kernel.named(own[i]));
                }
            }
            if (kernels.isEmpty())
            {
                kernels.addAll(Arrays.asList(Section1Kernel.values()));
                if (2 != ranks)
                {
                    kernels.remove(Section1Kernel.PING_PONG);
                }
            }
            else if (kernels.contains(Section1Kernel.PING_PONG) && 2 != ranks)
            {
                throw new IllegalArgumentException("PingPong runs on exactly 2 ranks, not " + ranks);
            }
            return new Options(kernels, target, maxElements, doublesOnly);
        }

        private static double positive(final String[] own, final int at, final String option)
        {
            if (at >= own.length)
            {
                throw new IllegalArgumentException(option + " needs a value");
            }
            try
            {
                final double value = Double.parseDouble(own[at]);
                if (value > 0)
                {
                    return value;
                }
            }
            catch (final NumberFormatException ignored)
            {
                // reported below
            }
            throw new IllegalArgumentException(option + " " + own[at] + " is not a positive number");
        }
    }

    public static void main(final String[] args) throws Exception
    {
        if (ProgramArguments.answered(MpjArguments.own(args), USAGE))
        {
            return;
        }
        final String device = args.length > 2 ? args[2] : "?";
        final String[] own = MPI.Init(args);
        final Intracomm comm = MPI.COMM_WORLD;
        final Options options;
        try
        {
            options = Options.parse(own, comm.Size());
        }
        catch (final IllegalArgumentException ex)
        {
            ProgramArguments.refuse("JgfSection1", ex.getMessage());
            return;
        }
        if (0 == comm.Rank())
        {
            System.out.printf("Java Grande Forum MPJ benchmarks (pinmx's implementation) - section 1%n");
            System.out.printf(Locale.ROOT, "Executing on %d processes, MPJ device %s, target %.3g s per run%n%n",
                comm.Size(), device, options.targetSeconds());
        }
        final DoublingTimer timer = new DoublingTimer(options.targetSeconds());
        for (final Section1Kernel kernel : options.kernels())
        {
            if (!kernel.movesData())
            {
                final DoublingTimer.Measurement m = timer.measure(comm, kernel, kernel.payload(Payload.ElementType.DOUBLE, 0, comm.Size()));
                print(comm, "Section1:" + kernel.label(), 0, m, m.repetitions(), "barriers");
                continue;
            }
            for (final Payload.ElementType type : kernel.elementTypes())
            {
                if (options.doublesOnly() && Payload.ElementType.DOUBLE != type)
                {
                    continue;
                }
                for (int step = 0; step < kernel.steps() && kernel.elements(step) <= options.maxElements(); step++)
                {
                    final int count = kernel.elements(step);
                    final DoublingTimer.Measurement m = timer.measure(comm, kernel, kernel.payload(type, count, comm.Size()));
                    print(comm, "Section1:" + kernel.label() + ":" + type.label(), count, m,
                        (double)m.repetitions() * count * type.operationsPerElement(), type.unit());
                }
            }
        }
        MPI.Finalize();
    }

    private static void print(final Intracomm comm, final String name, final int count,
        final DoublingTimer.Measurement m, final double operations, final String unit)
    {
        if (0 == comm.Rank())
        {
            // Under noise the barriers alone can take longer than the run they are subtracted from.
            final String rate = m.seconds() > 0 ? String.format(Locale.ROOT, "%12.4g", operations / m.seconds()) :
                "n/a (the barriers took longer than the run)";
            System.out.printf(Locale.ROOT, "%-28s size %8d  reps %8d  time(s) %8.4f  %s/s %s%n", name, count,
                m.repetitions(), m.seconds(), unit, rate);
            System.out.flush();
        }
    }
}
