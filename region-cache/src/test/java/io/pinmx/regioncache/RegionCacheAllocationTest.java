package io.pinmx.regioncache;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

import com.sun.management.ThreadMXBean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static io.pinmx.regioncache.RegionCacheTest.segment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Hits allocate nothing: the JVM counts the bytes each thread allocates, pass by pass once warm. */
@Tag("allocation")
class RegionCacheAllocationTest
{
    private static final int REGIONS = 64;
    private static final int ROUNDS_PER_PASS = 20_000;
    private static final int WARM_PASSES = 5;
    private static final int MEASURED_PASSES = 10;
    /** The most a one-off JIT event may allocate in a pass. */
    private static final long ONE_OFF_BYTES = 512;

    @Test
    void hitsAllocateNothing()
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        final RegionCache cache = new RegionCache(new RecordingDeclarer(), REGIONS, Long.MAX_VALUE);
        final MemorySegment[] singles = new MemorySegment[REGIONS / 2];
        final MemorySegment[] inside = new MemorySegment[REGIONS / 2];
        final MemorySegment[][] vectors = new MemorySegment[REGIONS / 2][];
        final RegionLease lease = new RegionLease();
        for (int i = 0; i < REGIONS / 2; i++)
        {
            singles[i] = segment(0x100000L + 0x1000L * i, 0x1000);
            inside[i] = segment(0x100000L + 0x1000L * i + 0x10, 0x100);
            vectors[i] = new MemorySegment[]{ segment(0x900000L + 0x100L * i, 0x80), segment(0x800000L, 0x10) };
            cache.acquire(singles[i], lease);
            cache.release(lease);
            cache.acquire(vectors[i], 2, lease);
            cache.release(lease);
        }
        final long missesBefore = cache.statistics().misses();

        for (int warm = 0; warm < WARM_PASSES; warm++)
        {
            hit(cache, singles, inside, vectors, lease, ROUNDS_PER_PASS);
        }
        final long[] allocated = new long[MEASURED_PASSES];
        long checksum = 0;
        int allocatingPasses = 0;
        for (int pass = 0; pass < MEASURED_PASSES; pass++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            checksum += hit(cache, singles, inside, vectors, lease, ROUNDS_PER_PASS);
            allocated[pass] = threads.getCurrentThreadAllocatedBytes() - before;
            allocatingPasses += allocated[pass] > 0 ? 1 : 0;
        }

        // Every pass counts: one object per few thousand hits shows in most passes, while the JIT swapping
        // compiled code in can allocate a few hundred bytes once, in one pass.
        final String passes = Arrays.toString(allocated) + " bytes allocated by passes of " + 3L * ROUNDS_PER_PASS +
            " hits (checksum " + checksum + ")";
        assertTrue(allocatingPasses <= 1, passes);
        assertTrue(Arrays.stream(allocated).allMatch(bytes -> bytes <= ONE_OFF_BYTES), passes);
        assertEquals(missesBefore, cache.statistics().misses());
    }

    private static long hit(
        final RegionCache cache,
        final MemorySegment[] singles,
        final MemorySegment[] inside,
        final MemorySegment[][] vectors,
        final RegionLease lease,
        final int rounds)
    {
        long checksum = 0;
        for (int round = 0; round < rounds; round++)
        {
            final int i = round % singles.length;
            cache.acquire(singles[i], lease);
            checksum += lease.regionId();
            cache.release(lease);
            cache.acquire(inside[i], lease);
            checksum += lease.offset();
            cache.release(lease);
            cache.acquire(vectors[i], 2, lease);
            checksum += lease.regionId();
            cache.release(lease);
        }
        return checksum;
    }
}
