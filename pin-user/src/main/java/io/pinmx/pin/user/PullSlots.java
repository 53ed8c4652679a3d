package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.PullSpec;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link #MAX_PULLS} preallocated pull slots of one endpoint and the lists that hand them between threads: the
 * free stack and the FIFO of submitted pulls, shared by application threads ({@link #claim}) and the agent
 * ({@link #takeSubmitted}, {@link #free}) under {@link #lock}; and the agent's own list of ACTIVE slots.
 */
final class PullSlots
{
    static final int MAX_PULLS = 1 << PullSlot.SLOT_BITS;

    private final PullSlot[] slots = new PullSlot[MAX_PULLS];
    /** Guards the free stack and the submitted FIFO: the only state application threads and the agent share. */
    private final ReentrantLock lock = new ReentrantLock();
    private final PullSlot[] free = new PullSlot[MAX_PULLS];
    private int freeCount;
    private final PullSlot[] submitted = new PullSlot[MAX_PULLS];
    private int submittedHead;
    private int submittedCount;
    /** Set with a submission, cleared by the agent once the FIFO is empty: lets an idle agent skip the lock. */
    private volatile boolean hasSubmissions;
    private final PullSlot[] active = new PullSlot[MAX_PULLS];
    private int activeCount;

    PullSlots(final int blocksInFlight)
    {
        for (int i = 0; i < MAX_PULLS; i++)
        {
            slots[i] = new PullSlot(i, blocksInFlight);
            free[MAX_PULLS - 1 - i] = slots[i];
        }
        freeCount = MAX_PULLS;
    }

    /** Application thread: a free slot filled from {@code spec}, queued SUBMITTED for the agent. */
    void claim(final PullSpec spec, final UdpPeer from)
    {
        lock.lock();
        try
        {
            if (freeCount == 0)
            {
                throw new DriverException(DriverError.NO_RESOURCES,
                    "pull " + spec + ": " + MAX_PULLS + " pulls already in flight on this endpoint");
            }
            final PullSlot slot = free[--freeCount];
            slot.assign(spec, from);
            submitted[(submittedHead + submittedCount++) & (MAX_PULLS - 1)] = slot;
            hasSubmissions = true;
        }
        finally
        {
            lock.unlock();
        }
    }

    boolean hasSubmissions()
    {
        return hasSubmissions;
    }

    /** Agent: the oldest submitted slot, or null when none is queued. */
    PullSlot takeSubmitted()
    {
        if (!hasSubmissions)
        {
            return null;
        }
        lock.lock();
        try
        {
            if (submittedCount == 0)
            {
                hasSubmissions = false;
                return null;
            }
            final PullSlot slot = submitted[submittedHead];
            submitted[submittedHead] = null;
            submittedHead = (submittedHead + 1) & (MAX_PULLS - 1);
            submittedCount--;
            return slot;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Agent: a taken slot goes over UDP. */
    void activate(final PullSlot slot)
    {
        slot.activate();
        active[activeCount++] = slot;
    }

    int activeCount()
    {
        return activeCount;
    }

    /** Agent: the i-th active slot; freeing one moves the last into its place, so walk from the end. */
    PullSlot active(final int i)
    {
        return active[i];
    }

    /** Agent: the ACTIVE slot a wire handle names, or null for a late, duplicate or forged one. */
    PullSlot activeByWireHandle(final int wireHandle)
    {
        final PullSlot slot = slots[wireHandle & (MAX_PULLS - 1)];
        return slot.state() == PullState.ACTIVE && slot.wireHandle() == wireHandle ? slot : null;
    }

    /** Agent: the slot's pull has ended; back to the free stack. */
    void free(final PullSlot slot)
    {
        if (slot.state() == PullState.ACTIVE)
        {
            for (int i = 0; i < activeCount; i++)
            {
                if (active[i] == slot)
                {
                    active[i] = active[--activeCount];
                    active[activeCount] = null;
                    break;
                }
            }
        }
        slot.clear();
        lock.lock();
        try
        {
            free[freeCount++] = slot;
        }
        finally
        {
            lock.unlock();
        }
    }
}
