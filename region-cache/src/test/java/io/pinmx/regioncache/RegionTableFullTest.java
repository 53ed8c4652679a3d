package io.pinmx.regioncache;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static io.pinmx.regioncache.RegionCacheTest.segment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cache larger than the driver's region table: when the declarer says the table is full, the cache undeclares its
 * least recently used idle region and declares again; regions in use are never undeclared for room, and when none
 * is idle the cache refuses with an error that says so.
 */
class RegionTableFullTest
{
    private static final int TABLE = 4;
    private static final long PAGE = 4096;

    private final RecordingDeclarer declarer = new RecordingDeclarer();
    private final RegionCache cache = new RegionCache(declarer, 64, Long.MAX_VALUE);

    RegionTableFullTest()
    {
        declarer.limitTable(TABLE);
    }

    @AfterEach
    void declarerSawNoMisuse()
    {
        assertEquals(List.of(), declarer.violations());
        assertEquals(declarer.liveCount(), cache.statistics().declaredRegions(), "declared regions");
    }

    private static MemorySegment page(final int i)
    {
        return segment(0x100000 + 2 * i * PAGE, PAGE);
    }

    private RegionLease hold(final MemorySegment segment)
    {
        final RegionLease lease = new RegionLease();
        cache.acquire(segment, lease);
        return lease;
    }

    @Test
    void aCacheLargerThanTheTableStillDeclaresEveryRegion()
    {
        for (int i = 0; i < 5 * TABLE; i++)
        {
            final RegionLease lease = hold(page(i));
            assertTrue(declarer.isLive(lease.regionId()), "region of page " + i + " is declared");
            cache.release(lease);
        }
        final RegionCacheStatistics statistics = cache.statistics();
        assertEquals(5 * TABLE, statistics.misses());
        assertEquals(4 * TABLE, statistics.tableFullEvictions(), "one eviction per declaration the table refused");
        assertEquals(4 * TABLE, declarer.refusedFull());
        assertEquals(TABLE, declarer.liveCount());
    }

    @Test
    void theLeastRecentlyReleasedRegionMakesRoomFirst()
    {
        final int[] ids = new int[TABLE];
        for (int i = 0; i < TABLE; i++)
        {
            final RegionLease lease = hold(page(i));
            ids[i] = lease.regionId();
            cache.release(lease);
        }
        // Page 0 used again: page 1 is now the least recently used.
        cache.release(hold(page(0)));
        cache.release(hold(page(TABLE)));
        assertTrue(declarer.isLive(ids[0]), "page 0, used lately, kept");
        final long hitsBefore = cache.statistics().hits();
        cache.release(hold(page(0)));
        assertEquals(hitsBefore + 1, cache.statistics().hits(), "page 0 still cached");
        final long missesBefore = cache.statistics().misses();
        cache.release(hold(page(1)));
        assertEquals(missesBefore + 1, cache.statistics().misses(), "page 1 was the one undeclared");
    }

    @Test
    void regionsInUseAreNeverEvictedForRoom()
    {
        final RegionLease[] held = new RegionLease[TABLE - 1];
        for (int i = 0; i < held.length; i++)
        {
            held[i] = hold(page(i));
        }
        for (int i = TABLE; i < 10 * TABLE; i++)
        {
            cache.release(hold(page(i)));
        }
        for (int i = 0; i < held.length; i++)
        {
            assertTrue(declarer.isLive(held[i].regionId()), "held region " + i + " still declared");
            assertEquals(page(i).address(), declarer.live(held[i].regionId()).addresses()[0], "and still its page");
            cache.release(held[i]);
        }
        assertEquals(TABLE, cache.statistics().declaredRegions());
    }

    @Test
    void aFullTableOfRegionsInUseIsRefusedNamingThemAndRecoversOnRelease()
    {
        final RegionLease[] held = new RegionLease[TABLE];
        for (int i = 0; i < TABLE; i++)
        {
            held[i] = hold(page(i));
        }
        final RegionLease lease = new RegionLease();
        final RegionTableFullException refused =
            assertThrows(RegionTableFullException.class, () -> cache.acquire(page(TABLE), lease));
        assertTrue(refused.getMessage().contains("none of the " + TABLE + " regions this cache holds is idle (" + TABLE +
            " in use)"), refused.getMessage());
        assertInstanceOf(RegionTableFullException.class, refused.getCause(), "the declarer's refusal is the cause");
        assertFalse(lease.isHeld());
        assertEquals(TABLE, declarer.liveCount(), "nothing undeclared");
        cache.release(held[0]);
        cache.acquire(page(TABLE), lease);
        assertTrue(declarer.isLive(lease.regionId()));
        cache.release(lease);
        for (int i = 1; i < TABLE; i++)
        {
            cache.release(held[i]);
        }
    }

    @Test
    void aRegionDeclaredOutsideTheCacheMakesRoomTooAndIsNeverEvicted()
    {
        for (int i = 0; i < TABLE; i++)
        {
            cache.release(hold(page(i)));
        }
        final int outside = cache.declareOutside(new MemorySegment[] {page(100)}, 1);
        assertTrue(declarer.isLive(outside));
        assertEquals(1, cache.statistics().tableFullEvictions());
        for (int i = TABLE; i < 4 * TABLE; i++)
        {
            cache.release(hold(page(i)));
        }
        assertTrue(declarer.isLive(outside), "the cache never undeclares what it does not hold");
        final RegionLease[] held = new RegionLease[TABLE - 1];
        for (int i = 0; i < held.length; i++)
        {
            held[i] = hold(page(50 + i));
        }
        final RegionTableFullException refused = assertThrows(RegionTableFullException.class,
            () -> cache.declareOutside(new MemorySegment[] {page(101)}, 1));
        assertTrue(refused.getMessage().contains("is idle (" + (TABLE - 1) + " in use)"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> cache.declareOutside(new MemorySegment[] {page(1)}, 2));
        for (final RegionLease lease : held)
        {
            cache.release(lease);
        }
        declarer.undeclare(outside);
    }

    @Test
    void otherDeclareFailuresStillPropagateUnchanged()
    {
        final IllegalStateException failure = new IllegalStateException("driver closed");
        declarer.failNextDeclare(failure);
        final RegionLease lease = new RegionLease();
        assertEquals(failure, assertThrows(IllegalStateException.class, () -> cache.acquire(page(0), lease)));
        assertEquals(0, cache.statistics().tableFullEvictions());
    }
}
