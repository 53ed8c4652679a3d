package io.pinmx.pin.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinmx.pin.wire.DropReason;
import io.pinmx.pin.wire.FrameKind;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

class DriverCountersTest
{
    @Test
    void everyKindAndDropReasonHasItsOwnCounter()
    {
        final Set<Counter> seen = new HashSet<>();
        for (final FrameKind kind : FrameKind.values())
        {
            assertEquals("FRAMES_SENT_" + kind.name(), Counter.sent(kind).name());
            assertEquals("FRAMES_RECEIVED_" + kind.name(), Counter.received(kind).name());
            seen.add(Counter.sent(kind));
            seen.add(Counter.received(kind));
        }
        for (final DropReason reason : DropReason.values())
        {
            if (reason != DropReason.NONE)
            {
                assertEquals("DROPPED_" + reason.name(), Counter.dropped(reason).name());
                seen.add(Counter.dropped(reason));
            }
        }
        assertEquals(2 * FrameKind.values().length + DropReason.values().length - 1, seen.size());
        assertThrows(IllegalArgumentException.class, () -> Counter.dropped(DropReason.NONE));
    }

    @Test
    void countsFromSeveralThreadsWithoutLosingIncrements() throws Exception
    {
        final DriverCounters counters = new DriverCounters();
        final int perThread = 100_000;
        final Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++)
        {
            threads[t] = new Thread(() ->
            {
                for (int i = 0; i < perThread; i++)
                {
                    counters.increment(Counter.FRAMES_SENT_TINY);
                    counters.add(Counter.PULL_BYTES, 3);
                }
            });
            threads[t].start();
        }
        for (final Thread thread : threads)
        {
            thread.join(60_000);
        }
        assertEquals(2L * perThread, counters.get(Counter.FRAMES_SENT_TINY));
        assertEquals(6L * perThread, counters.get(Counter.PULL_BYTES));
        assertEquals(0, counters.get(Counter.PULLS_FAILED));

        final long[] snapshot = counters.snapshot();
        assertEquals(DriverCounters.size(), snapshot.length);
        assertEquals(2L * perThread, snapshot[Counter.FRAMES_SENT_TINY.ordinal()]);
        assertThrows(IllegalArgumentException.class, () -> counters.snapshot(new long[3]));
    }

    @Test
    void ownedCountsHandedOverThroughALockLoseNothingAndAreSeenByReaders() throws Exception
    {
        final DriverCounters counters = new DriverCounters();
        final ReentrantLock handover = new ReentrantLock();
        final int perThread = 100_000;
        final Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++)
        {
            threads[t] = new Thread(() ->
            {
                for (int i = 0; i < perThread; i++)
                {
                    handover.lock();
                    try
                    {
                        counters.incrementOwned(Counter.SHM_FRAMES_RECEIVED);
                    }
                    finally
                    {
                        handover.unlock();
                    }
                }
            });
            threads[t].start();
        }
        long seen = 0;
        final long deadlineNs = System.nanoTime() + 60_000_000_000L;
        while (seen < 2L * perThread && System.nanoTime() - deadlineNs < 0)
        {
            final long now = counters.get(Counter.SHM_FRAMES_RECEIVED);
            assertTrue(now >= seen, "a reader saw the count go back from " + seen + " to " + now);
            seen = now;
            Thread.onSpinWait();
        }
        for (final Thread thread : threads)
        {
            thread.join(60_000);
        }
        assertEquals(2L * perThread, counters.get(Counter.SHM_FRAMES_RECEIVED));
        assertEquals(2L * perThread, counters.snapshot()[Counter.SHM_FRAMES_RECEIVED.ordinal()]);
    }

    @Test
    void receiveEventTypesFollowFrameKinds()
    {
        assertEquals(EventType.RECV_TINY, EventType.received(FrameKind.TINY));
        assertEquals(EventType.RECV_CONNECT_REPLY, EventType.received(FrameKind.CONNECT_REPLY));
        assertEquals(EventType.RECV_NACK, EventType.received(FrameKind.NACK));
        assertNull(EventType.received(FrameKind.PULL));
        assertNull(EventType.received(FrameKind.PULL_REPLY));
        final Set<FrameKind> consumed = EnumSet.of(FrameKind.PULL, FrameKind.PULL_REPLY, FrameKind.PUT,
            FrameKind.PUT_ACK, FrameKind.ATOMIC, FrameKind.ATOMIC_REPLY);
        for (final FrameKind kind : FrameKind.values())
        {
            if (consumed.contains(kind))
            {
                assertNull(EventType.received(kind), kind + " is the driver's, never an event");
            }
            else
            {
                assertNotNull(EventType.received(kind), kind.name());
                assertEquals("RECV_" + kind.name(), EventType.received(kind).name());
            }
        }
    }
}
