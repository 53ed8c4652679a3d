package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The data server's staging buffer is one page-aligned buffer kept across requests (so its region stays declared),
 * grown at least twofold when a request needs more, given up after a request that did not arrive whole, and never
 * kept past its bound: a larger request gets memory of its own.
 */
class StagingBufferTest
{
    private static final long PAGE_BYTES = 4096;

    private final StagingBuffer staging = new StagingBuffer();

    @Test
    void keepsOnePageAlignedBufferAndGrowsItAtLeastTwofold()
    {
        final MemorySegment first = staging.take(100);
        assertEquals(100, first.byteSize());
        assertEquals(0, first.address() % PAGE_BYTES);
        assertEquals(first.address(), staging.take(PAGE_BYTES).address(), "a page fits the kept buffer");

        final MemorySegment grown = staging.take(PAGE_BYTES + 1);
        assertNotEquals(first.address(), grown.address(), "a request past the kept buffer grows it");
        assertEquals(grown.address(), staging.take(2 * PAGE_BYTES).address(), "grown to at least twice the page");
    }

    @Test
    void aBufferGivenUpIsNotHandedOutAgain()
    {
        final MemorySegment first = staging.take(PAGE_BYTES);
        staging.abandon();
        final MemorySegment next = staging.take(PAGE_BYTES);
        assertNotEquals(first.address(), next.address(), "a receive may still write into the abandoned buffer");
        assertEquals(next.address(), staging.take(PAGE_BYTES).address());
    }

    @Test
    void aRequestPastTheBoundGetsMemoryOfItsOwn()
    {
        final long kept = staging.take(PAGE_BYTES).address();
        final MemorySegment large = staging.take(StagingBuffer.KEPT_MAX_BYTES + PAGE_BYTES);
        assertEquals(StagingBuffer.KEPT_MAX_BYTES + PAGE_BYTES, large.byteSize());
        assertNotEquals(kept, large.address());
        assertEquals(kept, staging.take(PAGE_BYTES).address(), "the kept buffer stays");
    }
}
