package io.pinmx.regioncache;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionCacheTest
{
    private static final long UNLIMITED_BYTES = Long.MAX_VALUE;

    private final RecordingDeclarer declarer = new RecordingDeclarer();

    @AfterEach
    void declarerSawNoMisuse()
    {
        assertEquals(List.of(), declarer.violations());
    }

    /** A native segment at a chosen address: safe because neither the cache nor the tests touch the memory. */
    @SuppressWarnings("restricted")
    static MemorySegment segment(final long address, final long length)
    {
        return MemorySegment.ofAddress(address).reinterpret(length);
    }

    private static int acquireAndRelease(final RegionCache cache, final MemorySegment segment)
    {
        final RegionLease lease = new RegionLease();
        cache.acquire(segment, lease);
        final int regionId = lease.regionId();
        cache.release(lease);
        return regionId;
    }

    private static int acquireAndRelease(final RegionCache cache, final MemorySegment[] vector)
    {
        final RegionLease lease = new RegionLease();
        cache.acquire(vector, vector.length, lease);
        final int regionId = lease.regionId();
        cache.release(lease);
        return regionId;
    }

    private void assertConsistent(final RegionCache cache)
    {
        final RegionCacheStatistics statistics = cache.statistics();
        assertEquals(declarer.liveCount(), statistics.declaredRegions(), "declared regions");
        assertEquals(declarer.liveBytes(), statistics.declaredBytes(), "declared bytes");
    }

    @Test
    void coversAnswersWhetherAnAcquireWouldHitWithoutCountingOrDeclaring()
    {
        final RegionCache cache = new RegionCache(declarer, 8, UNLIMITED_BYTES);
        assertFalse(cache.covers(segment(0x10000, 4096)));
        acquireAndRelease(cache, segment(0x10000, 0x4000));
        acquireAndRelease(cache, new MemorySegment[] {segment(0x40000, 4096), segment(0x50000, 4096)});

        assertTrue(cache.covers(segment(0x10000, 0x4000)), "the region itself, idle");
        assertTrue(cache.covers(segment(0x11000, 0x1000)), "a part of it");
        assertFalse(cache.covers(segment(0x13000, 0x2000)), "reaching past its end");
        assertFalse(cache.covers(segment(0x40000, 4096)), "one segment of a vector region: an acquire declares it");
        assertFalse(cache.covers(MemorySegment.ofArray(new byte[64])), "heap memory");
        assertFalse(cache.covers(segment(0x10000, 0)), "empty");
        assertEquals(0, cache.statistics().hits());
        assertEquals(2, declarer.declareCount());

        cache.invalidate(0x12000, 1);
        assertFalse(cache.covers(segment(0x11000, 0x1000)), "invalidated");
        assertMessage("segment is null", () -> cache.covers(null));
        cache.close();
        assertFalse(cache.covers(segment(0x10000, 0x4000)), "closed");
    }

    @Test
    void missDeclaresThenExactHitReusesTheRegion()
    {
        final RegionCache cache = new RegionCache(declarer, 8, UNLIMITED_BYTES);
        final RegionLease lease = new RegionLease();

        cache.acquire(segment(0x1000, 4096), lease);
        final int regionId = lease.regionId();
        assertEquals(0, lease.offset());
        cache.release(lease);
        cache.acquire(segment(0x1000, 4096), lease);

        assertEquals(regionId, lease.regionId());
        assertEquals(1, declarer.declareCount());
        final RegionCacheStatistics statistics = cache.statistics();
        assertEquals(1, statistics.hits());
        assertEquals(1, statistics.misses());
        assertEquals(1, statistics.inUseRegions());
        cache.release(lease);
        assertEquals(0, cache.statistics().inUseRegions());
        assertConsistent(cache);
    }

    @Test
    void evictsTheLeastRecentlyReleasedRegion()
    {
        final RegionCache cache = new RegionCache(declarer, 3, UNLIMITED_BYTES);
        final int a = acquireAndRelease(cache, segment(0x10000, 100));
        final int b = acquireAndRelease(cache, segment(0x20000, 100));
        acquireAndRelease(cache, segment(0x30000, 100));
        acquireAndRelease(cache, segment(0x10000, 100));

        acquireAndRelease(cache, segment(0x40000, 100));

        assertEquals(List.of(b), declarer.undeclaredIds());
        assertTrue(declarer.isLive(a));
        assertEquals(a, acquireAndRelease(cache, segment(0x10000, 100)));
        assertEquals(4, declarer.declareCount());
        assertEquals(1, cache.statistics().evictions());
        assertConsistent(cache);
    }

    @Test
    void neverEvictsARegionInUse()
    {
        final RegionCache cache = new RegionCache(declarer, 2, UNLIMITED_BYTES);
        final RegionLease oldest = new RegionLease();
        cache.acquire(segment(0x10000, 100), oldest);
        final int b = acquireAndRelease(cache, segment(0x20000, 100));

        acquireAndRelease(cache, segment(0x30000, 100));

        assertTrue(declarer.isLive(oldest.regionId()));
        assertEquals(List.of(b), declarer.undeclaredIds());
        cache.release(oldest);
        assertConsistent(cache);
    }

    @Test
    void admitsOverCapacityWhenEverythingIsInUseAndShrinksOnRelease()
    {
        final RegionCache cache = new RegionCache(declarer, 2, UNLIMITED_BYTES);
        final RegionLease first = new RegionLease();
        final RegionLease second = new RegionLease();
        final RegionLease third = new RegionLease();
        cache.acquire(segment(0x10000, 100), first);
        cache.acquire(segment(0x20000, 100), second);

        cache.acquire(segment(0x30000, 100), third);

        RegionCacheStatistics statistics = cache.statistics();
        assertEquals(3, statistics.declaredRegions());
        assertEquals(1, statistics.overCapacityAdmissions());
        assertEquals(0, statistics.evictions());

        cache.release(first);
        statistics = cache.statistics();
        assertEquals(2, statistics.declaredRegions());
        assertEquals(1, statistics.evictions());
        assertEquals(List.of(0), declarer.undeclaredIds());
        cache.release(second);
        cache.release(third);
        assertEquals(2, cache.statistics().declaredRegions());
        assertConsistent(cache);
    }

    @Test
    void evictsByDeclaredBytes()
    {
        final RegionCache cache = new RegionCache(declarer, 100, 10_000);
        final int a = acquireAndRelease(cache, segment(0x10000, 4_000));
        final int b = acquireAndRelease(cache, segment(0x20000, 4_000));

        acquireAndRelease(cache, segment(0x30000, 3_000));

        assertEquals(List.of(a), declarer.undeclaredIds());
        assertTrue(declarer.isLive(b));
        assertEquals(7_000, cache.statistics().declaredBytes());
        assertConsistent(cache);
    }

    @Test
    void regionLargerThanTheByteCapacityIsNotCachedAndDoesNotFlushTheCache()
    {
        final RegionCache cache = new RegionCache(declarer, 100, 10_000);
        final int small = acquireAndRelease(cache, segment(0x10000, 1_000));
        final RegionLease lease = new RegionLease();

        cache.acquire(segment(0x100000, 20_000), lease);
        final int large = lease.regionId();

        assertTrue(declarer.isLive(small));
        assertEquals(1, cache.statistics().overCapacityAdmissions());
        cache.release(lease);
        assertFalse(declarer.isLive(large));
        assertTrue(declarer.isLive(small));
        acquireAndRelease(cache, segment(0x100000, 20_000));
        assertEquals(3, declarer.declareCount());
        assertConsistent(cache);
    }

    @Test
    void zeroByteCapacityDeclaresForEveryUseAndUndeclaresAtItsLastRelease()
    {
        final RegionCache cache = new RegionCache(declarer, 100, 0);
        final RegionLease first = new RegionLease();
        final RegionLease second = new RegionLease();

        cache.acquire(segment(0x10000, 4_096), first);
        cache.acquire(segment(0x10000, 4_096), second);
        assertEquals(2, declarer.liveCount());
        cache.release(first);
        cache.release(second);
        acquireAndRelease(cache, segment(0x10000, 4_096));

        assertEquals(3, declarer.declareCount());
        assertEquals(0, declarer.liveCount());
        final RegionCacheStatistics statistics = cache.statistics();
        assertEquals(0, statistics.hits());
        assertEquals(3, statistics.misses());
        assertConsistent(cache);
    }

    @Test
    void containedSegmentHitsWithItsOffset()
    {
        final RegionCache cache = new RegionCache(declarer, 8, UNLIMITED_BYTES);
        final int regionId = acquireAndRelease(cache, segment(0x10000, 0x4000));
        final RegionLease lease = new RegionLease();

        cache.acquire(segment(0x11000, 0x800), lease);

        assertEquals(regionId, lease.regionId());
        assertEquals(0x1000, lease.offset());
        cache.release(lease);
        cache.acquire(segment(0x13fff, 1), lease);
        assertEquals(regionId, lease.regionId());
        assertEquals(0x3fff, lease.offset());
        cache.release(lease);
        assertEquals(1, declarer.declareCount());
    }

    @Test
    void segmentPartlyOutsideACachedRegionMisses()
    {
        final RegionCache cache = new RegionCache(declarer, 8, UNLIMITED_BYTES);
        final int cached = acquireAndRelease(cache, segment(0x10000, 0x1000));
        final RegionLease lease = new RegionLease();

        cache.acquire(segment(0x10800, 0x1000), lease);
        assertNotEquals(cached, lease.regionId());
        assertEquals(0, lease.offset());
        cache.release(lease);
        cache.acquire(segment(0xff00, 0x200), lease);
        assertNotEquals(cached, lease.regionId());
        cache.release(lease);

        assertEquals(3, declarer.declareCount());
        assertEquals(3, cache.statistics().misses());
    }

    @Test
    void findsTheContainingRegionWhenOthersStartInBetween()
    {
        final RegionCache cache = new RegionCache(declarer, 8, UNLIMITED_BYTES);
        acquireAndRelease(cache, segment(0x12000, 0x100));
        acquireAndRelease(cache, segment(0x14000, 0x3000));
        acquireAndRelease(cache, segment(0x16800, 0x1000));
        final int large = acquireAndRelease(cache, segment(0x10000, 0x10000));
        final RegionLease lease = new RegionLease();

        cache.acquire(segment(0x15800, 0x2000), lease);

        assertEquals(large, lease.regionId());
        assertEquals(0x5800, lease.offset());
        cache.release(lease);
        assertEquals(4, declarer.declareCount());
    }

    @Test
    void vectorHitsOnlyOnTheExactVector()
    {
        final RegionCache cache = new RegionCache(declarer, 8, UNLIMITED_BYTES);
        final MemorySegment[] vector = { segment(0x10000, 100), segment(0x30000, 200), segment(0x20000, 50) };
        final RegionLease lease = new RegionLease();
        cache.acquire(vector, 3, lease);
        final int regionId = lease.regionId();
        cache.release(lease);

        cache.acquire(new MemorySegment[]{ segment(0x10000, 100), segment(0x30000, 200), segment(0x20000, 50) }, 3, lease);
        assertEquals(regionId, lease.regionId());
        cache.release(lease);
        cache.acquire(new MemorySegment[]{ segment(0x10000, 100), segment(0x20000, 50), segment(0x30000, 200) }, 3, lease);
        assertNotEquals(regionId, lease.regionId());
        cache.release(lease);
        cache.acquire(new MemorySegment[]{ segment(0x10000, 100), segment(0x30000, 199), segment(0x20000, 50) }, 3, lease);
        assertNotEquals(regionId, lease.regionId());
        cache.release(lease);
        cache.acquire(vector, 2, lease);
        assertNotEquals(regionId, lease.regionId());
        cache.release(lease);
        cache.acquire(segment(0x10000, 100), lease);
        assertNotEquals(regionId, lease.regionId(), "a vector region never serves a single segment");
        cache.release(lease);

        final RecordingDeclarer.Declared declared = declarer.live(regionId);
        assertArrayEquals(new long[]{ 0x10000, 0x30000, 0x20000 }, declared.addresses());
        assertArrayEquals(new long[]{ 100, 200, 50 }, declared.lengths());
        assertEquals(5, declarer.declareCount());
        assertEquals(1, cache.statistics().hits());
        assertConsistent(cache);
    }

    @Test
    void vectorOfOneSegmentIsLookedUpByContainment()
    {
        final RegionCache cache = new RegionCache(declarer, 8, UNLIMITED_BYTES);
        final int regionId = acquireAndRelease(cache, segment(0x10000, 0x1000));
        final RegionLease lease = new RegionLease();

        cache.acquire(new MemorySegment[]{ segment(0x10100, 0x10), segment(0x90000, 1) }, 1, lease);

        assertEquals(regionId, lease.regionId());
        assertEquals(0x100, lease.offset());
        cache.release(lease);
    }

    @Test
    void invalidateDropsOverlappingRegionsAndDefersThoseInUse()
    {
        final RegionCache cache = new RegionCache(declarer, 8, UNLIMITED_BYTES);
        final int before = acquireAndRelease(cache, segment(0x10000, 0x1000));
        final int overlapping = acquireAndRelease(cache, segment(0x11000, 0x1000));
        final RegionLease vectorLease = new RegionLease();
        cache.acquire(new MemorySegment[]{ segment(0x40000, 0x10), segment(0x11800, 0x10) }, 2, vectorLease);
        final int vector = vectorLease.regionId();
        final int after = acquireAndRelease(cache, segment(0x13000, 0x1000));

        assertEquals(2, cache.invalidate(0x11000, 0x2000));

        assertEquals(List.of(overlapping), declarer.undeclaredIds());
        assertTrue(declarer.isLive(vector), "in use: undeclared at its release");
        assertEquals(before, acquireAndRelease(cache, segment(0x10000, 0x1000)));
        assertEquals(after, acquireAndRelease(cache, segment(0x13000, 0x1000)));
        final RegionLease other = new RegionLease();
        cache.acquire(new MemorySegment[]{ segment(0x40000, 0x10), segment(0x11800, 0x10) }, 2, other);
        assertNotEquals(vector, other.regionId(), "a dropped region is not found again");
        cache.release(other);

        cache.release(vectorLease);
        assertFalse(declarer.isLive(vector));
        assertEquals(2, cache.statistics().invalidations());
        assertConsistent(cache);
    }

    @Test
    void closeUndeclaresEveryRegionExactlyOnceAndRefusesAcquires()
    {
        final RegionCache cache = new RegionCache(declarer, 4, UNLIMITED_BYTES);
        for (int i = 0; i < 10; i++)
        {
            acquireAndRelease(cache, segment(0x10000L * (i + 1), 0x100));
        }
        final RegionLease held = new RegionLease();
        cache.acquire(segment(0x10000, 0x10), held);

        cache.close();

        assertEquals(1, declarer.liveCount());
        final IllegalStateException closed =
            assertThrows(IllegalStateException.class, () -> cache.acquire(segment(0x10000, 0x10), new RegionLease()));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        cache.release(held);
        assertEquals(0, declarer.liveCount());
        assertEquals(declarer.declareCount(), declarer.undeclaredIds().size());
        cache.close();
        assertEquals(declarer.declareCount(), declarer.undeclaredIds().size());
        assertEquals(0, cache.statistics().declaredRegions());
    }

    @Test
    void clearKeepsTheCacheUsable()
    {
        final RegionCache cache = new RegionCache(declarer, 4, UNLIMITED_BYTES);
        acquireAndRelease(cache, segment(0x10000, 0x100));
        acquireAndRelease(cache, new MemorySegment[]{ segment(0x20000, 1), segment(0x30000, 1) });

        assertEquals(2, cache.clear());

        assertEquals(0, declarer.liveCount());
        acquireAndRelease(cache, segment(0x10000, 0x100));
        assertEquals(3, declarer.declareCount());
        assertConsistent(cache);
    }

    @Test
    void declareFailurePropagatesUnchangedAndCachesNothing()
    {
        final RegionCache cache = new RegionCache(declarer, 4, UNLIMITED_BYTES);
        final IllegalStateException driverError = new IllegalStateException("ENOMEM from the driver");
        declarer.failNextDeclare(driverError);
        final RegionLease lease = new RegionLease();

        final IllegalStateException thrown =
            assertThrows(IllegalStateException.class, () -> cache.acquire(segment(0x10000, 0x100), lease));

        assertSame(driverError, thrown);
        assertFalse(lease.isHeld());
        assertEquals(0, cache.statistics().declaredRegions());
        cache.acquire(segment(0x10000, 0x100), lease);
        assertTrue(lease.isHeld());
        cache.release(lease);
        assertEquals(1, declarer.declareCount());
        assertConsistent(cache);
    }

    @Test
    void undeclareFailurePropagatesAfterTheCacheForgotTheRegion()
    {
        final RegionCache cache = new RegionCache(declarer, 1, UNLIMITED_BYTES);
        acquireAndRelease(cache, segment(0x10000, 0x100));
        final IllegalStateException driverError = new IllegalStateException("EBADF from the driver");
        declarer.failNextUndeclare(driverError);
        final RegionLease lease = new RegionLease();

        assertSame(driverError,
            assertThrows(IllegalStateException.class, () -> cache.acquire(segment(0x20000, 0x100), lease)));

        assertFalse(lease.isHeld(), "a failed acquire leaves the lease free");
        assertEquals(0, cache.statistics().inUseRegions());
        acquireAndRelease(cache, segment(0x30000, 0x100));
        assertConsistent(cache);
    }

    @Test
    void rejectsBadSegmentsNamingThem()
    {
        final RegionCache cache = new RegionCache(declarer, 4, UNLIMITED_BYTES);
        final RegionLease lease = new RegionLease();
        final MemorySegment heap = MemorySegment.ofArray(new byte[64]);
        final MemorySegment good = segment(0x10000, 0x100);

        assertMessage("segment is a heap segment", () -> cache.acquire(heap, lease));
        assertMessage("segment is empty", () -> cache.acquire(segment(0x10000, 0), lease));
        assertMessage("segment is null", () -> cache.acquire((MemorySegment)null, lease));
        assertMessage("segments[2] is a heap segment",
            () -> cache.acquire(new MemorySegment[]{ good, good, heap }, 3, lease));
        assertMessage("segments[1] is empty",
            () -> cache.acquire(new MemorySegment[]{ good, segment(0x20000, 0) }, 2, lease));
        assertMessage("segments[1] is null", () -> cache.acquire(new MemorySegment[]{ good, null }, 2, lease));
        assertMessage("segments[0] is a heap segment", () -> cache.acquire(new MemorySegment[]{ heap }, 1, lease));
        assertMessage("count 0 is outside 1..256", () -> cache.acquire(new MemorySegment[]{ good }, 0, lease));
        assertMessage("count 257 is outside 1..256", () -> cache.acquire(new MemorySegment[257], 257, lease));
        assertMessage("count 3 exceeds segments.length 2",
            () -> cache.acquire(new MemorySegment[]{ good, good }, 3, lease));
        assertMessage("length must be positive: 0", () -> cache.invalidate(0x1000, 0));
        assertMessage("wraps around", () -> cache.invalidate(Long.MAX_VALUE - 10, 100));
        assertMessage("maxRegions must be at least 1: 0", () -> new RegionCache(declarer, 0, 1));
        assertMessage("maxDeclaredBytes must be at least 0: -1", () -> new RegionCache(declarer, 1, -1));

        assertFalse(lease.isHeld());
        assertEquals(0, declarer.declareCount());
        final RegionCacheStatistics statistics = cache.statistics();
        assertEquals(0, statistics.hits() + statistics.misses());
    }

    @Test
    void acceptsTheFullVectorLength()
    {
        final RegionCache cache = new RegionCache(declarer, 4, UNLIMITED_BYTES);
        final MemorySegment[] vector = new MemorySegment[RegionCache.MAX_SEGMENTS];
        for (int i = 0; i < vector.length; i++)
        {
            vector[i] = segment(0x100000L + 0x1000L * i, 0x100);
        }
        final int regionId = acquireAndRelease(cache, vector);

        assertEquals(regionId, acquireAndRelease(cache, vector));
        assertEquals(0x100L * RegionCache.MAX_SEGMENTS, cache.statistics().declaredBytes());
    }

    @Test
    void worksWithArenaAllocatedMemory()
    {
        final RegionCache cache = new RegionCache(declarer, 4, UNLIMITED_BYTES);
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment buffer = arena.allocate(8192, 4096);
            final int regionId = acquireAndRelease(cache, buffer);
            final RegionLease lease = new RegionLease();

            cache.acquire(buffer.asSlice(4096, 100), lease);

            assertEquals(regionId, lease.regionId());
            assertEquals(4096, lease.offset());
            cache.release(lease);
        }
    }

    @Test
    void misuseOfLeasesIsAClearException()
    {
        final RegionCache cache = new RegionCache(declarer, 4, UNLIMITED_BYTES);
        final RegionCache otherCache = new RegionCache(new RecordingDeclarer(), 4, UNLIMITED_BYTES);
        final RegionLease lease = new RegionLease();
        assertMessage("lease is not held", lease::regionId);
        assertMessage("lease is not held", () -> cache.release(lease));

        cache.acquire(segment(0x10000, 0x100), lease);
        assertMessage("lease already holds region 0", () -> cache.acquire(segment(0x20000, 0x100), lease));
        assertMessage("was acquired from another cache", () -> otherCache.release(lease));
        cache.release(lease);
        assertMessage("lease is not held: already released", () -> cache.release(lease));
        assertMessage("lease must not be null", () -> cache.acquire(segment(0x20000, 0x100), null));

        final RegionCacheStatistics statistics = cache.statistics();
        assertEquals(0, statistics.inUseRegions());
        assertEquals(1, statistics.declaredRegions());
        assertConsistent(cache);
    }

    private static void assertMessage(final String expected, final Executable call)
    {
        final RuntimeException thrown = assertThrows(RuntimeException.class, call);
        assertTrue(thrown.getMessage().contains(expected), "expected '" + expected + "' in: " + thrown.getMessage());
    }
}
