package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

/**
 * The endpoint's {@link RemoteOp} slots: a free list and a queue of submitted ones, shared under this object's
 * monitor between application threads (claim, submit) and the agent (take, free), with a volatile flag so an idle
 * duty cycle sees an empty queue without the monitor; the active ones, which only the agent touches.
 */
final class RemoteOps
{
    /** Puts and atomics of one endpoint running at once at most. */
    static final int MAX_OPS = 64;
    private static final int SLOT_BITS = 6;

    private final RemoteOp[] slots = new RemoteOp[MAX_OPS];
    private final int[] free = new int[MAX_OPS];
    private final int[] submitted = new int[MAX_OPS];
    private final RemoteOp[] active = new RemoteOp[MAX_OPS];
    private int freeCount;
    private int submittedHead;
    private int submittedCount;
    /** Set with the first submission, cleared under the monitor once the queue is empty. */
    private volatile boolean hasSubmitted;
    private int activeCount;

    RemoteOps()
    {
        for (int i = 0; i < MAX_OPS; i++)
        {
            slots[i] = new RemoteOp(i);
            free[freeCount++] = MAX_OPS - 1 - i;
        }
    }

    /**
     * Application thread: a free slot for {@code what}, to fill and {@link #submit}.
     *
     * @throws DriverException {@link DriverError#NO_RESOURCES} when {@link #MAX_OPS} are running.
     */
    synchronized RemoteOp claim(final Object what)
    {
        if (freeCount == 0)
        {
            throw new DriverException(DriverError.NO_RESOURCES, what + ": all " + MAX_OPS +
                " puts and atomics of the endpoint are running; wait for an end event");
        }
        final RemoteOp op = slots[free[--freeCount]];
        op.state = RemoteOpState.SUBMITTED;
        return op;
    }

    /** Application thread: hand a filled slot to the agent. */
    synchronized void submit(final RemoteOp op)
    {
        submitted[(submittedHead + submittedCount++) % MAX_OPS] = op.slotIndex;
        hasSubmitted = true;
    }

    boolean hasSubmissions()
    {
        return hasSubmitted;
    }

    /** Agent: the oldest submitted slot, or null. */
    RemoteOp takeSubmitted()
    {
        if (!hasSubmitted)
        {
            return null;
        }
        synchronized (this)
        {
            if (submittedCount == 0)
            {
                hasSubmitted = false;
                return null;
            }
            final RemoteOp op = slots[submitted[submittedHead]];
            submittedHead = (submittedHead + 1) % MAX_OPS;
            submittedCount--;
            return op;
        }
    }

    /** Agent: the slot runs until its end event. */
    void activate(final RemoteOp op)
    {
        op.state = RemoteOpState.ACTIVE;
        active[activeCount++] = op;
    }

    int activeCount()
    {
        return activeCount;
    }

    RemoteOp active(final int i)
    {
        return active[i];
    }

    /** A put's handle on the wire: its slot and the slot's generation, so a late ack of an earlier put is not its. */
    static int putWireId(final RemoteOp op)
    {
        return op.generation << SLOT_BITS | op.slotIndex;
    }

    /** Agent: the active put with this wire handle, or null. */
    RemoteOp activePut(final int wireId)
    {
        final RemoteOp op = slots[wireId & (MAX_OPS - 1)];
        return op.state == RemoteOpState.ACTIVE && op.kind == RemoteOp.Kind.PUT && op.wireId == wireId ? op : null;
    }

    /** Agent: the active atomic with this request seq, or null. */
    RemoteOp activeAtomic(final int requestSeq)
    {
        for (int i = 0; i < activeCount; i++)
        {
            final RemoteOp op = active[i];
            if (op.kind == RemoteOp.Kind.ATOMIC && op.wireId == requestSeq)
            {
                return op;
            }
        }
        return null;
    }

    /** Agent: the slot's operation ended; back to the free list under a new generation. */
    void free(final RemoteOp op)
    {
        if (op.state == RemoteOpState.ACTIVE)
        {
            for (int i = 0; i < activeCount; i++)
            {
                if (active[i] == op)
                {
                    active[i] = active[--activeCount];
                    active[activeCount] = null;
                    break;
                }
            }
        }
        op.generation = (op.generation + 1) & ((1 << (31 - SLOT_BITS)) - 1);
        op.peer = null;
        synchronized (this)
        {
            op.state = RemoteOpState.FREE;
            free[freeCount++] = op.slotIndex;
        }
    }
}
