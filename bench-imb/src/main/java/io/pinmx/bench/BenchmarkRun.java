package io.pinmx.bench;

import io.pinmx.job.JitQuiet;
import io.pinmx.job.Job;
import io.pinmx.job.JobRank;
import io.pinmx.pin.select.PinmxVersion;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one benchmark program on every rank: parse the options, join the job, measure each size over the
 * chosen transport (rank 0 prints each line as soon as it is measured), after, when asked, the same sizes
 * and repetitions over each baseline; then the comparison table and headline ratios ({@link ComparisonTable}), the
 * memory-copy limit, the plot and the result files for scripts (every size's ratios in {@code --json}).
 */
public final class BenchmarkRun
{
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    private static final String RULE = "#----------------------------------------------------------------";

    private final Benchmark benchmark;
    private final BenchOptions options;
    private final Job job;
    private final Map<String, String> env;
    private final PrintStream out;
    private final Instant startedAt = Instant.now();
    /** The measured transport's progress, up to its details: "pinmx: user driver", for the plot's title. */
    private String measuredOver = "";

    private BenchmarkRun(
        final Benchmark benchmark, final BenchOptions options, final Job job, final Map<String, String> env,
        final PrintStream out)
    {
        this.benchmark = benchmark;
        this.options = options;
        this.job = job;
        this.env = env;
        this.out = out;
    }

    /**
     * The whole of a benchmark program's {@code main}: runs it with this process's arguments, environment and
     * standard streams, then exits with {@link #run}'s status.
     */
    static void runAndExit(final Benchmark benchmark, final String[] args)
    {
        System.exit(run(benchmark, args, System.getenv(), System.out, System.err));
    }

    /**
     * @return the process exit status: 0, {@link #EXIT_FAILED} or {@link #EXIT_USAGE}.
     */
    public static int run(
        final Benchmark benchmark, final String[] args, final Map<String, String> env, final PrintStream out,
        final PrintStream err)
    {
        if (List.of(args).contains("--version"))
        {
            out.println(PinmxVersion.line());
            return 0;
        }
        final BenchOptions options;
        try
        {
            options = BenchOptions.parse(args, BenchOptions.style(benchmark.name()));
        }
        catch (final IllegalArgumentException ex)
        {
            if (reportsUsageErrors(env))
            {
                err.println(benchmark.name() + ": " + ex.getMessage() + " (" + benchmark.name() + " --help lists the arguments)");
            }
            return EXIT_USAGE;
        }
        if (options.help())
        {
            out.print(BenchOptions.help(benchmark.name()));
            out.flush();
            return 0;
        }
        try (Job job = Job.join(env))
        {
            if (job.size() < benchmark.minRanks())
            {
                err.println(benchmark.name() + ": needs at least " + benchmark.minRanks() + " ranks, the job has " +
                    job.size() + " (bin/pinmx-run -np " + benchmark.minRanks() + " " + benchmark.name() + ")");
                return EXIT_USAGE;
            }
            new BenchmarkRun(benchmark, options, job, env, out).run();
            return 0;
        }
        catch (final RuntimeException ex)
        {
            err.println(benchmark.name() + ": " + ex.getMessage());
            return EXIT_FAILED;
        }
    }

    /**
     * Every rank parses the same command line, so a bad one is said once, by rank 0 (or by a process started
     * outside a job); the other ranks only exit with {@link #EXIT_USAGE}.
     */
    public static boolean reportsUsageErrors(final Map<String, String> env)
    {
        try
        {
            return 0 == JobRank.fromEnvironment(env).rank();
        }
        catch (final IllegalArgumentException noRank)
        {
            return true;
        }
    }

    private void run()
    {
        final boolean root = 0 == job.rank();
        if (root)
        {
            printHeader();
        }
        // The baselines run first, blocking TCP first of all, in the processes' untouched state: the busy-polling
        // transports bind their thread to a CPU per rank, and a blocking TCP run after that finds its ranks left on
        // different vCPUs, where every blocking wake-up crosses to an idle vCPU and costs several times what it does
        // on a shared one.
        final Map<String, List<Measurement>> baselines = new LinkedHashMap<>();
        for (final String baseline : options.baselines())
        {
            baselines.put(baseline, measureOver(baseline));
        }
        final List<Measurement> measured = measureOver(options.transport());
        if (!root)
        {
            return;
        }
        final List<Ratio> allRatios = new ArrayList<>();
        baselines.forEach((name, baseline) -> allRatios.addAll(ratios(options.transport(), measured, name, baseline)));
        if (!baselines.isEmpty())
        {
            out.println(RULE);
            ComparisonTable.lines(options.transport(), measured, baselines).forEach(out::println);
            out.println(RULE);
            out.println("# headline ratios (latency below 1 and bandwidth above 1 favour " + options.transport() + ")");
            ComparisonTable.headline(allRatios, measured).forEach(r -> out.println(r.line()));
        }
        // Always the 4 MiB copy line; a size's ratio when the run measured it.
        for (final int bytes : MemcpyBandwidth.COMPARED_BYTES)
        {
            final Measurement m = measured.stream().filter(x -> x.bytes() == bytes).findFirst().orElse(null);
            if (!options.hasBaseline() || null == m && MemcpyBandwidth.DEFAULT_BYTES != bytes)
            {
                continue;
            }
            final double memcpy = MemcpyBandwidth.measure(bytes);
            out.printf("# memcpy (MemorySegment.copy, 1 thread, %d B, same run): %.2f Mbytes/sec%n", bytes, memcpy);
            if (null != m && Ratio.defined(m.mbytesPerSec(), memcpy))
            {
                final Ratio r = new Ratio(Ratio.BANDWIDTH, bytes, options.transport(), "memcpy",
                    m.mbytesPerSec() / memcpy);
                out.println(r.line());
                allRatios.add(r);
            }
        }
        if (null != options.csv())
        {
            ResultFiles.write(options.csv(), ResultFiles.csv(benchmark.name(), baselines, options.transport(), measured));
            out.println("# csv: " + options.csv().toAbsolutePath());
        }
        if (null != options.json())
        {
            ResultFiles.write(options.json(), ResultFiles.json(benchmark.name(), job.size(), baselines,
                options.transport(), measured, allRatios));
            out.println("# json: " + options.json().toAbsolutePath());
        }
        if (null != options.plot())
        {
            ResultPlot.write(options.plot(), benchmark.name(), options.transport(), measured, baselines,
                measuredOver + ", " + hostName() + ", " + startedAt.truncatedTo(ChronoUnit.MINUTES));
            out.println("# plot: " + options.plot().toAbsolutePath());
        }
        out.flush();
    }

    private void printHeader()
    {
        out.println("#------------------------------------------------------------");
        out.println("#    pinmx benchmarks, IMB/OSU style (io.pinmx.bench)");
        out.println("#------------------------------------------------------------");
        out.println("# Date                  : " + startedAt);
        out.println("# Processes             : " + job.size() + " (one JVM each)");
        out.println("# Message sizes         : 0 and 2^" + options.minLog() + "..2^" + options.maxLog() + " bytes");
        if (benchmark instanceof ImbBenchmark)
        {
            out.println("# Repetitions           : max(1, min(" + options.repetitions().perSample() + ", " +
                options.repetitions().overallVolumeBytes() + " B / size)) after " + Benchmark.WARMUP_ITERATIONS +
                " untimed (IMB's rule)");
            out.println("# Timed loops           : " + options.loops() + " per size, each after a barrier; the row is " +
                "the loop whose slowest rank's time is the median (-loops n)");
        }
        out.println("# Mbytes/sec            : 10^6 bytes per second");
        out.println("# Buffers               : 2 MiB aligned, MADV_HUGEPAGE (transparent huge pages: " +
            HugePageMemory.transparentHugePageMode() + "), touched before timing; the memcpy baseline's too");
        out.println("# Baselines             : " + (options.hasBaseline() ?
            String.join(", ", options.baselines()) + ", same run, same sizes, repetitions and buffers, before " +
                options.transport() : "none (--baseline tcp,tcp-busy,aeron)"));
        out.flush();
    }

    private List<Measurement> measureOver(final String transportName)
    {
        final int[] sizes = options.sizes();
        final List<Measurement> results = new ArrayList<>(sizes.length);
        if (0 == job.rank())
        {
            // Said before it starts: the warm-up is the one silent phase, and it may take seconds.
            out.println("# " + transportName + ": opening, then JIT warm-up (at most " +
                JitQuiet.MAX_WARMUP_NS / 1_000_000_000 + " s) before the first size");
            out.flush();
        }
        try (Transport transport = Transports.open(transportName, job, env);
            MessageBuffers buffers = new MessageBuffers(sizes[sizes.length - 1]))
        {
            final JitQuiet.Outcome warmUp = JitWarmUp.run(benchmark, transport, job, buffers, sizes);
            if (0 == job.rank())
            {
                out.println(RULE);
                out.println("# Benchmarking " + benchmark.name() + " over " + transport.name());
                out.println("# #processes = " + job.size());
                out.println("# progress: " + transport.progress());
                if (transportName.equals(options.transport()))
                {
                    measuredOver = transport.progress().split(" \\(|;|,", 2)[0];
                }
                out.println("# JIT warm-up: " + Benchmark.JIT_WARMUP_REPETITIONS + " repetitions of " + sizes[1] +
                    " B, then " + warmUp.describe("every size"));
                out.println(RULE);
                out.println(benchmark.layout().header());
                out.flush();
            }
            for (final int bytes : sizes)
            {
                final Measurement m = benchmark.measure(transport, job, buffers, options, bytes);
                if (null != m)
                {
                    results.add(m);
                    out.println(benchmark.layout().format(m));
                    out.flush();
                }
            }
            job.barrier();
        }
        return results;
    }

    private static String hostName()
    {
        try
        {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        }
        catch (final IOException ex)
        {
            return "unknown host";
        }
    }

    /**
     * @return a latency ratio and a bandwidth ratio per size both runs measured, where both are defined.
     */
    static List<Ratio> ratios(
        final String measuredName, final List<Measurement> measured, final String baselineName,
        final List<Measurement> baseline)
    {
        final List<Ratio> latency = new ArrayList<>();
        final List<Ratio> bandwidth = new ArrayList<>();
        for (final Measurement m : measured)
        {
            for (final Measurement b : baseline)
            {
                if (b.bytes() != m.bytes())
                {
                    continue;
                }
                if (Ratio.defined(m.latencyUsec(), b.latencyUsec()))
                {
                    latency.add(new Ratio(Ratio.LATENCY, m.bytes(), measuredName, baselineName,
                        m.latencyUsec() / b.latencyUsec()));
                }
                if (Ratio.defined(m.mbytesPerSec(), b.mbytesPerSec()))
                {
                    bandwidth.add(new Ratio(Ratio.BANDWIDTH, m.bytes(), measuredName, baselineName,
                        m.mbytesPerSec() / b.mbytesPerSec()));
                }
            }
        }
        latency.addAll(bandwidth);
        return latency;
    }
}
