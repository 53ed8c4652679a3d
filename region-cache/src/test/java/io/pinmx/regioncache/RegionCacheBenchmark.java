package io.pinmx.regioncache;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Acquire plus release on a cache holding 1,024 regions, requests in shuffled order.
 * The declarer only hands out ids, so the numbers are the cache's own cost: a real miss
 * adds the driver's declare and undeclare calls (microseconds) on top.
 * Run with {@code mvn -B -pl region-cache -P jmh verify} (see README.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RegionCacheBenchmark
{
    static final int CACHED_REGIONS = 1024;
    static final int REGION_BYTES = 4096;
    static final int VECTOR_SEGMENTS = 4;
    static final int VECTOR_SEGMENT_BYTES = 256;

    /** Hands out ids like a driver's region table would, without a system call. */
    static final class IdOnlyDeclarer implements RegionDeclarer
    {
        private int nextRegionId;

        public int declare(final long[] addresses, final long[] lengths, final int count)
        {
            return nextRegionId++;
        }

        public void undeclare(final int regionId)
        {
        }
    }

    static int[] shuffledOrder(final int size, final long seed)
    {
        final int[] order = new int[size];
        for (int i = 0; i < size; i++)
        {
            order[i] = i;
        }
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = size - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    /** 1,024 cached page-sized single-segment regions, and a sub-segment inside each. */
    @State(Scope.Thread)
    public static class SingleRegions
    {
        final RegionLease lease = new RegionLease();
        final MemorySegment[] regions = new MemorySegment[CACHED_REGIONS];
        final MemorySegment[] insideRegions = new MemorySegment[CACHED_REGIONS];
        final int[] order = shuffledOrder(CACHED_REGIONS, 1);
        Arena arena;
        RegionCache cache;
        int cursor;

        @Setup(Level.Trial)
        public void setUp()
        {
            arena = Arena.ofShared();
            final MemorySegment memory = arena.allocate((long)CACHED_REGIONS * REGION_BYTES, REGION_BYTES);
            cache = new RegionCache(new IdOnlyDeclarer(), CACHED_REGIONS, Long.MAX_VALUE);
            for (int i = 0; i < CACHED_REGIONS; i++)
            {
                regions[i] = memory.asSlice((long)i * REGION_BYTES, REGION_BYTES);
                insideRegions[i] = regions[i].asSlice(128, 1024);
                cache.acquire(regions[i], lease);
                cache.release(lease);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown()
        {
            check(cache, CACHED_REGIONS);
            cache.close();
            arena.close();
        }

        int next()
        {
            cursor = (cursor + 1) & (CACHED_REGIONS - 1);
            return order[cursor];
        }
    }

    /** 1,024 cached regions of 4 segments each. */
    @State(Scope.Thread)
    public static class VectorRegions
    {
        final RegionLease lease = new RegionLease();
        final MemorySegment[][] vectors = new MemorySegment[CACHED_REGIONS][VECTOR_SEGMENTS];
        final int[] order = shuffledOrder(CACHED_REGIONS, 2);
        Arena arena;
        RegionCache cache;
        int cursor;

        @Setup(Level.Trial)
        public void setUp()
        {
            arena = Arena.ofShared();
            final MemorySegment memory =
                arena.allocate((long)CACHED_REGIONS * VECTOR_SEGMENTS * VECTOR_SEGMENT_BYTES, VECTOR_SEGMENT_BYTES);
            cache = new RegionCache(new IdOnlyDeclarer(), CACHED_REGIONS, Long.MAX_VALUE);
            for (int i = 0; i < CACHED_REGIONS; i++)
            {
                for (int j = 0; j < VECTOR_SEGMENTS; j++)
                {
                    vectors[i][j] = memory.asSlice((long)(i * VECTOR_SEGMENTS + j) * VECTOR_SEGMENT_BYTES, VECTOR_SEGMENT_BYTES);
                }
                cache.acquire(vectors[i], VECTOR_SEGMENTS, lease);
                cache.release(lease);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown()
        {
            check(cache, CACHED_REGIONS);
            cache.close();
            arena.close();
        }

        int next()
        {
            cursor = (cursor + 1) & (CACHED_REGIONS - 1);
            return order[cursor];
        }
    }

    /** A full cache of 1,024 regions asked in turn for 2,048 distinct ones: every request misses and evicts. */
    @State(Scope.Thread)
    public static class MissingRegions
    {
        static final int REQUESTED_REGIONS = 2 * CACHED_REGIONS;

        final RegionLease lease = new RegionLease();
        final MemorySegment[] regions = new MemorySegment[REQUESTED_REGIONS];
        Arena arena;
        RegionCache cache;
        int cursor;

        @Setup(Level.Trial)
        public void setUp()
        {
            arena = Arena.ofShared();
            final MemorySegment memory = arena.allocate((long)REQUESTED_REGIONS * REGION_BYTES, REGION_BYTES);
            cache = new RegionCache(new IdOnlyDeclarer(), CACHED_REGIONS, Long.MAX_VALUE);
            for (int i = 0; i < REQUESTED_REGIONS; i++)
            {
                regions[i] = memory.asSlice((long)i * REGION_BYTES, REGION_BYTES);
                cache.acquire(regions[i], lease);
                cache.release(lease);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown()
        {
            check(cache, CACHED_REGIONS);
            if (0 != cache.statistics().hits())
            {
                throw new IllegalStateException("the miss benchmark hit: " + cache.statistics());
            }
            cache.close();
            arena.close();
        }

        int next()
        {
            cursor = (cursor + 1) & (REQUESTED_REGIONS - 1);
            return cursor;
        }
    }

    static void check(final RegionCache cache, final int expectedRegions)
    {
        final RegionCacheStatistics statistics = cache.statistics();
        if (statistics.declaredRegions() != expectedRegions || statistics.inUseRegions() != 0)
        {
            throw new IllegalStateException("benchmark cache drifted: " + statistics);
        }
    }

    /** The floor under every hit: the lock taken once by acquire and once by release, uncontended. */
    @Benchmark
    public long lockPairBaseline(final SingleRegions state)
    {
        final int index = state.next();
        synchronized (state)
        {
            state.cursor++;
        }
        synchronized (state)
        {
            state.cursor--;
        }
        return index;
    }

    @Benchmark
    public long singleSegmentExactHit(final SingleRegions state)
    {
        final RegionLease lease = state.lease;
        state.cache.acquire(state.regions[state.next()], lease);
        final long result = lease.regionId() + lease.offset();
        state.cache.release(lease);
        return result;
    }

    @Benchmark
    public long containmentHit(final SingleRegions state)
    {
        final RegionLease lease = state.lease;
        state.cache.acquire(state.insideRegions[state.next()], lease);
        final long result = lease.regionId() + lease.offset();
        state.cache.release(lease);
        return result;
    }

    @Benchmark
    public long vectorHit(final VectorRegions state)
    {
        final RegionLease lease = state.lease;
        state.cache.acquire(state.vectors[state.next()], VECTOR_SEGMENTS, lease);
        final long result = lease.regionId();
        state.cache.release(lease);
        return result;
    }

    @Benchmark
    public long missWithEviction(final MissingRegions state)
    {
        final RegionLease lease = state.lease;
        state.cache.acquire(state.regions[state.next()], lease);
        final long result = lease.regionId();
        state.cache.release(lease);
        return result;
    }
}
