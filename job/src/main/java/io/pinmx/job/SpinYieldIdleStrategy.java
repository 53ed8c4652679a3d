package io.pinmx.job;

import org.agrona.concurrent.IdleStrategy;

/**
 * Busy-polls, never parks, and hands the core to any other runnable thread once every {@code pollsPerYield} empty
 * polls. On 2 cores with 2 spinning ranks a third runnable thread (the JIT, the GC, another process) would otherwise
 * take a core from a spinner for a whole scheduler slice (milliseconds: half round trips of 4-16 ms were seen),
 * while a yield hands it the core at once and costs well under a microsecond. Agrona's own strategies either
 * spin, yield every time, or go on to park after a run of yields; none alternates a fixed run of spins with one
 * yield, which is the tuning the benchmarks were measured with.
 * <p>
 * One instance per waiting thread: it counts that thread's empty polls.
 */
public final class SpinYieldIdleStrategy implements IdleStrategy
{
    /** The benchmarks' tuning: one yield every 64 empty polls. */
    public static final int DEFAULT_POLLS_PER_YIELD = 64;

    private final int yieldMask;
    private int emptyPolls;

    public SpinYieldIdleStrategy()
    {
        this(DEFAULT_POLLS_PER_YIELD);
    }

    /**
     * @throws IllegalArgumentException naming pollsPerYield unless it is a power of two.
     */
    public SpinYieldIdleStrategy(final int pollsPerYield)
    {
        if (pollsPerYield < 1 || 0 != (pollsPerYield & (pollsPerYield - 1)))
        {
            throw new IllegalArgumentException("pollsPerYield " + pollsPerYield + ": expected a power of two");
        }
        yieldMask = pollsPerYield - 1;
    }

    /**
     * @return empty polls between two yields.
     */
    public int pollsPerYield()
    {
        return yieldMask + 1;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (0 == (++emptyPolls & yieldMask))
        {
            Thread.yield();
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    @Override
    public void reset()
    {
        emptyPolls = 0;
    }

    /**
     * @return empty polls since the last reset (wraps after 2^31).
     */
    public int emptyPolls()
    {
        return emptyPolls;
    }

    @Override
    public String alias()
    {
        return "spin-yield";
    }

    @Override
    public String toString()
    {
        return "SpinYieldIdleStrategy{pollsPerYield=" + pollsPerYield() + "}";
    }
}
