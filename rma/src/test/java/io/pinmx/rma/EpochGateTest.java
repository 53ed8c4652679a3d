package io.pinmx.rma;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EpochGate} between threads of one process (the same words a same-host origin maps): an accessor never
 * overlaps an epoch on its allocation, waits for its end and goes on at once for another allocation; the counter is
 * odd exactly while an epoch is open; an owner whose accessor check fails leaves no epoch open.
 */
class EpochGateTest
{
    private static final int RANKS = 3;
    private static final long ALLOCATION = 7;
    private static final long OTHER_ALLOCATION = 8;
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final EpochGate.WhileHeld NOTHING = () -> { };
    private static final EpochGate.SlotCheck ALL_ALIVE = slot -> { };

    private final Arena arena = Arena.ofShared();
    private final EpochGate gate = new EpochGate(arena.allocate(EpochGate.bytes(RANKS), 64), RANKS + 1);
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() throws InterruptedException
    {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
        arena.close();
    }

    @Test
    void noAccessOverlapsAnEpochOnItsAllocation() throws Exception
    {
        final MemorySegment slice = arena.allocate(64 * Long.BYTES, 8);
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong accesses = new AtomicLong();
        final Future<?> accessor = threads.submit(() ->
        {
            while (!stop.get())
            {
                gate.enter(1, ALLOCATION, NOTHING);
                try
                {
                    for (int i = 0; i < 64; i++)
                    {
                        slice.setAtIndex(ValueLayout.JAVA_LONG, i, -1);
                    }
                }
                finally
                {
                    gate.leave(1);
                }
                accesses.incrementAndGet();
            }
        });
        final long until = System.nanoTime() + Duration.ofMillis(300).toNanos();
        long epochs = 0;
        while (System.nanoTime() < until || accesses.get() < 10 || epochs < 10)
        {
            gate.open(ALLOCATION, ALL_ALIVE);
            for (int i = 0; i < 64; i++)
            {
                slice.setAtIndex(ValueLayout.JAVA_LONG, i, epochs);
            }
            Thread.onSpinWait();
            for (int i = 0; i < 64; i++)
            {
                assertEquals(epochs, slice.getAtIndex(ValueLayout.JAVA_LONG, i), "element " + i + " in epoch " + epochs);
            }
            gate.close();
            epochs++;
            Thread.yield();
        }
        stop.set(true);
        accessor.get(30, TimeUnit.SECONDS);
        assertEquals(2 * epochs, gate.counter().get(ValueLayout.JAVA_LONG, 0), "the counter counts openings and closings");
    }

    @Test
    void anAccessorWaitsForTheEpochsEndOnlyOnItsAllocation() throws Exception
    {
        gate.open(ALLOCATION, ALL_ALIVE);
        assertEquals(1, gate.counter().get(ValueLayout.JAVA_LONG, 0), "odd while the epoch is open");
        gate.enter(2, OTHER_ALLOCATION, NOTHING);
        gate.leave(2);
        final AtomicBoolean entered = new AtomicBoolean();
        final AtomicLong waits = new AtomicLong();
        final Future<?> accessor = threads.submit(() ->
        {
            gate.enter(2, ALLOCATION, waits::incrementAndGet);
            entered.set(true);
            gate.leave(2);
        });
        await().atMost(DEADLINE).until(() -> waits.get() > 0);
        assertFalse(entered.get(), "entered while the epoch was open");
        gate.close();
        assertEquals(2, gate.counter().get(ValueLayout.JAVA_LONG, 0), "even once it closed");
        await().atMost(DEADLINE).untilTrue(entered);
        accessor.get(30, TimeUnit.SECONDS);
    }

    @Test
    void anOwnerWaitsForAnAccessorAndAFailedCheckLeavesNoEpoch() throws Exception
    {
        gate.enter(0, ALLOCATION, NOTHING);
        final RmaException gone = new RmaException("rank 0 (pid 1 on this host) has exited");
        final RmaException thrown = assertThrows(RmaException.class, () -> gate.open(ALLOCATION, slot ->
        {
            if (0 == slot)
            {
                throw gone;
            }
        }));
        assertSame(gone, thrown);
        assertEquals(0, gate.counter().get(ValueLayout.JAVA_LONG, 0), "no epoch was opened");
        gate.enter(1, ALLOCATION, () ->
        {
            throw new AssertionError("waited for an epoch that failed to open");
        });
        gate.leave(1);
        final AtomicBoolean opened = new AtomicBoolean();
        final Future<?> owner = threads.submit(() ->
        {
            gate.open(ALLOCATION, ALL_ALIVE);
            opened.set(true);
        });
        await().during(Duration.ofMillis(100)).atMost(DEADLINE).untilFalse(opened);
        gate.leave(0);
        await().atMost(DEADLINE).untilTrue(opened);
        owner.get(30, TimeUnit.SECONDS);
        gate.close();
    }

    @Test
    void aGateTooSmallForItsSlotsIsRefused()
    {
        final MemorySegment small = arena.allocate(EpochGate.bytes(RANKS) - 64, 64);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new EpochGate(small, RANKS + 1));
        assertTrue(ex.getMessage().contains(RANKS + 1 + " slots"), ex.getMessage());
    }
}
