package io.pinmx.rma;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.MemorySegment;

/**
 * A collectively created set of mutexes: every member of its group hosts its own number of them (0 allowed); hosts
 * are named by world rank, and a rank outside the group is refused naming it. Each mutex is a
 * ticket lock in its host's memory (next ticket, now serving), so waiters are served first come, first served; a
 * waiter on a same-host mutex watches the host's memory; a remote one on a passive host ({@link Rma#driverWrites})
 * takes its ticket with the host driver's atomics and is woken by the releaser through its own flag word
 * ({@link MutexTurns}), so a stopped host still hands its mutexes on; on other hosts a remote waiter waits for the
 * host's data server to grant its turn. Nobody spins over the network. Destroyed collectively by
 * {@link RmaLocks#destroyMutexes(RmaMutexes)}.
 */
public final class RmaMutexes
{
    static final long MUTEX_BYTES = 2 * Long.BYTES;
    /** Where a mutex's now-serving word follows its next-ticket word. */
    static final long SERVING_OFFSET = Long.BYTES;
    /**
     * A remote waiter on a passive host asks the host's driver this often whether the host is still there, and looks
     * at its flag word if no wake-up came.
     */
    static final long PROBE_INTERVAL_NS = 1_000_000_000L;
    private static final long NO_TICKET = -1;

    private final Rma rma;
    private final DriverTier driver;
    private final RmaAllocation words;
    private final int[] counts;
    private final boolean[][] held;
    /** Per host and mutex, this rank's ticket while it holds it, or {@link #NO_TICKET} where the host's server gave it. */
    private final long[][] tickets;
    private final MutexTurns turns;
    /** How a waiter on a same-host mutex waits (this object is used by its rank's application thread only). */
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.lockWait();
    /** How a remote waiter on a passive host waits for its flag word; null without a driver tier. */
    private final TurnWait turnWait;
    /** How a releaser wakes such a waiter; null without a driver tier. */
    private final TurnWakes wakes;

    private RmaMutexes(final Rma rma, final DriverTier driver, final TurnWait turnWait, final TurnWakes wakes,
        final RmaAllocation words, final int[] counts, final MutexTurns turns)
    {
        this.rma = rma;
        this.driver = driver;
        this.turnWait = turnWait;
        this.wakes = wakes;
        this.words = words;
        this.counts = counts;
        this.turns = turns;
        this.held = new boolean[counts.length][];
        this.tickets = new long[counts.length][];
        for (int r = 0; r < counts.length; r++)
        {
            held[r] = new boolean[counts[r]];
            tickets[r] = new long[counts[r]];
        }
    }

