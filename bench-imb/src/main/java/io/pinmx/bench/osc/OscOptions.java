package io.pinmx.bench.osc;

import java.util.Arrays;

/**
 * The arguments of the one-sided benchmarks, the same for the Java programs and the C baseline
 * ({@code rma/bench/armci_osc.c}): {@code PROGRAM|all [-m [MIN:]MAX_BYTES] [-d DIVISOR] [-n MAX_N] [-w WINDOW_MS]
 * [-l LOOPS]}; the Java programs also take OSU's {@code -i ITERATIONS} and {@code -x WARMUP}, and {@code --help}.
 *
 * @param program       an {@link OscProgram}'s name, or "all" (null).
 * @param maxBytes      the largest size of the size sweeps (OSU's default 4 MiB).
 * @param divisor       every iteration count is divided by it (at least 1 iteration): tests run tiny sweeps.
 * @param maxN          the largest N of the strided N x N table (N = 8, 16, ... maxN).
 * @param windowMs      how long the target computes in the compute-window check.
 * @param loops         timed loops per row; the row is their median, so one descheduling on a shared host does not
 *                      decide it (default 5).
 * @param minBytes      the smallest size of the size sweeps (each program's own smallest when below it).
 * @param iterations    timed iterations per size of the sweeps ({@code -i}), or 0 for OSU's counts.
 * @param skip          untimed iterations before them ({@code -x}), or -1 for OSU's counts.
 * @param help          {@code --help} was asked for: nothing else runs.
 */
