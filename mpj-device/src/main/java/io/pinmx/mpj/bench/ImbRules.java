package io.pinmx.mpj.bench;

/**
 * The IMB rules the MPJ benchmark programs share: the size range of {@code -msglog a:b}, repetitions per size (1000,
 * or fewer so that one size moves at most 40 MiB), IMB's 2 untimed repetitions before each timed loop, and this
 * project's untimed passes over every size for the JIT before the table.
 */
final class ImbRules
{
    /** Untimed passes over every size before the table, so the JIT has compiled every path. */
    static final int WARM_UP_PASSES = 3;
    /** Repetitions per size in an untimed pass, at most. */
    static final int WARM_UP_REPETITIONS = 200;
    /** IMB's untimed repetitions before each timed loop. */
    static final int IMB_WARM_UP = 2;
    private static final int MSGS_PER_SAMPLE = 1000;
    private static final long OVERALL_VOLUME_BYTES = 40L * 1048576;

    private ImbRules()
    {
    }

    /** IMB's rule: 1000, or fewer so that one size moves at most 40 MiB. */
    static int repetitions(final int bytes)
    {
        return 0 == bytes ? MSGS_PER_SAMPLE : (int)Math.max(1, Math.min(MSGS_PER_SAMPLE, OVERALL_VOLUME_BYTES / bytes));
    }

    /**
     * @param lowest the smallest log the program can use (Allreduce: 2, one int).
     * @return {a, b} of {@code -msglog a:b} in the program's own arguments, or {lowest, 22} without them.
     * @throws IllegalArgumentException naming the program and the bad argument.
     */
    static int[] msglog(final String[] own, final String program, final int lowest)
    {
        if (0 == own.length)
        {
            return new int[]{lowest, 22};
        }
        final String usage = "-msglog " + (2 == own.length ? own[1] : "") + ": expected a:b with " + lowest +
            " <= a <= b <= 30";
        if (2 != own.length || !"-msglog".equals(own[0]))
        {
            throw new IllegalArgumentException("usage: " + program + " [-msglog a:b], got " + String.join(" ", own));
        }
        final String[] ab = own[1].split(":", -1);
        try
        {
            final int a = 2 == ab.length ? Integer.parseInt(ab[0]) : lowest;
            final int b = Integer.parseInt(ab[ab.length - 1]);
            if (ab.length > 2 || a < lowest || b < a || b > 30)
            {
                throw new IllegalArgumentException(usage);
            }
            return new int[]{a, b};
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(usage);
        }
    }
}
