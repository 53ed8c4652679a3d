package io.pinmx.bench;

import io.pinmx.job.Job;
import io.pinmx.job.JobEndpoint;
import io.pinmx.pin.select.PinmxVersion;
import io.pinmx.pin.spi.ProviderOptionKeys;
import io.pinmx.pin.spi.ProviderOptions;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * IMB PingPong over pinmx.ko with the four pinning set-ups of the Open-MX paper (Goglin, decoupled and overlapped
 * pinning, Figures 6 and 7), measured in one run: each round runs every set-up back to back over the same sizes
 * (the order rotating from round to round), and the table gives each set-up's bandwidth as a ratio against
 * permanent pinning measured in the same round, the median over rounds. Under TCG absolute times mean little; the
 * ratios are the point. The module counters (both ranks: one host, one module) of each timed loop say why.
 * <p>
 * Both ranks are processes (bin/pinmx-run -np 2 --driver kernel), each with one endpoint of the endpoint library
 * on the kernel provider over {@code lo}, progress driven by the benchmark thread (see {@link PinmxTransport}).
 */
public final class PinningPingPong
{
    static final String USAGE = "arguments: [-msglog a:b (default 16:22)] [-rounds n (default 3)] " +
        "[-pulls wire|copy|wire,copy (default wire)] [-iter n[,volumeMB]]";
    private static final int DEFAULT_ROUNDS = 3;
    private static final String RULE = "#----------------------------------------------------------------";
    private static final double NANOS_PER_USEC = 1000.0;
    /** pinmx.ko's module-wide counters shown per size, by their names in {@code DriverEndpoint.moduleCounters()}. */
    private static final String[] SHOWN = {
        "PIN_CALLS", "PAGES_PINNED_TOTAL", "PAGES_UNPINNED", "OVERLAP_WAITS", "OVERLAP_MISSES", "SERVE_MISSES",
        "PULL_RESENDS", "PULLS_LOCAL"};

    /**
     * One of the paper's pinning set-ups, as this stack realises it.
     *
     * @param name                 the paper's name.
     * @param pinMode              the kernel provider's pin mode of the endpoint's regions
     *                             ({@code ProviderOptionKeys.KERNEL_PIN_MODE}).
     * @param regionCacheMaxBytes  the library's region cache capacity; 0: no cache.
     * @param pinBeforeTiming      an untimed round trip of the largest size right after opening, so the cached
     *                             regions of both buffers are declared (and, at declaration, pinned) once before
     *                             any size is timed; every later message is a cache hit inside them.
     * @param mapping              how, for the header.
     */
    record Setup(String name, String pinMode, long regionCacheMaxBytes, boolean pinBeforeTiming, String mapping)
    {
    }

    static final Setup[] SETUPS = {
        new Setup("permanent", "declare", 1L << 30, true,
            "region cache on, pinning at declaration, both buffers declared and pinned whole by one untimed " +
                "round trip of the largest size after opening: no declare, pin or unpin in any timed loop"),
        new Setup("once-per-comm", "declare", 0, false,
            "region cache off (capacity 0 B): each rendezvous declares its buffer, the module pins it whole in " +
                "the declare ioctl (sender before its RNDV, receiver before its pull), destroy unpins at the end"),
        new Setup("region-cache", "on-demand", 1L << 30, false,
            "region cache on (1 GiB), on-demand pinning: a size's first use on an endpoint (untimed: the " +
                "warm-up pass of round 1, IMB's 2 warm-up repetitions later) declares its region and its first " +
                "pull pins it; timed repetitions hit the cache and find the pages pinned"),
        new Setup("overlapped", "overlapped", 0, false,
            "region cache off, overlapped pinning: each rendezvous declares without pinning, the RNDV send " +
                "starts the module's pin worker, the pull runs while it pins; replies finding pages not yet " +
                "pinned are overlap misses recovered by resends, copies wait (overlap waits)")};

    private PinningPingPong()
    {
    }

