package io.pinmx.bench.osc;

/**
 * The arguments of the one-sided benchmarks, the same for the Java programs and the C baseline
 * ({@code rma/bench/armci_osc.c}): {@code PROGRAM|all [-m MAX_BYTES] [-d DIVISOR] [-n MAX_N] [-w WINDOW_MS]}.
 *
 * @param program       an {@link OscProgram}'s name, or "all" (null).
 * @param maxBytes      the largest size of the size sweeps (OSU's default 4 MiB).
 * @param divisor       every iteration count is divided by it (at least 1 iteration): tests run tiny sweeps.
 * @param maxN          the largest N of the strided N x N table (N = 8, 16, ... maxN).
 * @param windowMs      how long the target computes in the compute-window check.
 */
public record OscOptions(OscProgram program, long maxBytes, long divisor, int maxN, long windowMs)
{
    public static final String USAGE = "PROGRAM|all [-m MAX_BYTES] [-d DIVISOR] [-n MAX_N] [-w WINDOW_MS]";

    public OscOptions
    {
        if (maxBytes < Long.BYTES || divisor < 1 || maxN < 8 || windowMs < 1)
        {
            throw new IllegalArgumentException("-m " + maxBytes + " -d " + divisor + " -n " + maxN + " -w " +
                windowMs + ": expected -m >= 8, -d >= 1, -n >= 8, -w >= 1");
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
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; usage: " + USAGE);
            }
        }
        return new OscOptions(program, maxBytes, divisor, maxN, windowMs);
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
