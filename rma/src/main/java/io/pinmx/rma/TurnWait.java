package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Request;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * How a remote waiter on a passive host waits for its turn in its own flag word ({@link MutexTurns}). The releaser's
 * swap reaches that word through the waiter's driver, which stores it without waking any thread of the waiter's
 * process, so the releaser then sends the waiter a wake-up ({@link TurnWakes}). The waiter posts a receive for any
 * wake-up before it looks at the word, spins and yields (a hand-off within microseconds is seen at once), then
 * sleeps in the endpoint's wait for that receive, which the endpoint's progress thread ends when the message lands.
 * The word is the truth and the message only wakes: after every wake-up, and every {@code probeIntervalNs} without
 * one, the waiter reads the word again, so a wake-up for an earlier turn that arrives late costs one look at the
 * word, and a wake-up that never comes (its releaser gone after its swap) costs one probe interval. The probe runs
 * on each interval to notice a host that is gone. Used by its rank's application thread only.
 */
final class TurnWait
{
    /** Spins before yielding, as for a same-host mutex. */
    static final int SPINS = BackoffThenBlockIdleStrategy.LOCK_WAIT_SPINS;
    /** Yields before sleeping: with no other thread runnable each returns at once. */
    static final int YIELDS = 100;

    /** What runs now and then while waiting; may throw to end the wait (a host that is gone). */
    @FunctionalInterface
    interface Probe
    {
        void probe();
    }

    private final Endpoint endpoint;
    private final long probeIntervalNs;

    /**
     * @param endpoint        where the releasers' wake-ups arrive: this rank's job endpoint.
     * @param probeIntervalNs how often the probe runs while waiting (> 0).
     * @throws IllegalArgumentException naming the interval if it is not positive.
     */
    TurnWait(final Endpoint endpoint, final long probeIntervalNs)
    {
        if (probeIntervalNs <= 0)
        {
            throw new IllegalArgumentException("probeIntervalNs " + probeIntervalNs + ": expected > 0");
        }
        this.endpoint = endpoint;
        this.probeIntervalNs = probeIntervalNs;
    }

    /**
     * Returns once the long at {@code offset} of {@code memory} holds {@code value} (an acquiring load).
     *
     * @throws RmaException naming the endpoint and its cause if it takes no receive (closed, stopped).
     */
    void await(final MemorySegment memory, final long offset, final long value, final Probe probe)
    {
        Request wake = postWake();
        try
        {
            for (int spins = 0; spins < SPINS; spins++)
            {
                if (SharedMemoryTier.loadAcquire(memory, offset) == value)
                {
                    return;
                }
                Thread.onSpinWait();
            }
            for (int yields = 0; yields < YIELDS; yields++)
            {
                if (SharedMemoryTier.loadAcquire(memory, offset) == value)
                {
                    return;
                }
                Thread.yield();
            }
            long probeAt = System.nanoTime() + probeIntervalNs;
            while (SharedMemoryTier.loadAcquire(memory, offset) != value)
            {
                if (wake.state().isDone())
                {
                    // this turn's wake-up, a late one of an earlier turn, or a receive failed because some partner
                    // was given up (a receive from any source fails then): the word says which, so post again
                    final Request arrived = wake;
                    wake = null;
                    arrived.release();
                    wake = postWake();
                    continue;
                }
                final long untilProbeNs = probeAt - System.nanoTime();
                if (untilProbeNs <= 0)
                {
                    probe.probe();
                    probeAt = System.nanoTime() + probeIntervalNs;
                    continue;
                }
                wake.await(Duration.ofNanos(untilProbeNs), Duration.ZERO);
            }
        }
        finally
        {
            // withdrawn, or (a message of no bytes) done once it matched: nothing of it outlives the wait
            if (null != wake && (wake.cancel() || wake.test()))
            {
                wake.release();
            }
        }
    }

    private Request postWake()
    {
        try
        {
            return endpoint.irecv(MatchInfo.ANY_SOURCE, RmaTags.WAKE, RmaTags.KIND_MASK, TurnWakes.NO_BYTES);
        }
        catch (final MxException ex)
        {
            throw new RmaException("mutex wait: no wake-up can be received on endpoint " + endpoint.address() + ": " +
                ex.getMessage(), ex);
        }
    }
}