    public static void main(final String[] args)
    {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /** Parsed arguments. */
    record Arguments(BenchOptions bench, int rounds, boolean[] pullsOnWire)
    {
        static Arguments parse(final String[] args)
        {
            final List<String> rest = new ArrayList<>();
            int rounds = DEFAULT_ROUNDS;
            boolean[] pulls = {true};
            boolean msglog = false;
            for (int i = 0; i < args.length; i++)
            {
                switch (args[i])
                {
                    case "-rounds" ->
                    {
                        final String value = value(args, ++i, "-rounds");
                        rounds = Repetitions.parseInt("-rounds", value, value);
                        if (rounds < 1)
                        {
                            throw new IllegalArgumentException("-rounds " + value + ": need at least 1");
                        }
                    }
                    case "-pulls" ->
                    {
                        final String value = value(args, ++i, "-pulls");
                        pulls = switch (value)
                        {
                            case "wire" -> new boolean[] {true};
                            case "copy" -> new boolean[] {false};
                            case "wire,copy" -> new boolean[] {true, false};
                            default -> throw new IllegalArgumentException(
                                "-pulls " + value + ": expected wire, copy or wire,copy");
                        };
                    }
                    default ->
                    {
                        msglog |= "-msglog".equals(args[i]);
                        rest.add(args[i]);
                    }
                }
            }
            if (!msglog)
            {
                rest.add("-msglog");
                rest.add("16:22");
            }
            return new Arguments(BenchOptions.parse(rest.toArray(String[]::new)), rounds, pulls);
        }

        private static String value(final String[] args, final int i, final String option)
        {
            if (i >= args.length)
            {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        /** The non-empty sizes: this benchmark is about pinning, which empty messages never do. */
        int[] sizes()
        {
            return Arrays.stream(bench.sizes()).filter(b -> b > 0).toArray();
        }
    }

    static int run(final String[] args, final Map<String, String> env, final PrintStream out, final PrintStream err)
    {
        if (List.of(args).contains("--version"))
        {
            out.println(PinmxVersion.line());
            return 0;
        }
        final Arguments arguments;
        try
        {
            arguments = Arguments.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            if (BenchmarkRun.reportsUsageErrors(env))
            {
                err.println("PinningPingPong: " + ex.getMessage() + " (PinningPingPong --help lists the arguments)");
            }
            return BenchmarkRun.EXIT_USAGE;
        }
        if (arguments.bench().help())
        {
            out.println("usage: bin/pinmx-run -np 2 --driver kernel PinningPingPong " + USAGE);
            out.print(BenchOptions.ARGUMENTS_HELP);
            out.flush();
            return 0;
        }
        if (!"kernel".equals(env.get(JobEndpoint.DRIVER_VARIABLE)))
        {
            err.println("PinningPingPong: measures pinmx.ko's pinning, needs the kernel driver " +
                "(bin/pinmx-run -np 2 --driver kernel PinningPingPong)");
            return BenchmarkRun.EXIT_USAGE;
        }
        try (Job job = Job.join(env))
        {
            if (2 != job.size())
            {
                err.println("PinningPingPong: needs exactly 2 ranks, the job has " + job.size());
                return BenchmarkRun.EXIT_USAGE;
            }
            new Runner(arguments, job, env, out).run();
            return 0;
        }
        catch (final RuntimeException ex)
        {
            err.println("PinningPingPong: " + ex.getMessage());
            return BenchmarkRun.EXIT_FAILED;
        }
    }

    /** One timed size of one set-up in one round: IMB's numbers and the module counters of its timed loop. */
    record Sample(int bytes, int repetitions, double usec, double mbytesPerSec, long[] counters)
    {
    }

    private static final class Runner
    {
        private final Arguments arguments;
        private final Job job;
        private final Map<String, String> env;
        private final PrintStream out;
        private final PingPong pingPong = new PingPong();
        private boolean jitWarm;

        Runner(final Arguments arguments, final Job job, final Map<String, String> env, final PrintStream out)
        {
            this.arguments = arguments;
            this.job = job;
            this.env = env;
            this.out = out;
        }

        void run()
        {
            final boolean root = 0 == job.rank();
            final int[] sizes = arguments.sizes();
            if (root)
            {
                printHeader(sizes);
            }
            try (MessageBuffers buffers = new MessageBuffers(sizes[sizes.length - 1]))
            {
                for (final boolean onWire : arguments.pullsOnWire())
                {
                    runPulls(onWire, sizes, buffers, root);
                }
            }
        }

        private void runPulls(final boolean onWire, final int[] sizes, final MessageBuffers buffers, final boolean root)
        {
            final int rounds = arguments.rounds();
            // [round][setup][size]
            final Sample[][][] samples = new Sample[rounds][SETUPS.length][];
            for (int round = 0; round < rounds; round++)
            {
                for (int k = 0; k < SETUPS.length; k++)
                {
                    final int s = (k + round) % SETUPS.length;
                    samples[round][s] = measureSetup(SETUPS[s], onWire, round, sizes, buffers, root);
                }
            }
            if (root)
            {
                printRatios(onWire, sizes, samples);
            }
        }

        private Sample[] measureSetup(
            final Setup setup, final boolean onWire, final int round, final int[] sizes, final MessageBuffers buffers,
            final boolean root)
        {
            final PinmxTransport.Tuning tuning = new PinmxTransport.Tuning(
                ProviderOptions.none().with(ProviderOptionKeys.KERNEL_PIN_MODE, setup.pinMode())
                    .with(ProviderOptionKeys.KERNEL_PULLS_ON_WIRE, onWire),
                setup.regionCacheMaxBytes());
            final Sample[] samples = new Sample[sizes.length];
            try (PinmxTransport transport = PinmxTransport.open(job, env, tuning))
            {
                final String warmUp = 0 == round ? warmUp(transport, buffers, sizes) : null;
                if (setup.pinBeforeTiming())
                {
                    pingPong.warmUp(transport, job, buffers, sizes[sizes.length - 1], 1);
                }
                if (root)
                {
                    out.println(RULE);
                    out.println("# round " + (round + 1) + ", " + setup.name() + ", pulls " + pullsName(onWire) +
                        (null != warmUp ? "; " + warmUp : ""));
                    if (0 == round && onWire == arguments.pullsOnWire()[0] && setup == SETUPS[0])
                    {
                        out.println("# progress: " + transport.progress());
                    }
                    out.println(TableLayout.IMB_TIME.header() + countersHeader());
                    out.flush();
                }
                for (int i = 0; i < sizes.length; i++)
                {
                    samples[i] = measure(transport, buffers, sizes[i], root);
                    if (root)
                    {
                        final Sample m = samples[i];
                        out.println(String.format(Locale.ROOT, "%12d %12d %12.2f %12.2f", m.bytes(), m.repetitions(),
                            m.usec(), m.mbytesPerSec()) + countersLine(m.counters()));
                        out.flush();
                    }
                }
                job.barrier();
            }
            return samples;
        }

        /**
         * The first set-up opened in the run runs the JIT warm-up of the other benchmarks; every other set-up's
         * opening in round 1 runs one untimed pass over every size, so its own paths (declare and destroy per message,
         * cache hits, overlap recovery) are compiled before it is timed.
         */
        private String warmUp(final PinmxTransport transport, final MessageBuffers buffers, final int[] sizes)
        {
            final int[] withZero = new int[sizes.length + 1];
            System.arraycopy(sizes, 0, withZero, 1, sizes.length);
            if (!jitWarm)
            {
                jitWarm = true;
                return "JIT warm-up: " + Benchmark.JIT_WARMUP_REPETITIONS + " repetitions of " + sizes[0] + " B, then " +
                    JitWarmUp.run(pingPong, transport, job, buffers, withZero).describe("every size");
            }
            for (final int bytes : sizes)
            {
                pingPong.warmUp(transport, job, buffers, bytes, JitWarmUp.passRepetitions(bytes));
            }
            return "untimed warm-up: one pass over every size";
        }

        /** IMB's measure of one size (2 untimed repetitions, barrier, timed loop) with the counters around the loop. */
        private Sample measure(
            final PinmxTransport transport, final MessageBuffers buffers, final int bytes, final boolean root)
        {
            final int repetitions = arguments.bench().repetitions().forSize(bytes);
            pingPong.loop(transport, job, buffers, bytes, Benchmark.WARMUP_ITERATIONS);
            job.barrier();
            final Map<String, Long> before = root ? readCounters(transport) : Map.of();
            final long startNs = System.nanoTime();
            pingPong.loop(transport, job, buffers, bytes, repetitions);
            final long elapsedNs = System.nanoTime() - startNs;
            final double usec = elapsedNs / NANOS_PER_USEC / repetitions / 2;
            // The gather returns on rank 0 once rank 1 has finished its loop: the counters then cover both.
            final double[] all = job.gather(usec);
            if (!root)
            {
                return null;
            }
            final Map<String, Long> after = readCounters(transport);
            final long[] delta = new long[SHOWN.length];
            for (int i = 0; i < SHOWN.length; i++)
            {
                delta[i] = after.get(SHOWN[i]) - before.get(SHOWN[i]);
            }
            final double tMax = Math.max(all[0], all[1]);
            return new Sample(bytes, repetitions, tMax, bytes / tMax, delta);
        }

        private static Map<String, Long> readCounters(final PinmxTransport transport)
        {
            final Map<String, Long> counters = transport.moduleCounters();
            if (!counters.keySet().containsAll(Arrays.asList(SHOWN)))
            {
                throw new IllegalStateException("the pinmx transport did not open the kernel provider");
            }
            return counters;
        }

        private void printHeader(final int[] sizes)
        {
            out.println("#------------------------------------------------------------");
            out.println("#    PinningPingPong: IMB PingPong over pinmx.ko, the four pinning set-ups of Open-MX");
            out.println("#    (Goglin, decoupled and overlapped pinning, Figures 6 and 7), same run");
            out.println("#------------------------------------------------------------");
            out.println("# Date                  : " + Instant.now());
            out.println("# Processes             : 2 (one JVM each, one endpoint each, kernel provider on lo)");
            out.println("# Message sizes         : " + sizes[0] + ".." + sizes[sizes.length - 1] +
                " bytes (rendezvous above 32 KiB: the buffers are declared regions)");
            out.println("# Repetitions           : IMB's rule, max(1, min(" +
                arguments.bench().repetitions().perSample() + ", " +
                arguments.bench().repetitions().overallVolumeBytes() + " B / size)) after " +
                Benchmark.WARMUP_ITERATIONS + " untimed; t = half round trip, t_max of the 2 ranks");
            out.println("# Rounds                : " + arguments.rounds() + "; each runs every set-up back to back " +
                "(order rotated by one per round), each set-up on a freshly opened endpoint pair");
            out.println("# Buffers               : 2 MiB aligned, MADV_HUGEPAGE (transparent huge pages: " +
                HugePageMemory.transparentHugePageMode() + "), one send and one receive buffer per rank");
            out.println("# Pulls                 : wire = PULL/PULL_REPLY frames over lo (PINMX_PULL_WIRE), the " +
                "module's pull engine; copy = the module's same-interface region-to-region copy");
            out.println("# Set-ups               :");
            for (final Setup s : SETUPS)
            {
                out.println("#   " + s.name() + ": " + s.mapping());
            }
            out.println("# Counters              : pinmx.ko's module-wide counters over each timed loop (both " +
                "ranks): pins = pin_user_pages calls, pinned/unpinned = pages, owait = copies that waited for " +
                "the overlapped pin worker, omiss = PULL_REPLYs dropped on unpinned pages, smiss = PULLs left " +
                "unserved on unpinned pages, resend = PULLs resent, local = pulls done as one copy");
            out.flush();
        }

        private static String countersHeader()
        {
            return String.format(Locale.ROOT, " %8s %9s %9s %7s %7s %7s %7s %7s",
                "pins", "pinned", "unpinned", "owait", "omiss", "smiss", "resend", "local");
        }

        private static String countersLine(final long[] c)
        {
            return String.format(Locale.ROOT, " %8d %9d %9d %7d %7d %7d %7d %7d",
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
        }

        private static String pullsName(final boolean onWire)
        {
            return onWire ? "wire" : "copy";
        }

        private void printRatios(final boolean onWire, final int[] sizes, final Sample[][][] samples)
        {
            final int rounds = samples.length;
            out.println(RULE);
            out.println("# bandwidth ratio against permanent pinning, pulls " + pullsName(onWire) + ": median over " +
                rounds + " round(s) of (set-up Mbytes/sec / permanent Mbytes/sec of the same round); [min-max]");
            final StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%12s", "#bytes"));
            for (final Setup s : SETUPS)
            {
                header.append(String.format(Locale.ROOT, " %22s", s.name()));
            }
            header.append(String.format(Locale.ROOT, " %16s", "permanent MB/s"));
            out.println(header);
            for (int i = 0; i < sizes.length; i++)
            {
                final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%12d", sizes[i]));
                final double[] permanent = new double[rounds];
                for (int r = 0; r < rounds; r++)
                {
                    permanent[r] = samples[r][0][i].mbytesPerSec();
                }
                for (int s = 0; s < SETUPS.length; s++)
                {
                    final double[] ratio = new double[rounds];
                    for (int r = 0; r < rounds; r++)
                    {
                        ratio[r] = samples[r][s][i].mbytesPerSec() / permanent[r];
                    }
                    Arrays.sort(ratio);
                    line.append(String.format(Locale.ROOT, " %22s", String.format(Locale.ROOT, "%.3f [%.2f-%.2f]",
                        median(ratio), ratio[0], ratio[rounds - 1])));
                }
                Arrays.sort(permanent);
                line.append(String.format(Locale.ROOT, " %16.1f", median(permanent)));
                out.println(line);
            }
            out.flush();
        }

        private static double median(final double[] sorted)
        {
            final int n = sorted.length;
            return 0 == n % 2 ? (sorted[n / 2 - 1] + sorted[n / 2]) / 2 : sorted[n / 2];
        }
    }
}
