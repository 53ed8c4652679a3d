package io.pinmx.pin.provider;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.Locale;

/**
 * The one idle strategy of pinmx, in Agrona's {@link IdleStrategy} family: spin ({@link Thread#onSpinWait}) up to a
 * number of times, then yield up to a number of times, both within an optional time from the first idle round, then
 * a pluggable blocking phase ({@link Blocker}): the
 * provider's own bounded wait (the UDP selector, PINMX_IOC_WAIT), the driver's await until the next timer, a park,
 * or a plain yield for a thread that must never block. After a block it either backs off again from spinning
 * ({@link AfterBlock#SPIN_AGAIN}: a progress agent that was woken) or keeps blocking ({@link AfterBlock#BLOCK_AGAIN}:
 * a waiter that keeps waiting); any work resets it to spinning. Agrona's BackoffIdleStrategy parks with
 * {@code parkNanos}, which a datagram or a kernel event cannot end, hence the blocker. Not thread-safe: one
 * instance per idling thread.
 * <p>
 * The tunings, all here, and why: a blocked wake-up costs several times what a spinning thread takes to answer,
 * so whoever owns a core for progress spins first; on 2 cores a spinner must hand its core over soon to a
 * third runnable thread (the JIT, the GC, another rank), or that thread takes it for a whole scheduler slice.
 * <ul>
 * <li>{@link #providerAgent}: a provider's progress thread: {@value #PROVIDER_SPINS} spins, {@value #PROVIDER_YIELDS}
 * yields, both within {@value #PROVIDER_BACKOFF_NS} ns after its last work, then the provider's wait.</li>
 * <li>{@link #endpointAgent}: the endpoint library's DEDICATED agent thread ({@link ProgressRunner}): yields for
 * {@value #ENDPOINT_YIELD_NS} ns after its last work (no spins: each round polls the driver), then the driver's await
 * (which blocks at once) bounded by the next protocol timer, and it stays blocking until there is work.</li>
 * <li>{@link #busyPolling}: a rank that polls its endpoint itself (benchmarks, job barriers): never blocks,
 * yields once every {@value #POLLS_PER_YIELD} empty polls.</li>
 * <li>{@link #spinThenYield}, {@link #lockWait}: a wait for another thread or process to make room or let go (a
 * full shared-memory ring: {@value #PROVIDER_SPINS} spins; a same-host rma mutex: {@value #LOCK_WAIT_SPINS}),
 * then a yield on every further round, since the other side may be descheduled.</li>
 * <li>{@link #busySpin}, {@link #yielding}: the TCP baseline's blocking and posted waits.</li>
 * </ul>
 */
public final class BackoffThenBlockIdleStrategy implements IdleStrategy
{
    /** Provider progress threads and a wait for room in a full ring: spins before yielding. */
    public static final int PROVIDER_SPINS = 2_000;
    /** Provider progress threads: yields before the provider's blocking wait. */
    public static final int PROVIDER_YIELDS = 100;
    /**
     * Provider progress threads: how long they spin and yield after their last work before the provider's wait, about
     * what a blocked wake-up costs. Each round polls the provider: with no same-host ring a round is a UDP receive
     * system call, and counted rounds alone would burn milliseconds of the CPU the application computes on.
     */
    public static final long PROVIDER_BACKOFF_NS = 50_000;
    /**
     * The endpoint library's progress thread: none. Each of its rounds polls the driver first (a microsecond or
     * more), so spinning rounds would hold a core for milliseconds; a thread that shares it (the rma data server,
     * or a caller about to wait) could not run meanwhile, and its answers would wait that long. A yield with nobody else runnable returns at once.
     */
    public static final int ENDPOINT_SPINS = 0;
    /**
     * The endpoint library's progress thread: how long it yields before it blocks in the driver, about what a blocked
     * wake-up costs here, so an idle spell costs at most twice the better choice. On a loaded CPU a yielding thread
     * stays runnable and waits a slice in the run queue for every frame it serves, where a sleeper is woken at once.
     */
    public static final long ENDPOINT_YIELD_NS = 50_000;
    /** Busy-polling ranks: empty polls per yield. */
    public static final int POLLS_PER_YIELD = 64;
    /** A wait for a lock another process holds: spins before yielding. */
    public static final int LOCK_WAIT_SPINS = 200;

