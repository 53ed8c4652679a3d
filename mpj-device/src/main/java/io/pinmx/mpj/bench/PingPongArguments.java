package io.pinmx.mpj.bench;

/**
 * {@link MpjPingPong}'s own arguments: {@code -msglog a:b} (sizes 0 and 2^a..2^b, default 0:22) and {@code -reps N}
 * (at least N timed repetitions per size, default IMB's rule alone), in any order.
 *
 * @param logs     {a, b} of {@code -msglog a:b}.
 * @param minReps  timed repetitions a size runs at least (IMB's rule gives 4 MiB 10).
 */
record PingPongArguments(int[] logs, int minReps)
{
    /** Most repetitions a size may ask for: rank 0 keeps one round-trip time per repetition. */
    static final int MAX_REPS = 1_000_000;

    /**
     * @throws IllegalArgumentException naming the bad argument.
     */
    static PingPongArguments parse(final String[] own)
    {
        int[] logs = null;
        int minReps = 0;
        for (int i = 0; i < own.length; i += 2)
        {
            final String name = own[i];
            if (i + 1 == own.length)
            {
                throw new IllegalArgumentException("MpjPingPong: " + name + " needs a value (usage: " +
                    "MpjPingPong [-msglog a:b] [-reps N])");
            }
            final String value = own[i + 1];
            switch (name)
            {
                case "-msglog" -> logs = ImbRules.msglog(new String[]{name, value}, "MpjPingPong", 0);
                case "-reps" -> minReps = reps(value);
                default -> throw new IllegalArgumentException("MpjPingPong: unknown argument '" + name +
                    "' (usage: MpjPingPong [-msglog a:b] [-reps N]), got " + String.join(" ", own));
            }
        }
        return new PingPongArguments(null == logs ? ImbRules.msglog(new String[0], "MpjPingPong", 0) : logs, minReps);
    }

    /** Timed repetitions of a size of {@code bytes}: IMB's rule, raised to {@link #minReps}. */
    int repetitions(final int bytes)
    {
        return Math.max(minReps, ImbRules.repetitions(bytes));
    }

    private static int reps(final String value)
    {
        final int reps;
        try
        {
            reps = Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("MpjPingPong: -reps " + value + ": expected a number, 1 to " + MAX_REPS);
        }
        if (reps < 1 || reps > MAX_REPS)
        {
            throw new IllegalArgumentException("MpjPingPong: -reps " + value + ": expected 1 to " + MAX_REPS);
        }
        return reps;
    }
}
