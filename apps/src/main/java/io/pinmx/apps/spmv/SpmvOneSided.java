package io.pinmx.apps.spmv;

import io.pinmx.apps.EpochlessRmaOptions;
import io.pinmx.job.Job;
import io.pinmx.job.ProgramArguments;
import io.pinmx.rma.Rma;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Sparse matrix-vector multiplication over rma with the remote elements fetched per element, aggregated or as one
 * vector get per owner: {@code bin/pinmx-run -np N io.pinmx.apps.spmv.SpmvOneSided MATRIX SIZE MODE|all
 * [ITERATIONS]} (MATRIX stencil27, SIZE points per axis; or powerlaw, SIZE rows; ITERATIONS default 10). Rank 0
 * prints a report per mode; exits 1 when a product differs from the one-rank product, 2 on a bad argument (a
 * one-line error). SpMV opens no access epochs and says so at init ({@link EpochlessRmaOptions}).
 */
public final class SpmvOneSided
{
    private static final String USAGE = """
        usage: bin/pinmx-run -np N io.pinmx.apps.spmv.SpmvOneSided stencil27|powerlaw SIZE MODE [ITERATIONS]
          Sparse matrix-vector products over pinmx's one-sided layer, checked against one rank's product.
          MODE is per-element, aggregated, vector or all; ITERATIONS defaults to 10. Opens no access epochs and
          announces none unless PINMX_RMA_ACCESS_EPOCHS is set.
          exit status: 0 checked, 1 a product differs or a rank failed, 2 a bad argument
        """;
    static final int DEFAULT_ITERATIONS = 10;
    /** A stencil's rows must be int-indexed. */
    private static final int MAX_STENCIL_SIDE = 1_290;

    private SpmvOneSided()
    {
    }

    public static void main(final String[] args)
    {
        if (ProgramArguments.answered(args, USAGE))
        {
            return;
        }
        final MatrixKind kind;
        final int size;
        final List<FetchMode> modes;
        final int iterations;
        try
        {
            if (args.length < 3 || args.length > 4)
            {
                throw new IllegalArgumentException("usage: SpmvOneSided stencil27|powerlaw SIZE " +
                    "per-element|aggregated|vector|all [ITERATIONS], got " + args.length + " arguments");
            }
            kind = MatrixKind.named(args[0]);
            size = positive("size", args[1]);
            if (MatrixKind.STENCIL27 == kind && size > MAX_STENCIL_SIDE)
            {
                throw new IllegalArgumentException("stencil27 size " + size + " is above " + MAX_STENCIL_SIDE);
            }
            modes = "all".equals(args[2]) ? List.of(FetchMode.values()) : List.of(FetchMode.named(args[2]));
            iterations = args.length == 4 ? positive("iterations", args[3]) : DEFAULT_ITERATIONS;
        }
        catch (final IllegalArgumentException ex)
        {
            refuse(ex);
            return;
        }
        boolean verified = true;
        try (Job job = Job.join(System.getenv()))
        {
            try
            {
                new RowBlocks(kind.rows(size), job.size());
            }
            catch (final IllegalArgumentException ex)
            {
                refuse(ex);
            }
            try (Rma rma = Rma.init(job, EpochlessRmaOptions.fromEnvironment(System.getenv())))
            {
                for (final FetchMode mode : modes)
                {
                    final SpmvRun run = SpmvRun.of(rma, kind, size, mode, iterations);
                    if (0 == rma.rank())
                    {
                        report(System.out, run);
                    }
                    verified &= run.verified();
                }
            }
        }
        if (!verified)
        {
            System.exit(1);
        }
    }

    static void report(final PrintStream out, final SpmvRun run)
    {
        out.printf(Locale.ROOT, "%n SpMV Benchmark Completed.%n");
        line(out, "Matrix", run.kind().word() + " " + run.size());
        line(out, "Rows", Long.toString(run.rows()));
        line(out, "Nonzeros", Long.toString(run.nonzeros()));
        line(out, "Remote elements", Long.toString(run.ghosts()));
        line(out, "Gets", run.mode().word());
        line(out, "Iterations", Integer.toString(run.iterations()));
        line(out, "Time in seconds", String.format(Locale.ROOT, "%.4f", run.seconds()));
        line(out, "Fetch seconds", String.format(Locale.ROOT, "%.4f", run.fetchSeconds()));
        line(out, "Total processes", Integer.toString(run.ranks()));
        line(out, "Max rel. error", String.format(Locale.ROOT, "%.3e", run.maxError()));
        line(out, "Verification", run.verified() ? "SUCCESSFUL" : "UNSUCCESSFUL");
        out.flush();
    }

    private static void line(final PrintStream out, final String name, final String value)
    {
        out.printf(Locale.ROOT, " %-16s=%25s%n", name, value);
    }

    private static int positive(final String name, final String text)
    {
        try
        {
            final int value = Integer.parseInt(text);
            if (value > 0)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // refused below, naming the text
        }
        throw new IllegalArgumentException(name + " '" + text + "' is not a positive integer");
    }

    private static void refuse(final IllegalArgumentException ex)
    {
        System.err.println("SpMV: " + ex.getMessage());
        System.exit(2);
    }
}
