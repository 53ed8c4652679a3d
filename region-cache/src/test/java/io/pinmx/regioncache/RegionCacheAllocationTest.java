package io.pinmx.regioncache;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;

import com.sun.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

import static io.pinmx.regioncache.RegionCacheTest.segment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Hits allocate nothing: the JVM counts the bytes each thread allocates. */
class RegionCacheAllocationTest
{
    private static final int REGIONS = 64;
    private static final int ROUNDS = 100_000;

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

        hit(cache, singles, inside, vectors, lease, ROUNDS);
        final long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        final long checksum = hit(cache, singles, inside, vectors, lease, ROUNDS);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;

        // One object per hit would be at least 16 bytes a hit; what remains is the JIT
        // swapping compiled code in (a few hundred bytes once).
        final long hits = 3L * ROUNDS;
        assertTrue(allocated < hits, allocated + " bytes allocated by " + hits + " hits (checksum " + checksum + ")");
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
