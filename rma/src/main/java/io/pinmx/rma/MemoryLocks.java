package io.pinmx.rma;

/**
 * ARMCI's address-range locks ({@code armci_lockmem}/{@code armci_unlockmem}) on the mutexes: each rank hosts one
 * mutex, created collectively at init, that stands for all of its memory. Locking a range of a rank's slice takes
 * that rank's mutex, so two ranges on one rank exclude each other even when they do not overlap (coarser than a table
 * of ranges, and what a code that locks one range at a time cannot tell apart). Unlocking completes the holder's puts
 * and accumulates first, as a mutex unlock does. One range at a time, as ARMCI's; owned by the application thread.
 */
final class MemoryLocks
{
    enum State
    {
        FREE, HELD
    }

    private final RmaMutexes mutexes;
    private State state = State.FREE;
    private RmaAllocation allocation;
    private int rank;
    private long offset;
    private long bytes;

    MemoryLocks(final RmaMutexes mutexes)
    {
        this.mutexes = mutexes;
    }

    /**
     * Waits until this rank holds the range; waiters are served first come, first served.
     *
     * @throws IllegalArgumentException naming the rank or range if it is not in the job, the allocation's group or
     *                                  the rank's slice.
     * @throws IllegalStateException    if this rank holds a range already, or the allocation was freed.
     */
    void lock(final RmaAllocation a, final int target, final long from, final long length)
    {
        check(a, target, from, length, "locked range");
        if (State.HELD == state)
        {
            throw new IllegalStateException("address-range lock of [" + from + ", +" + length + ") on rank " + target +
                ": this rank holds " + held() + " (one at a time)");
        }
        mutexes.lock(0, target);
        allocation = a;
        rank = target;
        offset = from;
        bytes = length;
        state = State.HELD;
    }

    /**
     * @throws IllegalStateException naming the range if this rank does not hold exactly it.
     */
    void unlock(final RmaAllocation a, final int target, final long from, final long length)
    {
        if (State.HELD != state || a != allocation || target != rank || from != offset || length != bytes)
        {
            throw new IllegalStateException("address-range unlock of [" + from + ", +" + length + ") on rank " +
                target + ": this rank holds " + (State.HELD == state ? held() : "no range"));
        }
        mutexes.unlock(0, target);
        allocation = null;
        state = State.FREE;
    }

    private String held()
    {
        return "[" + offset + ", +" + bytes + ") of allocation " + allocation.id() + " on rank " + rank;
    }

    private static void check(final RmaAllocation a, final int target, final long from, final long length,
        final String what)
    {
        if (null == a)
        {
            throw new IllegalArgumentException(what + ": the allocation is null");
        }
        a.checkLive();
        a.checkMember(target, what);
        a.checkRange(target, from, length, what);
    }
}
