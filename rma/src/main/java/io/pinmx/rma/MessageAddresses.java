package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * Where each rank's endpoint for two-sided messages is reached, when every rank is on this host: a slot in each
 * rank's control file, mapped by every rank. A rank publishes its endpoint's address in its own slot, or why it could
 * not open one; a rank that wants to send to it raises the slot's "wanted" word and waits for either, with a deadline,
 * while the rank is alive.
 */
final class MessageAddresses
{
    /** What a slot holds. */
    enum SlotState
    {
        EMPTY, PUBLISHED, REFUSED
    }

    /** A slot: its state word, the wanted word, the text's length, the text (UTF-8). */
    static final long SLOT_BYTES = 2048;
    private static final long STATE_OFFSET = 0;
    private static final long WANTED_OFFSET = 8;
    private static final long LENGTH_OFFSET = 16;
    private static final long TEXT_OFFSET = 24;
    private static final int MAX_TEXT_BYTES = (int)(SLOT_BYTES - TEXT_OFFSET);
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long FIRST_PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long LONGEST_PARK_NS = TimeUnit.MILLISECONDS.toNanos(5);

    private final MemorySegment[] slots;
    private final int self;
    private final IntConsumer checkAlive;

    /**
     * @param slots      each rank's slot, {@link #SLOT_BYTES} long, zeroed before any rank wrote it.
     * @param checkAlive throws naming the rank when its process has exited.
     */
    MessageAddresses(final MemorySegment[] slots, final int self, final IntConsumer checkAlive)
    {
        this.slots = slots.clone();
        this.self = self;
        this.checkAlive = checkAlive;
    }

    /** Publishes this rank's address; a rank waiting for it returns with it. */
    void publish(final String address)
    {
        write(SlotState.PUBLISHED, address);
    }

    /** Publishes why this rank has no endpoint; a rank waiting for its address fails with it. */
    void refuse(final String why)
    {
        write(SlotState.REFUSED, why);
    }

    /** @return whether another rank waits for this rank's address. */
    boolean wanted()
    {
        return 0 != (long)LONG.getAcquire(slots[self], WANTED_OFFSET);
    }

    /**
     * Raises the rank's wanted word (its liveness watcher then opens its endpoint), then waits for its address.
     *
     * @throws RmaException naming the rank when it refused, exited or published nothing within the deadline.
     */
    String await(final int rank, final Duration deadline)
    {
        final MemorySegment slot = slots[rank];
        LONG.setRelease(slot, WANTED_OFFSET, 1L);
        final long startNs = System.nanoTime();
        long parkNs = FIRST_PARK_NS;
        while (true)
        {
            final SlotState state = SlotState.values()[(int)(long)LONG.getAcquire(slot, STATE_OFFSET)];
            switch (state)
            {
                case PUBLISHED ->
                {
                    return text(slot);
                }
                case REFUSED -> throw new RmaException("rank " + rank + " has no endpoint for two-sided messages: " +
                    text(slot));
                case EMPTY ->
                {
                }
            }
            checkAlive.accept(rank);
            if (System.nanoTime() - startNs - deadline.toNanos() >= 0)
            {
                throw new RmaException("rank " + rank + " published no endpoint address for two-sided messages within " +
                    deadline.toMillis() + " ms (a rank opens its endpoint when one first sends to it)");
            }
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(LONGEST_PARK_NS, 2 * parkNs);
        }
    }

    private void write(final SlotState state, final String text)
    {
        final MemorySegment slot = slots[self];
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        final int length = Math.min(bytes.length, MAX_TEXT_BYTES);
        MemorySegment.copy(bytes, 0, slot, ValueLayout.JAVA_BYTE, TEXT_OFFSET, length);
        slot.set(ValueLayout.JAVA_INT, LENGTH_OFFSET, length);
        LONG.setRelease(slot, STATE_OFFSET, (long)state.ordinal());
    }

    private static String text(final MemorySegment slot)
    {
        final int length = slot.get(ValueLayout.JAVA_INT, LENGTH_OFFSET);
        return new String(slot.asSlice(TEXT_OFFSET, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }
}
