package io.pinmx.bench.osc;

import io.pinmx.bench.BenchmarkRun;
import io.pinmx.job.JitQuiet;
import io.pinmx.job.Job;
import io.pinmx.job.RankBinding;
import io.pinmx.pin.select.PinmxVersion;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaMutexes;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * OSU-style one-sided benchmarks over {@link Rma}, two ranks: rank 0 is the origin, rank 1 the target (its
 * application thread waits in a barrier; on the shared-memory tier nothing of it is involved, through the driver
 * its data-server thread and its endpoint serve). The C baseline {@code rma/bench/armci_osc.c} runs the same
 * programs with ARMCI-MPI; keep the two in step.
 * <ul>
 *     <li>Latency programs: per size (1 B .. MAX doubling; 8 B up for accumulate; 8 B only for fetch-and-add, swap,
 *     lock), OSU's counts: 10000 timed iterations after 100 skipped up to 8 KiB, 1000 after 10 above; the time of
 *     one iteration.</li>
 *     <li>Bandwidth programs: windows of 32 non-blocking operations (implicit handles) completed by waitAll (and a
 *     fence for put), 100 timed windows after 10 up to 8 KiB, 20 after 2 above; MB/s = 10^6 B/s.</li>
 *     <li>Strided: an N x N block of doubles in row-major matrices of 512 doubles per row on both sides, as one
 *     strided call and as N contiguous calls; per block, after a tenth as many untimed.</li>
 *     <li>Compute window: rank 1 computes for the window without calling the library while rank 0 issues 1000
 *     blocking 8 B operations of each kind on it; the operations complete before the window ends are counted.</li>
 * </ul>
 * Java only: before each program's timed sweep, one untimed pass of the same sweep (the JIT compiles the paths the
 * sweep takes), one loop with as many iterations up to 8 KiB and a tenth as many above, then at full counts passes
 * of a tenth of that until the JIT compiler threads of both ranks are quiet; the strided table runs once untimed.
 * Every row, of both, is the median of the timed loops ({@code -l}, default 5). Rank 0's application thread is bound
 * to a CPU per rank, as mpirun binds the C ranks.
 * <p>
 * Run: {@code bin/pinmx-run -np 2 osu_put_latency [-m MAX_BYTES] ...} or {@code ... OscBench all}.
 */
public final class OscBench
{
    static final long LARGE_MESSAGE_BYTES = 8192;
    static final int WINDOW_OPERATIONS = 32;
    static final int WARM_UP_DIVISOR = 10;

    private final OscOptions options;
    private final Job job;
    private final PrintStream out;

    private OscBench(final OscOptions options, final Job job, final PrintStream out)
    {
        this.options = options;
        this.job = job;
        this.out = out;
    }

    public static void main(final String[] args)
    {
        final String name = args.length > 0 && !args[0].startsWith("-") ? args[0] : "OscBench";
        if (Arrays.asList(args).contains("--version"))
        {
            System.out.println(PinmxVersion.line());
            return;
        }
        final OscOptions options;
        try
        {
            options = OscOptions.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            if (BenchmarkRun.reportsUsageErrors(System.getenv()))
            {
                System.err.println(name + ": " + ex.getMessage() + " (" + name + " --help lists the options)");
            }
            System.exit(BenchmarkRun.EXIT_USAGE);
            return;
        }
        if (options.help())
        {
            System.out.print(OscOptions.help("OscBench".equals(name) ? null : name));
            return;
        }
        try (Job job = Job.join(System.getenv()))
        {
            if (2 != job.size())
            {
                if (0 == job.rank())
                {
                    System.err.println(name + ": needs 2 ranks (an origin and a target), not " + job.size() +
                        ": bin/pinmx-run -np 2 " + name);
                }
                System.exit(BenchmarkRun.EXIT_USAGE);
            }
            try (RankBinding binding = RankBinding.bind(job, System.getenv());
                Rma rma = Rma.init(job);
                Arena arena = Arena.ofShared())
            {
                new OscBench(options, job, System.out).run(rma, arena, binding.description());
            }
        }
    }

