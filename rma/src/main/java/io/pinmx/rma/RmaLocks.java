package io.pinmx.rma;

/**
 * ARMCI's mutexes ({@code ARMCI_Create_mutexes} and the rest) and address-range locks ({@code armci_lockmem},
 * {@code armci_unlockmem}) over one rank's {@link Rma} ({@link Rma#locks()}). Each rank's memory has one range lock,
 * a mutex of its own created collectively at init ({@link MemoryLocks}). Used by the thread that issues operations.
 */
public final class RmaLocks
{
    private final Rma rma;
    private final DriverTier driver;
    private final RmaGroups groups;
    private final MemoryLocks memoryLocks;
    /** This rank's wait for a turn on a passive host, and its wake-ups of such waiters: null without a driver tier. */
    private final TurnWait turnWait;
    private final TurnWakes wakes;

    /** Collective: creates every rank's range lock. */
    RmaLocks(final Rma rma, final DriverTier driver, final RmaGroups groups)
    {
        this.rma = rma;
        this.driver = driver;
        this.groups = groups;
        this.turnWait = null == driver ? null : new TurnWait(driver.job().endpoint(), RmaMutexes.PROBE_INTERVAL_NS);
        this.wakes = null == driver ? null : new TurnWakes(new JobMessagePeers(driver.job()));
        this.memoryLocks = new MemoryLocks(createMutexes(1));
    }

    /**
     * Collective: this rank hosts {@code count} mutexes (counts may differ between ranks, 0 included).
     *
     * @throws IllegalArgumentException on every rank, naming the rank, if any rank gave a negative count.
     */
    public RmaMutexes createMutexes(final int count)
    {
        return createMutexes(groups.world(), count);
    }

    /**
     * Collective over the group's members: each hosts {@code count} mutexes; hosts are named by world rank and a rank
     * outside the group is refused, naming it.
     */
    public RmaMutexes createMutexes(final RmaGroup group, final int count)
    {
        return RmaMutexes.create(rma, driver, turnWait, wakes, group, count);
    }

    /** Collective: destroys the group; using it afterwards fails. */
    public void destroyMutexes(final RmaMutexes mutexes)
    {
        rma.free(mutexes.words());
    }

    /**
     * Waits until this rank holds an address range of a rank's slice ({@code armci_lockmem}); each rank's memory has
     * one lock (created at init), so ranges on one rank exclude each other even when apart. One range at a time.
     *
     * @throws IllegalArgumentException naming the rank or range if it is outside the job, the allocation's group or
     *                                  the slice.
     * @throws IllegalStateException    if this rank holds a range already, or the allocation was freed.
     */
    public void lockMemory(final RmaAllocation allocation, final int rank, final long offset, final long bytes)
    {
        rma.checkOpen();
        rma.checkRank(rank, "locked range");
        memoryLocks.lock(allocation, rank, offset, bytes);
    }

    /**
     * Completes this rank's puts and accumulates everywhere, then lets the range go ({@code armci_unlockmem}).
     *
     * @throws IllegalStateException naming the range if this rank does not hold exactly it.
     */
    public void unlockMemory(final RmaAllocation allocation, final int rank, final long offset, final long bytes)
    {
        memoryLocks.unlock(allocation, rank, offset, bytes);
    }
}
