package io.pinmx.pin.provider;

import org.agrona.concurrent.IdleStrategy;

/**
 * The providers' idle strategy, in Agrona's {@link IdleStrategy} family: spin ({@link Thread#onSpinWait}), then
 * yield, then block in a provider's own bounded wait (the UDP selector, PINMX_IOC_WAIT, a park), because a blocked
 * wake-up costs ~30 us on these hosts while a spinning thread answers in a few. Agrona's BackoffIdleStrategy
 * parks with {@code parkNanos}, which a datagram or a kernel event cannot end, hence the blocker. Not thread-safe:
 * one instance per idling thread.
 */
public final class BackoffThenBlockIdleStrategy implements IdleStrategy
{
    /** Spins before yielding: about 2,000 pause instructions. */
    public static final int SPINS = 2_000;
    /** Yields before blocking. */
    public static final int YIELDS = 100;

    /** One bounded blocking wait. */
    @FunctionalInterface
    public interface Blocker
    {
        void block();
    }

    private final int maxSpins;
    private final int maxYields;
    private final boolean backOffAgainAfterBlock;
    private final Blocker blocker;
    private int spins;
    private int yields;

    /**
     * @param maxSpins               spins before yielding.
     * @param maxYields              yields before blocking.
     * @param backOffAgainAfterBlock whether a block is followed by spinning again (a progress agent that was woken)
     *                               rather than by another block (a waiter that keeps waiting).
     * @param blocker                the blocking wait.
     */
    public BackoffThenBlockIdleStrategy(
        final int maxSpins, final int maxYields, final boolean backOffAgainAfterBlock, final Blocker blocker)
    {
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.backOffAgainAfterBlock = backOffAgainAfterBlock;
        this.blocker = blocker;
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
        if (spins < maxSpins)
        {
            spins++;
            Thread.onSpinWait();
        }
        else if (yields < maxYields)
        {
            yields++;
            Thread.yield();
        }
        else
        {
            blocker.block();
            if (backOffAgainAfterBlock)
            {
                reset();
            }
        }
    }

    @Override
    public void reset()
    {
        spins = 0;
        yields = 0;
    }

    @Override
    public String alias()
    {
        return "backoff-then-block(" + maxSpins + " spins, " + maxYields + " yields)";
    }
}
