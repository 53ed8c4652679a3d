package io.pinmx.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command-line options shared by every benchmark program.
 * <pre>
 *   -msglog a:b | -msglog b   sizes 0 and 2^a..2^b bytes (default 0:22)
 *   -iter n[,volumeMB]        IMB repetitions per sample and overall volume (OSU: iterations per size)
 *   -window n                 OSU bandwidth window (default 64)
 *   -loops n                  timed loops per size, the median one reported (IMB programs; default 5)
 *   --transport T             what to measure: pinmx (default), tcp, tcp-busy or aeron
 *   --baseline T[,T...]|none  also run over these transports first, in the same run, and print ratio lines
 *                             against each (default none)
 *   --plot FILE.png|FILE.svg  draw latency and bandwidth against size (its directory must exist and be writable:
 *                             checked here, before any work)
 * OSU's programs (osu_latency, osu_bw) take OSU's instead of -msglog and -iter:
 *   -m [MIN:]MAX              sizes 0 and the powers of two from MIN to MAX bytes
 *   -i n                      timed iterations per size (default OSU's)
 *   -x n                      untimed iterations before them (default OSU's)
 *   --csv FILE, --json FILE   also write every row (JSON: and the ratios) there for scripts (checked as --plot)
 *   -h, --help                print the usage on standard output and do nothing else
 * </pre>
 */
public record BenchOptions(
    int minLog, int maxLog, Repetitions repetitions, boolean iterGiven, int window, int loops,
    String transport, List<String> baselines, Path plot, Path csv, Path json, int skip, boolean help)
{
    /** Whose size and iteration options a program takes: IMB's names take IMB's, OSU's names OSU's. */
    public enum Style
    {
        IMB,
        OSU
    }

    public static final int MAX_LOG = 30;
    public static final int DEFAULT_MAX_LOG = 22;
    public static final int OSU_DEFAULT_WINDOW = 64;
    /** Enough loops that one stalled loop (a millisecond of descheduling on a shared host) is never the median. */
    public static final int DEFAULT_LOOPS = 5;
    public static final int MAX_LOOPS = 101;
    /** Every transport Transports can open. */
    public static final List<String> TRANSPORTS = List.of("pinmx", "tcp", "tcp-busy", "aeron");
    /** The arguments every program takes and the environment it reads, as --help lists them. */
    public static final String ARGUMENTS_HELP = """
          -msglog a:b | -msglog b   sizes 0 and 2^a..2^b bytes (default 0:22)
          -iter n[,volumeMB]        IMB: repetitions per sample, and overall volume in MB (OSU: iterations per size)
          -window n                 OSU bandwidth window, 1..128 (default 64)
          -loops n                  timed loops per size, the median one reported (IMB programs; default 5)
          --transport T             what to measure: pinmx (default), tcp, tcp-busy or aeron
          --baseline T[,T...]|none  also measure over these transports first, same run, and print ratios (default none)
          --plot FILE.png|FILE.svg  draw latency and bandwidth against size
          --csv FILE, --json FILE   also write every row (and, in JSON, the ratios) to FILE for scripts
          -h, --help                this text
        environment (docs/environment.md):
          PINMX_DRIVER user|kernel|auto     the pinmx transport's provider (set by pinmx-run --driver)
          PINMX_BIND core|none              bind each rank's polling thread to one CPU (default core)
          PINMX_ADDRESS, PINMX_IFACE        where each rank is reached
          PINMX_PEER_TIMEOUT_MS             how long an endpoint waits on a silent partner (default 5000)
          PINMX_BOOTSTRAP_TIMEOUT_MS        how long ranks wait for each other at start-up (default 30000)
          PINMX_SHARED_PULL_MIN_BYTES       the user driver's shared-pull threshold for the pinmx transport
        exit status: 0 done, 1 the run failed, 2 bad arguments or rank count
        """;

    /** What OSU's programs take instead of -msglog and -iter. */
    public static final String OSU_ARGUMENTS_HELP = """
          OSU's programs take, instead of -msglog and -iter:
          -m [MIN:]MAX              sizes 0 and the powers of two from MIN to MAX bytes (default 1:4194304)
          -i n                      timed iterations per size (default 10000 up to 8 KiB, 1000 above; osu_bw 100/20)
          -x n                      untimed iterations before them (default 100 up to 8 KiB, 10 above; osu_bw 10/2)
        """;

    /** @return what {@code PROGRAM --help} prints: how to start it, then {@link #ARGUMENTS_HELP}. */
    public static String help(final String program)
    {
        return "usage: bin/pinmx-run -np N " + program + " [ARGUMENTS]\n" + ARGUMENTS_HELP +
            (Style.OSU == style(program) ? OSU_ARGUMENTS_HELP : "");
    }

    /** @return OSU's style for OSU's names, IMB's for the rest. */
    public static Style style(final String program)
    {
        return program.startsWith("osu_") ? Style.OSU : Style.IMB;
    }

    /**
     * @throws IllegalArgumentException naming the argument that is wrong.
     */
    public static BenchOptions parse(final String[] args)
    {
        return parse(args, Style.IMB);
    }

    /**
     * @param style whose size and iteration options the program takes: IMB's, or OSU's (its names).
     * @throws IllegalArgumentException naming the argument that is wrong, and the option of the style that would do
     *                                  what the other style's asks.
     */
    public static BenchOptions parse(final String[] args, final Style style)
    {
        int skip = -1;
        int minLog = 0;
        int maxLog = DEFAULT_MAX_LOG;
        Repetitions repetitions = Repetitions.IMB_DEFAULT;
        boolean iterGiven = false;
        int window = OSU_DEFAULT_WINDOW;
        int loops = DEFAULT_LOOPS;
        String transport = "pinmx";
        List<String> baselines = List.of();
        Path plot = null;
        Path csv = null;
        Path json = null;
        if (List.of(args).contains("--help") || List.of(args).contains("-h"))
        {
            return new BenchOptions(minLog, maxLog, repetitions, iterGiven, window, loops, transport, baselines, plot,
                csv, json, skip, true);
        }
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            switch (arg)
            {
                case "-msglog", "-iter" ->
                {
                    if (Style.OSU == style)
                    {
                        throw new IllegalArgumentException(arg + " is IMB's; the OSU programs take -m [MIN:]MAX (bytes), " +
                            "-i ITERATIONS and -x WARMUP");
                    }
                }
                case "-m", "-i", "-x", "-f" ->
                {
                    if (Style.IMB == style)
                    {
                        throw new IllegalArgumentException(arg + " is OSU's; the IMB programs take -msglog a:b and " +
                            "-iter n (osu_latency and osu_bw take OSU's)");
                    }
                }
                default ->
                {
                }
            }
            switch (arg)
            {
                case "-m" ->
                {
                    final String value = value(args, ++i, arg);
                    final String[] parts = value.split(":", -1);
                    final long min = 2 == parts.length ? Repetitions.parseInt("-m", value, parts[0]) : 1;
                    final long max = Repetitions.parseInt("-m", value, parts[parts.length - 1]);
                    if (parts.length > 2 || min < 1 || min > max || max > 1L << MAX_LOG)
                    {
                        throw new IllegalArgumentException("-m " + value + ": expected [MIN:]MAX bytes, " +
                            "1 <= MIN <= MAX <= " + (1L << MAX_LOG));
                    }
                    minLog = 64 - Long.numberOfLeadingZeros(min - 1);
                    maxLog = 63 - Long.numberOfLeadingZeros(max);
                    if (minLog > maxLog)
                    {
                        throw new IllegalArgumentException("-m " + value + ": no power of two between MIN and MAX");
                    }
                }
                case "-i" ->
                {
                    final String value = value(args, ++i, arg);
                    final int iterations = Repetitions.parseInt("-i", value, value);
                    if (iterations < 1)
                    {
                        throw new IllegalArgumentException("-i " + value + ": need at least 1");
                    }
                    repetitions = new Repetitions(iterations, Repetitions.IMB_OVERALL_VOLUME_BYTES);
                    iterGiven = true;
                }
                case "-x" ->
                {
                    final String value = value(args, ++i, arg);
                    skip = Repetitions.parseInt("-x", value, value);
                    if (skip < 0)
                    {
                        throw new IllegalArgumentException("-x " + value + ": need at least 0");
                    }
                }
                case "-f" -> throw new IllegalArgumentException(
                    "-f (OSU's min/max/average columns) is not offered: osu_latency's row is rank 0's time");
                case "-msglog" ->
                {
                    final String value = value(args, ++i, arg);
                    final String[] parts = value.split(":", -1);
                    if (parts.length > 2)
                    {
                        throw new IllegalArgumentException("-msglog " + value + ": expected a:b or b");
                    }
                    minLog = 2 == parts.length ? Repetitions.parseInt("-msglog", value, parts[0]) : 0;
                    maxLog = Repetitions.parseInt("-msglog", value, parts[parts.length - 1]);
                    if (minLog < 0 || maxLog > MAX_LOG || minLog > maxLog)
                    {
                        throw new IllegalArgumentException("-msglog " + value + ": need 0 <= a <= b <= " + MAX_LOG);
                    }
                }
                case "-iter" ->
                {
                    repetitions = Repetitions.parseIter(value(args, ++i, arg));
                    iterGiven = true;
                }
                case "-window" ->
                {
                    final String value = value(args, ++i, arg);
                    window = Repetitions.parseInt("-window", value, value);
                    if (window < 1 || window > 128)
                    {
                        throw new IllegalArgumentException("-window " + value + ": need 1..128");
                    }
                }
                case "-loops" ->
                {
                    final String value = value(args, ++i, arg);
                    loops = Repetitions.parseInt("-loops", value, value);
                    if (loops < 1 || loops > MAX_LOOPS)
                    {
                        throw new IllegalArgumentException("-loops " + value + ": need 1.." + MAX_LOOPS);
                    }
                }
                case "--transport" -> transport = oneOf(arg, value(args, ++i, arg), TRANSPORTS);
                case "--baseline" -> baselines = baselines(value(args, ++i, arg));
                case "--plot" ->
                {
                    final String value = value(args, ++i, arg);
                    if (!value.endsWith(".png") && !value.endsWith(".svg"))
                    {
                        throw new IllegalArgumentException("--plot " + value + ": the file must end in .png or .svg");
                    }
                    plot = writablePlace("--plot", Path.of(value));
                }
                case "--csv" -> csv = writablePlace(arg, Path.of(value(args, ++i, arg)));
                case "--json" -> json = writablePlace(arg, Path.of(value(args, ++i, arg)));
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
        }
        return new BenchOptions(minLog, maxLog, repetitions, iterGiven, window, loops, transport, baselines, plot,
            csv, json, skip, false);
    }

    public boolean hasBaseline()
    {
        return !baselines.isEmpty();
    }

    private static List<String> baselines(final String value)
    {
        if ("none".equals(value))
        {
            return List.of();
        }
        final List<String> names = new ArrayList<>();
        for (final String name : value.split(",", -1))
        {
            if (!TRANSPORTS.contains(name))
            {
                throw new IllegalArgumentException("--baseline " + value + ": expected one of " +
                    String.join(", ", TRANSPORTS) + " (comma-separated), or none");
            }
            if (names.contains(name))
            {
                throw new IllegalArgumentException("--baseline " + value + ": " + name + " is named twice");
            }
            names.add(name);
        }
        return List.copyOf(names);
    }

    /**
     * @return the message sizes in bytes: 0, then 2^minLog..2^maxLog, as IMB runs them.
     */
    public int[] sizes()
    {
        final int[] sizes = new int[maxLog - minLog + 2];
        for (int log = minLog; log <= maxLog; log++)
        {
            sizes[log - minLog + 1] = 1 << log;
        }
        return sizes;
    }

    /**
     * @return {@code file}, once its directory exists and is writable and it is not itself a directory, so that a
     * run never ends by failing to write what it measured.
     * @throws IllegalArgumentException naming the option and the file otherwise.
     */
    static Path writablePlace(final String option, final Path file)
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file))
        {
            throw new IllegalArgumentException(option + " " + file + ": is a directory, not a file");
        }
        if (!Files.isDirectory(parent))
        {
            throw new IllegalArgumentException(option + " " + file + ": no directory " + parent);
        }
        if (!Files.isWritable(parent) || Files.exists(file) && !Files.isWritable(file))
        {
            throw new IllegalArgumentException(option + " " + file + ": not writable");
        }
        return file;
    }

    private static String value(final String[] args, final int i, final String option)
    {
        if (i >= args.length)
        {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static String oneOf(final String option, final String value, final List<String> allowed)
    {
        if (allowed.contains(value))
        {
            return value;
        }
        throw new IllegalArgumentException(option + " " + value + ": expected one of " + String.join(", ", allowed));
    }
}
