package io.pinmx.rma;

import java.lang.invoke.VarHandle;

/**
 * This rank's access epoch (ARMCI_Access_begin/end) on its slice of one allocation, with ARMCI-MPI's meaning (an
 * exclusive lock of one's own window): while it is open, no put, get, accumulate or read-modify-write from any other
 * rank touches that slice. It closes the slice's {@link EpochGate}, in which same-host origins and this rank's data
 * server (which serves the ranks reached through the driver) each hold a slot while they touch a slice: opening waits
 * for the slots on the slice to leave, and later accessors wait for the epoch's end. Opening and closing are full
 * fences, so what completed here before the epoch is visible to its loads, and its stores to whatever follows it.
 * On a passive target the driver applies one-sided writes without any thread of this rank, so no slot sees them:
 * the epoch first has the driver hold them back ({@link ExposedWrites#holdOwn}; they wait at their origins) and
 * lets them in after the gate reopens. One epoch at a time; owned by the application thread.
 */
final class AccessEpoch
{
    enum State
    {
        CLOSED, OPEN
    }

    private final EpochGate gate;
    private final Ranks ranks;
    private final int self;
    private final EpochGate.SlotCheck accessorAlive;
    /** False once this rank announced at init that it opens none: gets from it do not check its epochs. */
    private final boolean allowed;
    private State state = State.CLOSED;
    private RmaAllocation allocation;

    AccessEpoch(final Ranks ranks, final boolean allowed)
    {
        this.ranks = ranks;
        this.allowed = allowed;
        this.self = ranks.self();
        this.gate = ranks.gate(self);
        this.accessorAlive = slot ->
        {
            if (slot < ranks.size() && slot != self)
            {
                ranks.checkAlive(slot);
            }
        };
    }

    /**
     * @throws IllegalArgumentException if the allocation is null, or this rank has no slice in it.
     * @throws IllegalStateException    if an epoch is open already, the allocation was freed, or this rank announced
     *                                  at init that it opens no epochs.
     * @throws RmaException             naming a same-host rank that exited while it was touching the slice.
     */
    void begin(final RmaAllocation a)
    {
        if (null == a)
        {
            throw new IllegalArgumentException("access epoch: the allocation is null");
        }
        a.checkLive();
        a.checkMember(self, "access epoch");
        if (!allowed)
        {
            throw new IllegalStateException("access epoch on allocation " + a.id() + ": rank " + self +
                " announced at init that it opens none (" + RmaOptions.ACCESS_EPOCHS_VARIABLE + "=0)");
        }
        if (State.OPEN == state)
        {
            throw new IllegalStateException("access epoch on allocation " + a.id() + ": the epoch on allocation " +
                allocation.id() + " is still open (one at a time)");
        }
        final boolean driverWrites = a.writes().exposed(self);
        if (driverWrites)
        {
            a.writes().holdOwn(true, a.toString());
        }
        try
        {
            gate.open(a.id(), accessorAlive);
        }
        catch (final RuntimeException ex)
        {
            if (driverWrites)
            {
                a.writes().holdOwn(false, a.toString());
            }
            throw ex;
        }
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

    /** Ends the epoch if one is open (a closing Rma must not leave its slice closed to the others). */
    void close()
    {
        if (State.OPEN == state)
        {
            VarHandle.fullFence();
            gate.close();
            final RmaAllocation closing = allocation;
            allocation = null;
            state = State.CLOSED;
            if (closing.writes().exposed(self))
            {
                closing.writes().holdOwn(false, closing.toString());
            }
        }
    }

    /**
     * @throws IllegalStateException if an operation aims at this rank's own slice of the epoch's allocation (it would
     *                               wait for the epoch's end: inside it, that slice is reached by loads and stores).
     */
    void checkAccess(final RmaAllocation a, final int rank, final String what)
    {
        if (State.OPEN == state && rank == self && a == allocation)
        {
            throw new IllegalStateException(what + " on this rank's own slice of allocation " + a.id() +
                " inside its access epoch would wait for the epoch's end");
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
