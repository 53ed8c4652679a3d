package io.pinmx.mx.buffer;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BufferPoolTest
{
    @Test
    void buffersAreReusedPerSizeClass()
    {
        try (BufferPool pool = new BufferPool(1 << 20))
        {
            final PooledBuffer a = pool.acquire(1000);
            assertEquals(1000, a.segment().byteSize());
            assertTrue(a.segment().isNative());
            pool.release(a);
            final PooledBuffer b = pool.acquire(1024);
            assertSame(a, b, "same size class comes back from the free list");
            assertEquals(1024, pool.allocatedBytes());
            final PooledBuffer c = pool.acquire(0);
            assertEquals(0, c.segment().byteSize());
        }
    }

    @Test
    void aBufferBorrowedAgainForTheSameLengthKeepsItsView()
    {
        try (BufferPool pool = new BufferPool(1 << 20))
        {
            final PooledBuffer a = pool.acquire(1000);
            final java.lang.foreign.MemorySegment view = a.segment();
            pool.release(a);
            assertSame(view, pool.acquire(1000).segment(), "same length: same view, nothing allocated");
            pool.release(a);
            assertEquals(900, pool.acquire(900).segment().byteSize(), "another length: a view of that length");
        }
    }

    @Test
    void outOfRangeRequestsAndDoubleReleaseAreRefused()
    {
        try (BufferPool pool = new BufferPool(4096))
        {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool.acquire(4097));
            assertTrue(e.getMessage().contains("4097"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> pool.acquire(-1));
            final PooledBuffer a = pool.acquire(10);
            pool.release(a);
            assertThrows(IllegalStateException.class, () -> pool.release(a));
            assertThrows(IllegalStateException.class, a::segment);
        }
    }
}
