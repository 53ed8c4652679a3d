package io.pinmx.rma;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * How a remote waiter on a passive host waits for its turn in its own flag word ({@link MutexTurns}). The releaser's
 * swap reaches that word through the waiter's driver, which stores it without waking any thread of the waiter's
 * process, so the waiter polls the word: it spins and yields first (a hand-off within microseconds is seen at once),
 * then parks for spans doubling from {@link #FIRST_PARK_NS} to {@link #MAX_PARK_NS}. The cap bounds what a long wait
 * adds to the hand-off that ends it (one park at most) and keeps a waiter of seconds near no CPU (one wake-up, a load
 * and a clock read, per cap). A probe runs every {@code probeIntervalNs} to notice a host that is gone. Used by its
 * rank's application thread only.
 */
final class TurnWait
{
    /** Spins before yielding, as for a same-host mutex. */
    static final int SPINS = BackoffThenBlockIdleStrategy.LOCK_WAIT_SPINS;
    /** Yields before the first park: with no other thread runnable each returns at once. */
    static final int YIELDS = 100;
    static final long FIRST_PARK_NS = 1_000L;
    static final long MAX_PARK_NS = 250_000L;

    /** What runs now and then while waiting; may throw to end the wait (a host that is gone). */
    @FunctionalInterface
    interface Probe
    {
        void probe();
    }

    private final long probeIntervalNs;

    /**
     * @param probeIntervalNs how often the probe runs while waiting (> 0).
     * @throws IllegalArgumentException naming the interval if it is not positive.
     */
    TurnWait(final long probeIntervalNs)
    {
        if (probeIntervalNs <= 0)
        {
            throw new IllegalArgumentException("probeIntervalNs " + probeIntervalNs + ": expected > 0");
        }
        this.probeIntervalNs = probeIntervalNs;
    }

    /** Returns once the long at {@code offset} of {@code memory} holds {@code value} (an acquiring load). */
    void await(final MemorySegment memory, final long offset, final long value, final Probe probe)
    {
        int spins = 0;
        int yields = 0;
        long parkNs = FIRST_PARK_NS;
        long probeAt = System.nanoTime() + probeIntervalNs;
        while (SharedMemoryTier.loadAcquire(memory, offset) != value)
        {
            if (spins < SPINS)
            {
                spins++;
                Thread.onSpinWait();
                continue;
            }
            if (System.nanoTime() - probeAt > 0)
            {
                probe.probe();
                probeAt = System.nanoTime() + probeIntervalNs;
            }
            if (yields < YIELDS)
            {
                yields++;
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(this, parkNs);
                parkNs = Math.min(MAX_PARK_NS, 2 * parkNs);
            }
        }
    }
}
