package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One rank's access-epoch word and its accessors' slots, in that rank's control file (mapped by every rank on its
 * host), so that an origin learns of the epoch from the target's memory with no message. The epoch word holds the
 * id (plus one) of the allocation whose slice is in an epoch, 0 for none; each accessor (a same-host origin rank, or
 * the owner's data server for the ranks it serves) owns one slot, holding the id (plus one) of the allocation whose
 * slice it is touching. An accessor publishes its slot, then reads the epoch word; the owner publishes the epoch
 * word, then waits for every slot to leave its allocation. Both are sequentially consistent accesses, so either the
 * accessor sees the epoch and stands back, or the owner sees the accessor and waits for it: no operation on that
 * slice overlaps the epoch, and no atomic read-modify-write is on an operation's path.
 * <p>
 * The drivers' pulls (gets through the driver) read the slice without any of this rank's threads, so they cannot
 * take a slot: for them the gate keeps an epoch counter, odd while an epoch is open and counting epochs, which this
 * rank exposes on its endpoint ({@link EpochCounters}): a pull that read the counter even and unchanged before it
 * started and after it ended overlapped no epoch.
 */
final class EpochGate
{
    /** Epoch word and slots each on a cache line of their own: accessors of one target share no line. */
    private static final long LINE_BYTES = 64;
    private static final long EPOCH_AT = 0;
    private static final long COUNTER_AT = LINE_BYTES;
    private static final int FIRST_SLOT_LINE = 2;
    private static final int SPINS_BEFORE_YIELD = 100;
    private static final int YIELDS_BEFORE_PARK = 100;
    private static final long PARK_NS = 50_000;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment words;
    private final int slots;

    /**
     * @param words {@link #bytes(int)} bytes, zeroed before first use, 8-byte aligned.
     * @param slots accessors: one per rank of the job, and the owner's data server ({@link #serverSlot(int)}).
     */
    EpochGate(final MemorySegment words, final int slots)
    {
        if (words.byteSize() < bytes(slots - 1) || 0 != words.address() % Long.BYTES)
        {
            throw new IllegalArgumentException("epoch gate of " + words.byteSize() + " bytes for " + slots + " slots");
        }
        this.words = words;
        this.slots = slots;
    }

    /** @return the bytes of the gate of a job of {@code ranks} ranks. */
    static long bytes(final int ranks)
    {
        return LINE_BYTES * (ranks + 1 + FIRST_SLOT_LINE);
    }

    /** @return the slot of the owner's data server in a job of {@code ranks} ranks (one past the ranks'). */
    static int serverSlot(final int ranks)
    {
        return ranks;
    }

    /** What an accessor does while it stands back (its liveness checks, the data server's other duties). */
    interface WhileHeld
    {
        void waiting();
    }

    /**
     * Waits until no epoch is open on the allocation's slice, then holds the slot on it until {@link #leave(int)}.
     */
    void enter(final int slot, final long allocationId, final WhileHeld whileHeld)
    {
        final long mark = allocationId + 1;
        final long at = slotAt(slot);
        while (true)
        {
            WORD.setVolatile(words, at, mark);
            if ((long)WORD.getVolatile(words, EPOCH_AT) != mark)
            {
                return;
            }
            WORD.setRelease(words, at, 0L);
            int waits = 0;
            while ((long)WORD.getVolatile(words, EPOCH_AT) == mark)
            {
                backOff(waits++);
                whileHeld.waiting();
            }
        }
    }

    /** Releases the slot: the operation's stores happen before the owner's epoch sees it gone. */
    void leave(final int slot)
    {
        WORD.setRelease(words, slotAt(slot), 0L);
    }

    /** Checks the accessor of a slot the owner waits for (that its process is still alive). */
    interface SlotCheck
    {
        void check(int slot);
    }

    /**
     * The owner opens an epoch on the allocation's slice: returns once no accessor is on it.
     *
     * @throws RuntimeException what {@code check} threw for an accessor the owner waited for; the epoch is not open.
     */
    void open(final long allocationId, final SlotCheck check)
    {
        final long mark = allocationId + 1;
        WORD.setVolatile(words, EPOCH_AT, mark);
        try
        {
            for (int s = 0; s < slots; s++)
            {
                int waits = 0;
                while ((long)WORD.getVolatile(words, slotAt(s)) == mark)
                {
                    backOff(waits++);
                    check.check(s);
                }
            }
        }
        catch (final RuntimeException ex)
        {
            WORD.setRelease(words, EPOCH_AT, 0L);
            throw ex;
        }
        WORD.setVolatile(words, COUNTER_AT, (long)WORD.getVolatile(words, COUNTER_AT) + 1);
    }

    /** The owner closes its epoch: its stores happen before any accessor's entry and before the counter is even. */
    void close()
    {
        WORD.setVolatile(words, COUNTER_AT, (long)WORD.getVolatile(words, COUNTER_AT) + 1);
        WORD.setRelease(words, EPOCH_AT, 0L);
    }

    /** @return the epoch counter's 8 bytes: odd while an epoch is open; what this rank exposes for pulls to check. */
    MemorySegment counter()
    {
        return words.asSlice(COUNTER_AT, Long.BYTES);
    }

    private static long slotAt(final int slot)
    {
        return LINE_BYTES * (slot + FIRST_SLOT_LINE);
    }

    /** The other side may be a descheduled process: spin briefly, then let it run, then sleep a little. */
    private static void backOff(final int waits)
    {
        if (waits < SPINS_BEFORE_YIELD)
        {
            Thread.onSpinWait();
        }
        else if (waits < SPINS_BEFORE_YIELD + YIELDS_BEFORE_PARK)
        {
            Thread.yield();
        }
        else
        {
            LockSupport.parkNanos(PARK_NS);
        }
    }
}