    /** The blocking phase that ends a yield-only wait: hand the core over, come back at once. */
    public static final Blocker YIELD = Thread::yield;

    /** One bounded blocking wait. */
    @FunctionalInterface
    public interface Blocker
    {
        void block();
    }

    /** What follows a block while there is still no work. */
    public enum AfterBlock
    {
        /** Spin and yield again before the next block. */
        SPIN_AGAIN,
        /** Block again. */
        BLOCK_AGAIN
    }

    /** No bound on the time spinning and yielding take: their counts alone end them. */
    public static final long UNBOUNDED_BACKOFF_NS = Long.MAX_VALUE;

    private final int maxSpins;
    private final int maxYields;
    private final long maxBackoffNs;
    private final NanoClock clock;
    private final AfterBlock afterBlock;
    private final Blocker blocker;
    private int spins;
    private int yields;
    private long backoffStartNs;

    /**
     * @param maxSpins   spins before yielding (>= 0).
     * @param maxYields  yields before blocking (>= 0).
     * @param afterBlock what follows a block.
     * @param blocker    the blocking wait.
     * @throws IllegalArgumentException naming a negative count or a null argument.
     */
    public BackoffThenBlockIdleStrategy(
        final int maxSpins, final int maxYields, final AfterBlock afterBlock, final Blocker blocker)
    {
        this(maxSpins, maxYields, UNBOUNDED_BACKOFF_NS, SystemNanoClock.INSTANCE, afterBlock, blocker);
    }

