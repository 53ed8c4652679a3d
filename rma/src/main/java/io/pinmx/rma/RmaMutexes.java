package io.pinmx.rma;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.MemorySegment;

/**
 * A collectively created set of mutexes: every member of its group hosts its own number of them (0 allowed); hosts
 * are named by world rank, and a rank outside the group is refused naming it. Each mutex is a
 * ticket lock in its host's memory (next ticket, now serving), so waiters are served first come, first served; a
 * waiter on a same-host mutex watches the host's memory, a remote one waits for the host's data server to grant it
 * its turn, and nobody spins over the network. Destroyed collectively by
 * {@link Rma#destroyMutexes(RmaMutexes)}.
 */
public final class RmaMutexes
{
    static final long MUTEX_BYTES = 2 * Long.BYTES;
    private static final long SERVING_OFFSET = Long.BYTES;

    private final Rma rma;
    private final DriverTier driver;
    private final RmaAllocation words;
    private final int[] counts;
    private final boolean[][] held;
    /** How a waiter on a same-host mutex waits (this object is used by its rank's application thread only). */
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.lockWait();

    private RmaMutexes(final Rma rma, final DriverTier driver, final RmaAllocation words, final int[] counts)
    {
        this.rma = rma;
        this.driver = driver;
        this.words = words;
        this.counts = counts;
        this.held = new boolean[counts.length][];
        for (int r = 0; r < counts.length; r++)
        {
            held[r] = new boolean[counts[r]];
        }
    }

    /**
     * Collective over the group's members: each hosts {@code count} mutexes, in an allocation of their own.
     *
     * @param driver null when no rank is reached through the driver.
     * @throws IllegalArgumentException on every rank, naming the rank, if any rank gave a negative count.
     */
    static RmaMutexes create(final Rma rma, final DriverTier driver, final RmaGroup group, final int count)
    {
        final RmaAllocation words;
        try
        {
            // A negative count goes into the collective allocation as a negative size, which refuses it on every
            // rank alike: refusing it here, on this rank alone, would leave the others waiting in the allocation.
            words = rma.alloc(group, count * MUTEX_BYTES);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("mutex count refused on every rank (" + MUTEX_BYTES +
                " bytes a mutex): " + ex.getMessage(), ex);
        }
        final int[] counts = new int[rma.size()];
        for (final int r : group.worldRanks())
        {
            counts[r] = (int)(words.size(r) / MUTEX_BYTES);
        }
        return new RmaMutexes(rma, driver, words, counts);
    }

    /** @return how many mutexes the rank hosts. */
    public int count(final int rank)
    {
        rma.checkRank(rank, "mutex host");
        words.checkMember(rank, "mutex host");
        return counts[rank];
    }

    /**
     * Waits until this rank holds the mutex; waiters are served in the order they asked.
     *
     * @throws IllegalArgumentException naming the mutex if the rank hosts no such mutex.
     * @throws IllegalStateException    if this rank holds it already (mutexes are not reentrant).
     * @throws RmaException             naming the host if it died while we waited.
     */
    public void lock(final int mutex, final int rank)
    {
        final MemorySegment slice = slice(mutex, rank);
        if (held[rank][mutex])
        {
            throw new IllegalStateException("mutex " + mutex + " of rank " + rank + " is already held by this rank");
        }
        if (null == slice)
        {
            driver.call(RmaOp.LOCK, rank, words.id(), mutex, 0);
            held[rank][mutex] = true;
            return;
        }
        final long at = mutex * MUTEX_BYTES;
        final long ticket = SharedMemoryTier.fetchAndAdd(slice, at, 1L);
        idle.reset();
        while (SharedMemoryTier.loadAcquire(slice, at + SERVING_OFFSET) != ticket)
        {
            if (idle.isBlocking())
            {
                rma.checkAlive(rank);
            }
            idle.idle();
        }
        held[rank][mutex] = true;
    }

    /**
     * @return true if the mutex was free and is now held by this rank; false at once otherwise.
     */
    public boolean tryLock(final int mutex, final int rank)
    {
        final MemorySegment slice = slice(mutex, rank);
        if (held[rank][mutex])
        {
            return false;
        }
        if (null == slice)
        {
            held[rank][mutex] = 1 == driver.call(RmaOp.TRY_LOCK, rank, words.id(), mutex, 0);
            return held[rank][mutex];
        }
        final long at = mutex * MUTEX_BYTES;
        final long serving = SharedMemoryTier.loadAcquire(slice, at + SERVING_OFFSET);
        if (SharedMemoryTier.compareAndSet(slice, at, serving, serving + 1))
        {
            held[rank][mutex] = true;
            return true;
        }
        return false;
    }

    /**
     * Completes this rank's earlier puts and accumulates everywhere (an all-fence), then hands the mutex to the next
     * waiter: what the holder wrote under the mutex is in place before anyone else holds it, whichever path each
     * write and each later read takes.
     *
     * @throws IllegalStateException naming the mutex if this rank does not hold it.
     */
    public void unlock(final int mutex, final int rank)
    {
        final MemorySegment slice = slice(mutex, rank);
        if (!held[rank][mutex])
        {
            throw new IllegalStateException("unlock of mutex " + mutex + " of rank " + rank + ", which this rank does not hold");
        }
        rma.allFence();
        held[rank][mutex] = false;
        if (null == slice)
        {
            driver.tell(RmaOp.UNLOCK, rank, words.id(), mutex);
            return;
        }
        SharedMemoryTier.fetchAndAdd(slice, mutex * MUTEX_BYTES + SERVING_OFFSET, 1L);
    }

    RmaAllocation words()
    {
        return words;
    }

    private MemorySegment slice(final int mutex, final int rank)
    {
        rma.checkRank(rank, "mutex host");
        words.checkLive();
        words.checkMember(rank, "mutex host");
        if (mutex < 0 || mutex >= counts[rank])
        {
            throw new IllegalArgumentException("rank " + rank + " hosts " + counts[rank] + " mutexes; there is no mutex " + mutex);
        }
        rma.checkAlive(rank);
        return words.slice(rank);
    }
}
