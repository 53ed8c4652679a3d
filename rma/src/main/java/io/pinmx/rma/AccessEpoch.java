package io.pinmx.rma;

import java.lang.invoke.VarHandle;

/**
 * This rank's access epoch (ARMCI_Access_begin/end) on one of its slices: while it is open, this rank holds every
 * lock stripe of its own memory, so no floating-point or complex accumulate is applied to any of its slices (from a
 * same-host origin or by its own data server for a remote one) until the epoch ends; the origins wait. Integer
 * accumulates (atomic adds), read-modify-writes, puts and gets are not held back. Opening and closing the epoch are
 * full fences, so what completed here before the epoch is visible to the loads in it, and its stores are visible to
 * whatever comes after it. One epoch at a time; owned by the application thread.
 */
final class AccessEpoch
{
    enum State
    {
        CLOSED, OPEN
    }

    private final LockStripes stripes;
    private final int self;
    private State state = State.CLOSED;
    private RmaAllocation allocation;

    AccessEpoch(final LockStripes stripes, final int self)
    {
        this.stripes = stripes;
        this.self = self;
    }

    /**
     * @throws IllegalArgumentException if the allocation is null.
     * @throws IllegalStateException    if an epoch is open already, or the allocation was freed.
     */
    void begin(final RmaAllocation a)
    {
        if (null == a)
        {
            throw new IllegalArgumentException("access epoch: the allocation is null");
        }
        a.checkLive();
        if (State.OPEN == state)
        {
            throw new IllegalStateException("access epoch on allocation " + a.id() + ": the epoch on allocation " +
                allocation.id() + " is still open (one at a time)");
        }
        stripes.lockAll();
        VarHandle.fullFence();
        allocation = a;
        state = State.OPEN;
    }

    /**
     * @throws IllegalStateException if no epoch is open on that allocation.
     */
    void end(final RmaAllocation a)
    {
        if (State.OPEN != state || a != allocation)
        {
            throw new IllegalStateException("access epoch end on " + a + ": " + (State.OPEN == state ?
                "the open epoch is on allocation " + allocation.id() : "no epoch is open"));
        }
        close();
    }

    /** Ends the epoch if one is open (a closing Rma must not leave the stripes held). */
    void close()
    {
        if (State.OPEN == state)
        {
            VarHandle.fullFence();
            stripes.unlockAll();
            allocation = null;
            state = State.CLOSED;
        }
    }

    /**
     * @throws IllegalStateException if an epoch is open and a floating-point accumulate aims at this rank (it would
     *                               wait for the stripes this epoch holds), or the allocation is the epoch's (a free).
     */
    void checkAccumulate(final ElementType type, final int rank)
    {
        if (State.OPEN == state && rank == self && ElementType.INT != type && ElementType.LONG != type)
        {
            throw new IllegalStateException(type + " accumulate to this rank's own memory inside the access epoch on " +
                "allocation " + allocation.id() + " would wait for the epoch's end");
        }
    }

    /** @throws IllegalStateException if the epoch is on that allocation. */
    void checkFree(final RmaAllocation a)
    {
        if (State.OPEN == state && a == allocation)
        {
            throw new IllegalStateException("free of allocation " + a.id() + " inside its access epoch (end it first)");
        }
    }
}
