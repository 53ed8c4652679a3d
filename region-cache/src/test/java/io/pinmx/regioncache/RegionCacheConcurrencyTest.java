package io.pinmx.regioncache;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static io.pinmx.regioncache.RegionCacheTest.segment;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionCacheConcurrencyTest
{
    private static final int THREADS = 4;
    private static final long PAGE_BYTES = 4096;
    private static final int PAGES = 64;
    private static final long BASE_ADDRESS = 0x7f00_0000_0000L;

    /**
     * Several threads acquire overlapping singles, sub-segments and vectors while one thread
     * invalidates ranges, on a cache small enough to evict constantly. Every lease must name
     * a region the driver still has declared and that covers the request; afterwards no use
     * count leaks, the byte count matches the driver's, and close undeclares every id once.
     */
    @Test
    void concurrentAcquiresEvictionsAndInvalidationsKeepTheCacheConsistent() throws Exception
    {
        final RecordingDeclarer declarer = new RecordingDeclarer();
        final RegionCache cache = new RegionCache(declarer, 16, 24 * PAGE_BYTES);
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong leases = new AtomicLong();
        final CountDownLatch start = new CountDownLatch(1);
        final ExecutorService executor = Executors.newFixedThreadPool(THREADS + 1);
        try
        {
            final List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++)
            {
                final long seed = t;
                workers.add(executor.submit(() -> acquireUntilStopped(cache, declarer, seed, start, stop, leases)));
            }
            workers.add(executor.submit(() -> invalidateUntilStopped(cache, start, stop)));
            start.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> leases.get() >= 200_000 || anyDone(workers));
            stop.set(true);
            for (final Future<?> worker : workers)
            {
                worker.get(30, TimeUnit.SECONDS);
            }
        }
        finally
        {
            stop.set(true);
            executor.shutdownNow();
            assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        }

        final RegionCacheStatistics statistics = cache.statistics();
        assertEquals(0, statistics.inUseRegions(), "no leaked use counts");
        assertEquals(declarer.liveCount(), statistics.declaredRegions());
        assertEquals(declarer.liveBytes(), statistics.declaredBytes());
        assertTrue(statistics.evictions() > 0 && statistics.hits() > 0 && statistics.invalidations() > 0, statistics.toString());
        assertTrue(statistics.declaredRegions() <= cache.maxRegions(), statistics.toString());
        assertTrue(statistics.declaredBytes() <= cache.maxDeclaredBytes(), statistics.toString());

        cache.close();
        assertEquals(0, declarer.liveCount());
        assertEquals(declarer.declareCount(), declarer.undeclaredIds().size(), "every declared id undeclared once");
        assertEquals(List.of(), declarer.violations());
    }

    /**
     * Forwards to a recording declarer once every party passed the barrier twice: on entering
     * declare and again before going on, so two declares overlap, or a test thread can act
     * while a declare is under way.
     */
    private static RegionDeclarer declaringTogether(final RecordingDeclarer declarer, final CyclicBarrier barrier)
    {
        return new RegionDeclarer()
        {
            public int declare(final long[] addresses, final long[] lengths, final int count)
            {
                try
                {
                    barrier.await(30, TimeUnit.SECONDS);
                    barrier.await(30, TimeUnit.SECONDS);
                }
                catch (final InterruptedException | BrokenBarrierException | TimeoutException ex)
                {
                    throw new IllegalStateException("declare barrier", ex);
                }
                return declarer.declare(addresses, lengths, count);
            }

            public void undeclare(final int regionId)
            {
                declarer.undeclare(regionId);
            }
        };
    }

    @Test
    void twoMissesOnTheSameVectorShareOneRegionAndTheLoserIsUndeclared() throws Exception
    {
        final RecordingDeclarer declarer = new RecordingDeclarer();
        final RegionCache cache = new RegionCache(declaringTogether(declarer, new CyclicBarrier(2)), 8, Long.MAX_VALUE);
        final RegionLease first = new RegionLease();
        final RegionLease second = new RegionLease();
        final ExecutorService executor = Executors.newFixedThreadPool(2);
        try
        {
            final Future<?> a = executor.submit(() -> cache.acquire(
                new MemorySegment[]{ segment(BASE_ADDRESS, 64), segment(BASE_ADDRESS + PAGE_BYTES, 64) }, 2, first));
            final Future<?> b = executor.submit(() -> cache.acquire(
                new MemorySegment[]{ segment(BASE_ADDRESS, 64), segment(BASE_ADDRESS + PAGE_BYTES, 64) }, 2, second));
            a.get(30, TimeUnit.SECONDS);
            b.get(30, TimeUnit.SECONDS);
        }
        finally
        {
            executor.shutdownNow();
        }

        assertEquals(first.regionId(), second.regionId());
        assertEquals(2, declarer.declareCount());
        assertEquals(1, declarer.undeclaredIds().size());
        assertTrue(declarer.isLive(first.regionId()));
        RegionCacheStatistics statistics = cache.statistics();
        assertEquals(1, statistics.declaredRegions());
        assertEquals(1, statistics.inUseRegions());
        assertEquals(2, statistics.misses());

        cache.release(first);
        assertEquals(1, cache.statistics().inUseRegions(), "still held by the second lease");
        cache.release(second);
        statistics = cache.statistics();
        assertEquals(0, statistics.inUseRegions());
        assertEquals(1, statistics.declaredRegions());
        cache.close();
        assertEquals(declarer.declareCount(), declarer.undeclaredIds().size());
        assertEquals(List.of(), declarer.violations());
    }

    @Test
    void closeDuringADeclareUndeclaresTheNewRegionAndFailsTheAcquire() throws Exception
    {
        final RecordingDeclarer declarer = new RecordingDeclarer();
        final CyclicBarrier barrier = new CyclicBarrier(2);
        final RegionCache cache = new RegionCache(declaringTogether(declarer, barrier), 8, Long.MAX_VALUE);
        final RegionLease lease = new RegionLease();
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        try
        {
            final Future<?> acquire = executor.submit(() -> cache.acquire(segment(BASE_ADDRESS, 64), lease));
            barrier.await(30, TimeUnit.SECONDS);
            cache.close();
            barrier.await(30, TimeUnit.SECONDS);
            final ExecutionException failure =
                assertThrows(ExecutionException.class, () -> acquire.get(30, TimeUnit.SECONDS));
            assertTrue(failure.getCause().getMessage().contains("closed while region 0 was declared"),
                failure.getCause().getMessage());
        }
        finally
        {
            executor.shutdownNow();
        }

        assertFalse(lease.isHeld());
        assertEquals(1, declarer.declareCount());
        assertEquals(List.of(0), declarer.undeclaredIds());
        assertEquals(0, cache.statistics().declaredRegions());
    }

    private static boolean anyDone(final List<Future<?>> workers)
    {
        return workers.stream().anyMatch(Future::isDone);
    }

    private static Void acquireUntilStopped(
        final RegionCache cache,
        final RecordingDeclarer declarer,
        final long seed,
        final CountDownLatch start,
        final AtomicBoolean stop,
        final AtomicLong leases) throws InterruptedException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final RegionLease[] held = { new RegionLease(), new RegionLease(), new RegionLease() };
        final MemorySegment[] vector = new MemorySegment[3];
        start.await();
        while (!stop.get())
        {
            for (final RegionLease lease : held)
            {
                final int kind = random.nextInt(3);
                final long address = BASE_ADDRESS + PAGE_BYTES * random.nextInt(PAGES);
                final long length;
                if (kind == 2)
                {
                    for (int i = 0; i < vector.length; i++)
                    {
                        vector[i] = segment(BASE_ADDRESS + PAGE_BYTES * random.nextInt(8), PAGE_BYTES);
                    }
                    cache.acquire(vector, vector.length, lease);
                    length = 0;
                }
                else
                {
                    length = kind == 0 ? PAGE_BYTES * (1 + random.nextInt(4)) : 1 + random.nextInt(100);
                    cache.acquire(segment(address, length), lease);
                }
                final RecordingDeclarer.Declared declared = declarer.live(lease.regionId());
                if (null == declared)
                {
                    throw new AssertionError("lease names region " + lease.regionId() + " which is not declared");
                }
                if (kind == 2)
                {
                    for (int i = 0; i < vector.length; i++)
                    {
                        if (declared.addresses()[i] != vector[i].address() || declared.lengths()[i] != PAGE_BYTES)
                        {
                            throw new AssertionError("region " + lease.regionId() + " is not the requested vector");
                        }
                    }
                }
                else
                {
                    final long regionStart = declared.addresses()[0];
                    if (declared.addresses().length != 1 || regionStart + lease.offset() != address ||
                        lease.offset() + length > declared.lengths()[0])
                    {
                        throw new AssertionError("region " + lease.regionId() + " does not cover the request");
                    }
                }
            }
            for (final RegionLease lease : held)
            {
                cache.release(lease);
            }
            leases.addAndGet(held.length);
        }
        return null;
    }

    private static Void invalidateUntilStopped(
        final RegionCache cache, final CountDownLatch start, final AtomicBoolean stop) throws InterruptedException
    {
        final SplittableRandom random = new SplittableRandom(99);
        start.await();
        while (!stop.get())
        {
            cache.invalidate(BASE_ADDRESS + PAGE_BYTES * random.nextInt(PAGES), PAGE_BYTES);
            Thread.onSpinWait();
        }
        return null;
    }
}