public record OscOptions(OscProgram program, long maxBytes, long divisor, int maxN, long windowMs, int loops,
    long minBytes, long iterations, long skip, boolean help)
{
    /** As the C baseline's MAX_LOOPS. */
    public static final int MAX_LOOPS = 15;
    /** What --help prints after the usage line. */
    public static final String OPTIONS_HELP = """
          -m [MIN:]MAX  sizes of the sweeps in bytes, doubling (default 1:4194304; 8 up for accumulate)
          -i N          timed iterations per size (default OSU's: 10000 up to 8 KiB, 1000 above; windows 100/20)
          -x N          untimed iterations before them (default OSU's: 100 up to 8 KiB, 10 above; windows 10/2)
          -l LOOPS      timed loops per row, the median reported, 1..15 (default 5)
          -d DIVISOR    divide every iteration count by it (default 1)
          -n MAX_N      largest N of armci_strided's N x N blocks, 8 up (default 256)
          -w WINDOW_MS  how long compute_window's target computes (default 2000)
          -h, --help    this text
        PROGRAM: osu_put_latency osu_get_latency osu_acc_latency osu_fop_latency osu_swap_latency osu_lock_latency
                 osu_put_bw osu_get_bw armci_strided compute_window, or all
        environment (docs/environment.md):
          PINMX_RMA_SHARED_MEMORY 0|1       1 (default): ranks of one host map each other's memory; 0: the driver
          PINMX_RMA_STRIDED auto|direct|pack, PINMX_RMA_CONTIGUOUS auto|zerocopy|stream   protocols (default auto)
          PINMX_RMA_CALIBRATION full|quick, PINMX_RMA_RECALIBRATE 0|1, PINMX_RMA_MODEL_FILE   the cost model
          PINMX_RMA_DIR                     the shared files' directory (default /dev/shm)
          PINMX_DRIVER, PINMX_BIND, PINMX_PEER_TIMEOUT_MS, PINMX_BOOTSTRAP_TIMEOUT_MS   as for every program
        exit status: 0 done, 1 the run failed, 2 bad arguments or rank count (2 ranks: origin and target)
        """;
    private static final String HELP_OPTION = "--help";
    private static final long DEFAULT_MAX_BYTES = 4L << 20;

    public OscOptions
    {
        if (maxBytes < Long.BYTES || divisor < 1 || maxN < 8 || windowMs < 1 || loops < 1 || loops > MAX_LOOPS)
        {
            throw new IllegalArgumentException("-m " + maxBytes + " -d " + divisor + " -n " + maxN + " -w " +
                windowMs + " -l " + loops + ": expected -m >= 8, -d >= 1, -n >= 8, -w >= 1, -l 1.." + MAX_LOOPS);
        }
        if (minBytes < 1 || minBytes > maxBytes || iterations < 0 || skip < -1)
        {
            throw new IllegalArgumentException("-m " + minBytes + ":" + maxBytes + " -i " + iterations + " -x " +
                skip + ": expected 1 <= MIN <= MAX, -i >= 1, -x >= 0");
        }
    }

    /** The options of the C baseline, OSU's counts for the rest. */
    public OscOptions(final OscProgram program, final long maxBytes, final long divisor, final int maxN,
        final long windowMs, final int loops)
    {
        this(program, maxBytes, divisor, maxN, windowMs, loops, 1, 0, -1, false);
    }

    /**
     * @throws IllegalArgumentException naming the argument that is wrong, in one line.
     */
    public static OscOptions parse(final String[] args)
    {
        if (Arrays.asList(args).contains(HELP_OPTION) || Arrays.asList(args).contains("-h"))
        {
            return new OscOptions(null, DEFAULT_MAX_BYTES, 1, 256, 2000, 5, 1, 0, -1, true);
        }
        if (args.length < 1)
        {
            throw new IllegalArgumentException("no PROGRAM given");
        }
        final OscProgram program = "all".equals(args[0]) ? null : OscProgram.named(args[0]);
        long maxBytes = DEFAULT_MAX_BYTES;
        long minBytes = 1;
        long divisor = 1;
        int maxN = 256;
        long windowMs = 2000;
        int loops = 5;
        long iterations = 0;
        long skip = -1;
        for (int i = 1; i < args.length; i++)
        {
            final String option = args[i];
            switch (option)
            {
                case "-m" ->
                {
                    final String value = value(args, ++i, option);
                    final String[] parts = value.split(":", -1);
                    if (parts.length > 2)
                    {
                        throw new IllegalArgumentException("-m " + value + ": expected MAX or MIN:MAX bytes");
                    }
                    minBytes = 2 == parts.length ? number(option, parts[0]) : 1;
                    maxBytes = number(option, parts[parts.length - 1]);
                    if (minBytes < 1 || minBytes > maxBytes)
                    {
                        throw new IllegalArgumentException("-m " + value + ": expected 1 <= MIN <= MAX (bytes)");
                    }
                }
                case "-d" -> divisor = number(option, value(args, ++i, option));
                case "-n" -> maxN = Math.toIntExact(Math.min(Integer.MAX_VALUE, number(option, value(args, ++i, option))));
                case "-w" -> windowMs = number(option, value(args, ++i, option));
                case "-l" -> loops = Math.toIntExact(Math.min(Integer.MAX_VALUE, number(option, value(args, ++i, option))));
                case "-i" -> iterations = positive(option, number(option, value(args, ++i, option)));
                case "-x" -> skip = number(option, value(args, ++i, option));
                case "-msglog" -> throw new IllegalArgumentException(
                    "-msglog is IMB's; the one-sided programs take OSU's -m [MIN:]MAX (bytes)");
                case "-iter" -> throw new IllegalArgumentException(
                    "-iter is IMB's; the one-sided programs take OSU's -i ITERATIONS and -x WARMUP");
                case "--plot", "--baseline", "--transport", "-window", "-loops" -> throw new IllegalArgumentException(
                    option + " is an option of the two-sided programs (PingPong, osu_latency...), not of " +
                        args[0] + "; rma/bench's OscCompare sets its tables against C and plots them");
                case "-f" -> throw new IllegalArgumentException(
                    "-f (OSU's min/max/average columns) is not offered: each row is the median of -l timed loops");
                default -> throw new IllegalArgumentException("unknown option '" + option + "'");
            }
        }
        return new OscOptions(program, maxBytes, divisor, maxN, windowMs, loops, minBytes, iterations, skip, false);
    }

    /** @return what --help prints. */
    public static String help(final String program)
    {
        return "usage: bin/pinmx-run -np 2 " + (null == program ? "PROGRAM" : program) +
            " [-m [MIN:]MAX] [-i N] [-x N] [-l LOOPS] [-d DIVISOR] [-n MAX_N] [-w WINDOW_MS]\n" + OPTIONS_HELP;
    }

    /** @return the timed iterations of a size whose OSU count is {@code base}: -i's, else divided by the divisor. */
    long timed(final long base)
    {
        return 0 == iterations ? iterations(base) : iterations;
    }

    /** @return the untimed iterations of a size whose OSU count is {@code base}: -x's, else divided by the divisor. */
    long skipped(final long base)
    {
        return skip < 0 ? iterations(base) : skip;
    }

    boolean runs(final OscProgram p)
    {
        return null == program || program == p;
    }

    /** @return {@code base} divided by the divisor, at least 1. */
    long iterations(final long base)
    {
        return Math.max(1, base / divisor);
    }

    /** @return the median of the loops' values (the upper one of an even count), as the C baseline takes it. */
    static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String value(final String[] args, final int i, final String option)
    {
        if (i >= args.length || args[i].startsWith("-") && !args[i].matches("-[0-9]+"))
        {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static long number(final String option, final String value)
    {
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " " + value + ": not a whole number", ex);
        }
    }

    private static long positive(final String option, final long value)
    {
        if (value < 1)
        {
            throw new IllegalArgumentException(option + " " + value + ": expected at least 1");
        }
        return value;
    }
}