    /**
     * @param maxSpins   spins before yielding (>= 0).
     * @param maxYields  yields before blocking (>= 0).
     * @param maxBackoffNs how long spinning and yielding may last together from the first idle round (> 0), or
     *                   {@link #UNBOUNDED_BACKOFF_NS}; whichever of the counts and the time runs out first ends them.
     * @param clock      the clock that times them.
     * @param afterBlock what follows a block.
     * @param blocker    the blocking wait.
     * @throws IllegalArgumentException naming a negative count, a time that is not positive or a null argument.
     */
    public BackoffThenBlockIdleStrategy(
        final int maxSpins, final int maxYields, final long maxBackoffNs, final NanoClock clock,
        final AfterBlock afterBlock, final Blocker blocker)
    {
        if (maxSpins < 0 || maxYields < 0)
        {
            throw new IllegalArgumentException("maxSpins " + maxSpins + ", maxYields " + maxYields +
                ": expected counts >= 0");
        }
        if (maxBackoffNs <= 0)
        {
            throw new IllegalArgumentException("maxBackoffNs " + maxBackoffNs + ": expected a time > 0");
        }
        if (null == afterBlock || null == blocker)
        {
            throw new IllegalArgumentException("afterBlock " + afterBlock + ", blocker " + blocker +
                ": expected both");
        }
        if (null == clock)
        {
            throw new IllegalArgumentException("clock null: expected a clock to time spinning and yielding");
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.maxBackoffNs = maxBackoffNs;
        this.clock = clock;
        this.afterBlock = afterBlock;
        this.blocker = blocker;
    }

    /** A provider's progress thread: back off to its own wait, and spin again once woken. */
    public static BackoffThenBlockIdleStrategy providerAgent(final Blocker providerWait)
    {
        return providerAgent(SystemNanoClock.INSTANCE, providerWait);
    }

    /** {@link #providerAgent(Blocker)} timing its spinning and yielding on {@code clock}. */
    public static BackoffThenBlockIdleStrategy providerAgent(final NanoClock clock, final Blocker providerWait)
    {
        return new BackoffThenBlockIdleStrategy(
            PROVIDER_SPINS, PROVIDER_YIELDS, PROVIDER_BACKOFF_NS, clock, AfterBlock.SPIN_AGAIN, providerWait);
    }

    /** The endpoint library's progress thread: back off to the driver's await (until the next timer) and stay. */
    public static BackoffThenBlockIdleStrategy endpointAgent(final Blocker driverAwait)
    {
        return endpointAgent(SystemNanoClock.INSTANCE, driverAwait);
    }

    /** {@link #endpointAgent(Blocker)} timing its yield phase on {@code clock}. */
    public static BackoffThenBlockIdleStrategy endpointAgent(final NanoClock clock, final Blocker driverAwait)
    {
        return new BackoffThenBlockIdleStrategy(
            ENDPOINT_SPINS, Integer.MAX_VALUE, ENDPOINT_YIELD_NS, clock, AfterBlock.BLOCK_AGAIN, driverAwait);
    }

    /** A rank polling its endpoint: spin, and yield the core once every {@value #POLLS_PER_YIELD} empty polls. */
    public static BackoffThenBlockIdleStrategy busyPolling()
    {
        return new BackoffThenBlockIdleStrategy(POLLS_PER_YIELD - 1, 0, AfterBlock.SPIN_AGAIN, YIELD);
    }

    /** A wait on another party that may be descheduled: {@code spins} spins, then a yield every round. */
    public static BackoffThenBlockIdleStrategy spinThenYield(final int spins)
    {
        return new BackoffThenBlockIdleStrategy(spins, 0, AfterBlock.BLOCK_AGAIN, YIELD);
    }

    /** A wait for a lock held by another process: {@value #LOCK_WAIT_SPINS} spins, then a yield every round. */
    public static BackoffThenBlockIdleStrategy lockWait()
    {
        return spinThenYield(LOCK_WAIT_SPINS);
    }

    /** Spin on every round, never yield (Agrona's BusySpinIdleStrategy). */
    public static BackoffThenBlockIdleStrategy busySpin()
    {
        return new BackoffThenBlockIdleStrategy(0, 0, AfterBlock.BLOCK_AGAIN, Thread::onSpinWait);
    }

    /** Yield on every round (Agrona's YieldingIdleStrategy). */
    public static BackoffThenBlockIdleStrategy yielding()
    {
        return new BackoffThenBlockIdleStrategy(0, 0, AfterBlock.BLOCK_AGAIN, YIELD);
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
        if (spins < maxSpins && !backoffTimeSpent())
        {
            spins++;
            Thread.onSpinWait();
        }
        else if (yields < maxYields && !backoffTimeSpent())
        {
            yields++;
            Thread.yield();
        }
        else
        {
            blocker.block();
            if (AfterBlock.SPIN_AGAIN == afterBlock)
            {
                reset();
            }
        }
    }

    /**
     * Starts the clock at the first idle round after a reset; once its time is spent, spinning and yielding are over
     * until the next reset.
     */
    private boolean backoffTimeSpent()
    {
        if (UNBOUNDED_BACKOFF_NS == maxBackoffNs)
        {
            return false;
        }
        final long nowNs = clock.nanoTime();
        if (0 == spins && 0 == yields)
        {
            backoffStartNs = nowNs;
            return false;
        }
        if (nowNs - backoffStartNs < maxBackoffNs)
        {
            return false;
        }
        spins = maxSpins;
        yields = maxYields;
        return true;
    }

    @Override
    public void reset()
    {
        spins = 0;
        yields = 0;
    }

    /** @return whether the next idle without work blocks (spins and yields are used up). */
    public boolean isBlocking()
    {
        return spins == maxSpins && yields == maxYields;
    }

    @Override
    public String alias()
    {
        final String timeBound = UNBOUNDED_BACKOFF_NS == maxBackoffNs ? "" : " within " + maxBackoffNs + " ns";
        return "backoff-then-block(" + maxSpins + " spins, " + maxYields + " yields" + timeBound + ", then block, " +
            afterBlock.name().toLowerCase(Locale.ROOT) + ")";
    }
}