    private void run(final Rma rma, final Arena arena, final String binding)
    {
        final long bytes = Math.max(options.maxBytes(), StridedTable.matrixBytes(options.maxN()));
        final RmaAllocation slices = rma.alloc(bytes);
        final RmaMutexes mutexes = rma.locks().createMutexes(Origin.TARGET == rma.rank() ? 1 : 0);
        final Origin origin = new Origin(rma, slices, mutexes, arena.allocate(bytes, 4096));
        final String implementation = "pinmx rma (Java), " + rma.tier(Origin.TARGET) + " tier; rank 0's " +
            "application thread: " + binding;
        for (final OscProgram p : OscProgram.values())
        {
            if (options.runs(p))
            {
                section(p, implementation);
                runProgram(p, origin);
            }
        }
        rma.locks().destroyMutexes(mutexes);
        rma.free(slices);
    }

    private void section(final OscProgram p, final String implementation)
    {
        if (0 == job.rank())
        {
            out.println(p.header(implementation, options.loops()));
            out.flush();
        }
    }

    private void runProgram(final OscProgram p, final Origin origin)
    {
        switch (p)
        {
            case OSU_PUT_LATENCY -> sweep(origin, OscOp.PUT, false, Math.max(1, options.minBytes()), options.maxBytes());
            case OSU_GET_LATENCY -> sweep(origin, OscOp.GET, false, Math.max(1, options.minBytes()), options.maxBytes());
            case OSU_ACC_LATENCY -> sweep(origin, OscOp.ACC, false, Math.max(Double.BYTES, options.minBytes()), options.maxBytes());
            case OSU_FOP_LATENCY -> sweep(origin, OscOp.FETCH_ADD, false, Long.BYTES, Long.BYTES);
            case OSU_SWAP_LATENCY -> sweep(origin, OscOp.SWAP, false, Long.BYTES, Long.BYTES);
            case OSU_LOCK_LATENCY -> sweep(origin, OscOp.LOCK, false, Long.BYTES, Long.BYTES);
            case OSU_PUT_BW -> sweep(origin, OscOp.PUT, true, Math.max(1, options.minBytes()), options.maxBytes());
            case OSU_GET_BW -> sweep(origin, OscOp.GET, true, Math.max(1, options.minBytes()), options.maxBytes());
            case ARMCI_STRIDED -> new StridedTable(origin, options, job, out).run();
            case COMPUTE_WINDOW -> new ComputeWindow(origin, options, job, out).run();
        }
    }

    /**
     * The size sweep of a latency program ({@code windows} false: microseconds per operation) or a bandwidth program
     * ({@code windows} true, op PUT or GET: MB/s over windows of {@link #WINDOW_OPERATIONS}): first untimed (at full
     * counts until the JIT is quiet, see {@link #warmUp}), then timed; each row the median of the timed loops.
     */
    private void sweep(final Origin origin, final OscOp op, final boolean windows, final long minBytes,
        final long maxBytes)
    {
        final long startNs = System.nanoTime();
        pass(origin, op, windows, minBytes, maxBytes, Pass.UNTIMED);
        if (1 == options.divisor())
        {
            final JitQuiet.Outcome warmUp = JitQuiet.untilQuiet(JitQuiet.votesOf(job), startNs,
                () -> pass(origin, op, windows, minBytes, maxBytes, Pass.QUIET_CHECK));
            if (!warmUp.quiet() && 0 == job.rank())
            {
                // the table's layout is OSU's, with no line for this: say it beside the table
                System.err.println("OscBench: " + op + " sweep timed with the JIT still compiling after " +
                    warmUp.passes() + " untimed pass(es) over " + warmUp.elapsedNs() / 1_000_000 + " ms");
            }
        }
        pass(origin, op, windows, minBytes, maxBytes, Pass.TIMED);
    }

