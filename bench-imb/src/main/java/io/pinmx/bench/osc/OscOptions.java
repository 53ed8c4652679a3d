package io.pinmx.bench.osc;

import java.util.Arrays;

/**
 * The arguments of the one-sided benchmarks, the same for the Java programs and the C baseline
 * ({@code rma/bench/armci_osc.c}): {@code PROGRAM|all [-m MAX_BYTES] [-d DIVISOR] [-n MAX_N] [-w WINDOW_MS] [-l LOOPS]}.
 *
 * @param program       an {@link OscProgram}'s name, or "all" (null).
 * @param maxBytes      the largest size of the size sweeps (OSU's default 4 MiB).
 * @param divisor       every iteration count is divided by it (at least 1 iteration): tests run tiny sweeps.
 * @param maxN          the largest N of the strided N x N table (N = 8, 16, ... maxN).
 * @param windowMs      how long the target computes in the compute-window check.
 * @param loops         timed loops per row; the row is their median, so one descheduling on a shared host does not
 *                      decide it (default 5).
 */
public record OscOptions(OscProgram program, long maxBytes, long divisor, int maxN, long windowMs, int loops)
{
    public static final String USAGE = "PROGRAM|all [-m MAX_BYTES] [-d DIVISOR] [-n MAX_N] [-w WINDOW_MS] [-l LOOPS]";
    /** As the C baseline's MAX_LOOPS. */
    public static final int MAX_LOOPS = 15;

    public OscOptions
    {
        if (maxBytes < Long.BYTES || divisor < 1 || maxN < 8 || windowMs < 1 || loops < 1 || loops > MAX_LOOPS)
        {
            throw new IllegalArgumentException("-m " + maxBytes + " -d " + divisor + " -n " + maxN + " -w " +
                windowMs + " -l " + loops + ": expected -m >= 8, -d >= 1, -n >= 8, -w >= 1, -l 1.." + MAX_LOOPS);
        }
    }

    /**
     * @throws IllegalArgumentException naming the argument that is wrong.
     */
    public static OscOptions parse(final String[] args)
    {
        if (args.length < 1)
        {
            throw new IllegalArgumentException("no PROGRAM given; usage: " + USAGE);
        }
        final OscProgram program = "all".equals(args[0]) ? null : OscProgram.named(args[0]);
        long maxBytes = 4L << 20;
        long divisor = 1;
        int maxN = 256;
        long windowMs = 2000;
        int loops = 5;
        for (int i = 1; i < args.length; i += 2)
        {
            if (i + 1 >= args.length)
            {
                throw new IllegalArgumentException("option " + args[i] + " needs a value; usage: " + USAGE);
            }
            final long value = number(args[i], args[i + 1]);
            switch (args[i])
            {
                case "-m" -> maxBytes = value;
                case "-d" -> divisor = value;
                case "-n" -> maxN = Math.toIntExact(value);
                case "-w" -> windowMs = value;
                case "-l" -> loops = Math.toIntExact(value);
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; usage: " + USAGE);
            }
        }
        return new OscOptions(program, maxBytes, divisor, maxN, windowMs, loops);
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

    private static long number(final String option, final String value)
    {
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("option " + option + ": '" + value + "' is not a number", ex);
        }
    }
}