    /**
     * Collective over the group's members: each hosts {@code count} mutexes, in an allocation of their own.
     *
     * @param driver   null when no rank is reached through the driver.
     * @param turnWait how this rank waits for a turn on a passive host; null when driver is.
     * @param wakes    how this rank wakes a waiter it hands a mutex to; null when driver is.
     * @throws IllegalArgumentException on every rank, naming the rank, if any rank gave a negative count.
     */
    static RmaMutexes create(final Rma rma, final DriverTier driver, final TurnWait turnWait, final TurnWakes wakes,
        final RmaGroup group, final int count)
    {
        final MutexTurns turns = new MutexTurns(rma.size());
        final RmaAllocation words;
        try
        {
            // A negative count goes into the collective allocation as a negative size, which refuses it on every
            // rank alike: refusing it here, on this rank alone, would leave the others waiting in the allocation.
            words = rma.alloc(group, turns.sliceBytes(count));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("mutex count refused on every rank (" + turns.bytesPerMutex() +
                " bytes a mutex, " + MutexTurns.FLAG_BYTES + " a host): " + ex.getMessage(), ex);
        }
        final int[] counts = new int[rma.size()];
        for (final int r : group.worldRanks())
        {
            counts[r] = turns.count(words.size(r));
        }
        return new RmaMutexes(rma, driver, turnWait, wakes, words, counts, turns);
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
        if (null == slice && driver.takesWrites(words, rank))
        {
            tickets[rank][mutex] = lockOnPassiveHost(mutex, rank);
            held[rank][mutex] = true;
            return;
        }
        if (null == slice)
        {
            driver.call(RmaOp.LOCK, rank, words.id(), mutex, 0);
            tickets[rank][mutex] = NO_TICKET;
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
        tickets[rank][mutex] = ticket;
        held[rank][mutex] = true;
    }

    /**
     * A ticket from the host's driver, then this rank's turn ({@link MutexTurns}): granted already, or awaited in this
     * rank's own flag word ({@link TurnWait}: asleep until the releaser's wake-up once a hand-off is not imminent);
     * meanwhile the host's driver is asked now and then whether the host is still there.
     *
     * @return the ticket.
     */
    private long lockOnPassiveHost(final int mutex, final int rank)
    {
        final long at = mutex * MUTEX_BYTES;
        final long ticket = driver.rmw(RmaOp.FETCH_ADD_LONG, rank, words, at, 1L);
        final MemorySegment own = words.local();
        final long flagAt = MutexTurns.flagOffset(own.byteSize());
        final long waiting = MutexTurns.waiting(ticket, rma.rank());
        // no wake-up is on its way to this flag: each is for a turn this rank waited for, and it saw that one land
        SharedMemoryTier.swap(own, flagAt, 0L);
        final long turn = driver.rmw(RmaOp.SWAP_LONG, rank, words, turns.turnOffset(counts[rank], mutex, ticket),
            waiting);
        if (MutexTurns.granted(ticket) == turn)
        {
            return ticket;
        }
        // an atomic read of now serving now and then: a host whose endpoint is gone fails it, naming the host
        turnWait.await(own, flagAt, waiting,
            () -> driver.rmw(RmaOp.FETCH_ADD_LONG, rank, words, at + SERVING_OFFSET, 0L));
        return ticket;
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
        final long at = mutex * MUTEX_BYTES;
        if (null == slice && driver.takesWrites(words, rank))
        {
            final long serving = rma.values().getLong(words, rank, at + SERVING_OFFSET);
            held[rank][mutex] = serving == driver.compareAndSwapLong(rank, words, at, serving, serving + 1);
            tickets[rank][mutex] = serving;
            return held[rank][mutex];
        }
        if (null == slice)
        {
            held[rank][mutex] = 1 == driver.call(RmaOp.TRY_LOCK, rank, words.id(), mutex, 0);
            tickets[rank][mutex] = NO_TICKET;
            return held[rank][mutex];
        }
        final long serving = SharedMemoryTier.loadAcquire(slice, at + SERVING_OFFSET);
        if (SharedMemoryTier.compareAndSet(slice, at, serving, serving + 1))
        {
            tickets[rank][mutex] = serving;
            held[rank][mutex] = true;
            return true;
        }
        return false;
    }

    /**
     * Completes this rank's earlier puts and accumulates everywhere (an all-fence), then hands the mutex to the next
     * waiter: what the holder wrote under the mutex is in place before anyone else holds it, whichever path each
     * write and each later read takes. On a passive host the next ticket's turn is granted first, the waiter that
     * asked for it woken in its own memory, then now serving advances for same-host waiters ({@link MutexTurns}).
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
        final long ticket = tickets[rank][mutex];
        if (NO_TICKET != ticket && words.writes().exposed(rank))
        {
            grantNextTurn(mutex, rank, ticket + 1);
        }
        if (null == slice)
        {
            if (driver.takesWrites(words, rank))
            {
                driver.rmw(RmaOp.FETCH_ADD_LONG, rank, words, mutex * MUTEX_BYTES + SERVING_OFFSET, 1L);
                return;
            }
            driver.tell(RmaOp.UNLOCK, rank, words.id(), mutex);
            return;
        }
        SharedMemoryTier.fetchAndAdd(slice, mutex * MUTEX_BYTES + SERVING_OFFSET, 1L);
    }

    /**
     * Grants {@code next} in its turn word, and wakes the rank found waiting for it there: its flag word first (the
     * swap returns once stored), then its thread, with a message ({@link TurnWakes}).
     */
    private void grantNextTurn(final int mutex, final int rank, final long next)
    {
        final long turn = rma.atomics().swapLong(words, rank, turns.turnOffset(counts[rank], mutex, next),
            MutexTurns.granted(next));
        final int waiter = MutexTurns.waiter(turn, next);
        if (waiter >= 0)
        {
            rma.atomics().swapLong(words, waiter, MutexTurns.flagOffset(words.size(waiter)), turn);
            wakes.wake(waiter, turn);
        }
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
