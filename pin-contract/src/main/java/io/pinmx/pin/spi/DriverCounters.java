package io.pinmx.pin.spi;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * An endpoint's counters: one atomic slot per {@link Counter}, so the application thread and the
 * progress thread both update them without locks or allocation; a counter only one thread at a time updates may
 * use {@link #incrementOwned} instead.
 */
public final class DriverCounters
{
    private static final Counter[] COUNTERS = Counter.values();

    private final AtomicLongArray values = new AtomicLongArray(COUNTERS.length);

    /**
     * @param counter counter to read.
     * @return its current value.
     */
    public long get(final Counter counter)
    {
        return values.get(counter.ordinal());
    }

    /**
     * @param counter counter to add one to.
     */
    public void increment(final Counter counter)
    {
        values.getAndIncrement(counter.ordinal());
    }

    /**
     * Adds one to a counter that one thread at a time updates, its updaters handing over through a lock (the
     * frames an endpoint's duty cycle receives): a plain read and a release store instead of an atomic add.
     *
     * @param counter counter to add one to; every other update of it must come through this method under the same
     *                handover.
     */
    public void incrementOwned(final Counter counter)
    {
        final int i = counter.ordinal();
        values.setRelease(i, values.getPlain(i) + 1);
    }

    /**
     * @param counter counter to add to.
     * @param delta   amount.
     */
    public void add(final Counter counter, final long delta)
    {
        values.getAndAdd(counter.ordinal(), delta);
    }

    /**
     * Copy every counter, indexed by {@link Counter#ordinal()}, for publishing.
     *
     * @param into array of at least {@link #size()} longs.
     * @return {@code into}.
     */
    public long[] snapshot(final long[] into)
    {
        if (into.length < COUNTERS.length)
        {
            throw new IllegalArgumentException(
                "counter snapshot needs " + COUNTERS.length + " slots, array has " + into.length);
        }
        for (int i = 0; i < COUNTERS.length; i++)
        {
            into[i] = values.get(i);
        }
        return into;
    }

    /**
     * @return a fresh snapshot indexed by {@link Counter#ordinal()}.
     */
    public long[] snapshot()
    {
        return snapshot(new long[COUNTERS.length]);
    }

    /**
     * @return number of counters.
     */
    public static int size()
    {
        return COUNTERS.length;
    }
}