    /** What a pass over a sweep's sizes is for: see {@link #warmUp}. */
    private enum Pass
    {
        UNTIMED,
        QUIET_CHECK,
        TIMED
    }

    private void pass(final Origin origin, final OscOp op, final boolean windows, final long minBytes,
        final long maxBytes, final Pass pass)
    {
        final Rma rma = origin.rma();
        final double[] values = new double[options.loops()];
        final boolean timed = Pass.TIMED == pass;
        for (long bytes = minBytes; bytes <= maxBytes; bytes *= 2)
        {
            final long skip = windows ? bandwidthSkip(bytes, pass) : latencySkip(bytes, pass);
            final long n = windows ? bandwidthIterations(bytes, pass) : latencyIterations(bytes, pass);
            rma.barrier();
            if (0 == job.rank())
            {
                final MemorySegment buffer = origin.view(bytes);
                for (int l = 0; l < (timed ? values.length : 1); l++)
                {
                    long start = System.nanoTime();
                    for (long i = 0; i < skip + n; i++)
                    {
                        if (i == skip)
                        {
                            start = System.nanoTime();
                        }
                        if (windows)
                        {
                            window(rma, origin, buffer, OscOp.PUT == op);
                        }
                        else
                        {
                            origin.perform(op, buffer);
                        }
                    }
                    final double us = (System.nanoTime() - start) / 1e3;
                    values[l] = windows ? (double)bytes * WINDOW_OPERATIONS * n / us : us / n;
                }
                if (timed)
                {
                    row(bytes, OscOptions.median(values));
                }
            }
            rma.barrier();
        }
    }

    /** One window: {@link #WINDOW_OPERATIONS} non-blocking operations on implicit handles, completed together. */
    private static void window(final Rma rma, final Origin origin, final MemorySegment buffer, final boolean put)
    {
        for (int w = 0; w < WINDOW_OPERATIONS; w++)
        {
            if (put)
            {
                rma.nbPut(buffer, origin.slices(), Origin.TARGET, 0, null);
            }
            else
            {
                rma.nbGet(origin.slices(), Origin.TARGET, 0, buffer, null);
            }
        }
        rma.waitAll();
        rma.fence(Origin.TARGET);
    }

    private long latencyIterations(final long bytes, final Pass pass)
    {
        return warmUp(bytes, options.timed(bytes > LARGE_MESSAGE_BYTES ? 1000 : 10000), pass);
    }

    private long latencySkip(final long bytes, final Pass pass)
    {
        return warmUp(bytes, options.skipped(bytes > LARGE_MESSAGE_BYTES ? 10 : 100), pass);
    }

    private long bandwidthIterations(final long bytes, final Pass pass)
    {
        return warmUp(bytes, options.timed(bytes > LARGE_MESSAGE_BYTES ? 20 : 100), pass);
    }

    private long bandwidthSkip(final long bytes, final Pass pass)
    {
        return warmUp(bytes, options.skipped(bytes > LARGE_MESSAGE_BYTES ? 2 : 10), pass);
    }

    /**
     * The untimed pass: as many iterations as timed up to 8 KiB (C2 compiles after ~10^4 runs), a tenth above. At
     * full counts ({@code -d 1}) passes of a tenth of that follow until the JIT is quiet on both ranks
     * ({@link JitQuiet#untilQuiet}): after the untimed pass alone C2 can still be compiling a path (the
     * fetch-and-add's) while the first timed loops run.
     */
    private static long warmUp(final long bytes, final long count, final Pass pass)
    {
        return switch (pass)
        {
            case TIMED -> count;
            case UNTIMED -> bytes <= LARGE_MESSAGE_BYTES ? count : Math.max(1, count / WARM_UP_DIVISOR);
            case QUIET_CHECK -> Math.max(1, count / WARM_UP_DIVISOR);
        };
    }

    private void row(final long bytes, final double value)
    {
        out.printf("%-10d%18.3f%n", bytes, value);
        out.flush();
    }
}
