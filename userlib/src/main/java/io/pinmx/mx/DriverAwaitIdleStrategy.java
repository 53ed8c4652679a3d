package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.LongSupplier;

/**
 * The progress agent's idle strategy: Agrona's {@link IdleStrategy} contract with the backoff
 * of {@link org.agrona.concurrent.BackoffIdleStrategy} (spin, then yield) but a last phase that
 * blocks in {@link DriverEndpoint#await} rather than parking: the driver wakes it the moment an
 * event is ready (a parked thread would not see one), and the bound is when the next protocol
 * timer falls due, so resends and acks stay on time. Any work resets it to spinning.
 * One per progress thread; not thread-safe.
 */
final class DriverAwaitIdleStrategy implements IdleStrategy
{
    /** Spins before yielding: a message answered within a few microseconds costs no syscall. */
    static final int DEFAULT_SPINS = 200;
    /** Yields before blocking in the driver. */
    static final int DEFAULT_YIELDS = 50;

    private final int spins;
    private final int spinsAndYields;
    private final DriverEndpoint driver;
    private final LongSupplier nextTimerDueNs;
    private int idleRounds;

    /**
     * @param nextTimerDueNs how long the driver await may last: until the next timer falls due.
     */
    DriverAwaitIdleStrategy(
        final int spins, final int yields, final DriverEndpoint driver, final LongSupplier nextTimerDueNs)
    {
        this.spins = spins;
        this.spinsAndYields = spins + yields;
        this.driver = driver;
        this.nextTimerDueNs = nextTimerDueNs;
    }

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

    public void idle()
    {
        if (idleRounds < spins)
        {
            idleRounds++;
            Thread.onSpinWait();
        }
        else if (idleRounds < spinsAndYields)
        {
            idleRounds++;
            Thread.yield();
        }
        else
        {
            driver.await(nextTimerDueNs.getAsLong());
        }
    }

    public void reset()
    {
        idleRounds = 0;
    }

    public String alias()
    {
        return "spin-yield-driver-await";
    }
}
