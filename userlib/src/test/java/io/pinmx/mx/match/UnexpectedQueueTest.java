package io.pinmx.mx.match;

import io.pinmx.mx.buffer.BufferPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.pinmx.mx.match.MatchInfo.ANY_SOURCE;
import static io.pinmx.mx.match.MatchInfo.MASK_ALL;
import static io.pinmx.mx.match.MatchInfo.MASK_ANY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnexpectedQueueTest
{
    private final BufferPool pool = new BufferPool(32 * 1024);

    @AfterEach
    void close()
    {
        pool.close();
    }

    private static MemorySegment bytes(final int from, final int count)
    {
        final MemorySegment s = Arena.ofAuto().allocate(count);
        for (int i = 0; i < count; i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)(from + i));
        }
        return s;
    }

    @Test
    void matchesInArrivalOrderAcrossSourcesAndHonoursSourceAndMask()
    {
        final UnexpectedQueue q = new UnexpectedQueue(pool, 16, 4096);
        final UnexpectedMessage first = q.tryAddEager(1, 0x100L, 0);
        final UnexpectedMessage second = q.tryAddEager(2, 0x101L, 0);
        final UnexpectedMessage third = q.tryAddRendezvous(1, 0x102L, 1 << 20, 7, 64, 99);

        assertSame(second, q.peek(2, 0L, MASK_ANY));
        assertSame(first, q.peek(ANY_SOURCE, 0x100L, 0xF00L));
        assertSame(third, q.match(1, 0x102L, MASK_ALL));
        assertEquals(UnexpectedMessage.Kind.RENDEZVOUS, third.kind());
        assertEquals(1 << 20, third.length());
        assertEquals(7, third.senderRegionId());
        assertEquals(64, third.senderRegionOffset());
        assertEquals(99, third.senderHandle());
        assertSame(first, q.match(ANY_SOURCE, 0L, MASK_ANY));
        assertSame(second, q.match(ANY_SOURCE, 0L, MASK_ANY));
        assertNull(q.match(ANY_SOURCE, 0L, MASK_ANY));
    }

    @Test
    void peekDoesNotRemove()
    {
        final UnexpectedQueue q = new UnexpectedQueue(pool, 4, 4096);
        final UnexpectedMessage m = q.tryAddEager(3, 5L, 10);
        assertSame(m, q.peek(3, 5L, MASK_ALL));
        assertSame(m, q.peek(3, 5L, MASK_ALL));
        assertEquals(1, q.size());
        assertNull(q.peek(4, 5L, MASK_ALL));
    }

    @Test
    void fragmentsAccumulateInOrderAndAreKeptByteForByte()
    {
        final UnexpectedQueue q = new UnexpectedQueue(pool, 4, 4096);
        final UnexpectedMessage m = q.tryAddEager(1, 1L, 300);
        m.append(0, bytes(0, 100), 0, 100);
        assertFalse(m.isComplete());
        m.append(100, bytes(100, 200), 0, 200);
        assertTrue(m.isComplete());
        final MemorySegment data = m.data();
        assertEquals(300, data.byteSize());
        for (int i = 0; i < 300; i++)
        {
            assertEquals((byte)i, data.get(ValueLayout.JAVA_BYTE, i));
        }
    }

    @Test
    void aFragmentThatDoesNotContinueOrOverrunsIsRefusedAndStoresNothing()
    {
        final UnexpectedQueue q = new UnexpectedQueue(pool, 4, 4096);
        final UnexpectedMessage m = q.tryAddEager(1, 1L, 100);
        m.append(0, bytes(0, 50), 0, 50);
        final IllegalArgumentException gap = assertThrows(IllegalArgumentException.class, () -> m.append(60, bytes(0, 10), 0, 10));
        assertTrue(gap.getMessage().contains("offset 60"), gap.getMessage());
        final IllegalArgumentException overrun = assertThrows(IllegalArgumentException.class, () -> m.append(50, bytes(0, 51), 0, 51));
        assertTrue(overrun.getMessage().contains("length=100"), overrun.getMessage());
        assertEquals(50, m.bytesArrived());
    }

    @Test
    void boundedByCountAndBytesThenAcceptsAgainOnceReleased()
    {
        final UnexpectedQueue q = new UnexpectedQueue(pool, 3, 1000);
        final UnexpectedMessage a = q.tryAddEager(1, 1L, 600);
        assertNotNull(a);
        assertNull(q.tryAddEager(1, 2L, 401), "byte bound: 600 + 401 > 1000");
        final UnexpectedMessage b = q.tryAddEager(1, 2L, 400);
        assertNotNull(b);
        assertEquals(1000, q.storedEagerBytes());
        assertNotNull(q.tryAddRendezvous(1, 3L, 1 << 26, 1, 0, 1), "rendezvous costs no stored bytes");
        assertNull(q.tryAddRendezvous(1, 4L, 10, 1, 0, 2), "count bound reached");
        assertNull(q.tryAddEager(1, 4L, 0), "count bound reached");

        assertSame(a, q.match(1, 1L, MASK_ALL));
        assertNull(q.tryAddEager(1, 4L, 0), "a matched message holds its budget until released");
        q.release(a);
        assertEquals(400, q.storedEagerBytes());
        assertNotNull(q.tryAddEager(1, 4L, 600));
    }

    @Test
    void releasingAQueuedMessageIsRefused()
    {
        final UnexpectedQueue q = new UnexpectedQueue(pool, 3, 1000);
        final UnexpectedMessage a = q.tryAddEager(1, 1L, 10);
        assertThrows(IllegalStateException.class, () -> q.release(a));
        assertEquals(1, q.size());
    }

    @Test
    void tooLongForStorageNamesSourceMatchAndLength()
    {
        final UnexpectedQueue q = new UnexpectedQueue(pool, 3, 1 << 20);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> q.tryAddEager(4, 0xABL, 40_000));
        assertTrue(e.getMessage().contains("from 4"), e.getMessage());
        assertTrue(e.getMessage().contains("0xab"), e.getMessage());
        assertTrue(e.getMessage().contains("40000"), e.getMessage());
        assertEquals(0, q.size());
    }

    @Test
    void removeAllFromDropsOnlyThatSourceAndFreesItsBudget()
    {
        final UnexpectedQueue q = new UnexpectedQueue(pool, 8, 1000);
        q.tryAddEager(1, 1L, 300);
        final UnexpectedMessage keep = q.tryAddEager(2, 1L, 300);
        q.tryAddRendezvous(1, 1L, 5000, 1, 0, 1);
        assertEquals(2, q.removeAllFrom(1));
        assertEquals(1, q.size());
        assertEquals(300, q.storedEagerBytes());
        assertSame(keep, q.match(ANY_SOURCE, 0L, MASK_ANY));
    }
}
