package io.pinmx.regioncache;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Objects;

import static io.pinmx.regioncache.SegmentArguments.SINGLE_SEGMENT;
import static io.pinmx.regioncache.SegmentArguments.checkLeaseFree;
import static io.pinmx.regioncache.SegmentArguments.checkedAddress;

/**
 * LRU cache of declared regions keyed by their segment vector.
 * <p>
 * A request is a vector of native segments. It hits when a cached region has exactly the
 * same vector, or, for a single segment, when a cached single-segment region contains it:
 * the lease then carries the offset of the segment inside that region. Otherwise the
 * vector is declared through the {@link RegionDeclarer} and cached.
 * <p>
 * Every held {@link RegionLease} counts as a use of its region; a region in use is never
 * evicted nor undeclared. Recency is the time of the last release (or of the admission),
 * and only idle regions sit in the LRU list, so eviction takes its tail in O(1).
 * <p>
 * Capacity is a region count and a number of declared bytes. A miss evicts least recently
 * used idle regions until both fit. When every remaining region is in use, the request
 * still proceeds: its region is admitted over capacity (counted) and the cache shrinks back
 * as leases are released. A region larger than the byte capacity on its own is declared
 * for its leases only and undeclared when the last one is released, without flushing the
 * cache. A byte capacity of 0 therefore caches nothing: every acquire declares, and the
 * last release of its lease undeclares (declare and destroy per use).
 * <p>
 * The driver's own table may be smaller than the cache (a user-driver endpoint holds 1024 regions, and regions
 * declared outside the cache share its table): when the declarer says the driver has no room
 * ({@link RegionTableFullException}), the least recently used idle region is undeclared and the declaration tried
 * again, until it succeeds or no idle region is left; then the cache throws {@link RegionTableFullException} naming
 * how many of its regions are in use. Regions the caller keeps outside the cache
 * ({@link #declareOutside(MemorySegment[], int)}) make room the same way.
 * <p>
 * Lookups never scan: every region is in a hash table keyed by its exact vector, and
 * single-segment regions are also in an address-ordered index that finds a containing
 * region in O(log n) whatever the overlaps (see {@link ContainmentIndex}).
 * <p>
 * Thread-safe: one lock guards the indexes, the {@link IdleRegions}, the {@link UndeclareQueue} and the counters;
 * a hit takes it once in acquire and once in release, for a hash probe (then a binary search if a single segment has
 * no exact match) and a few link updates. Declares and undeclares run outside the lock. When two threads miss on the
 * same vector at once, both declare and the loser undeclares its copy. An id is undeclared only after its region left
 * the indexes, so the driver cannot hand it out again while a lookup could still find the old region.
 * <p>
 * A declare failure caches nothing and propagates unchanged. An undeclare failure
 * propagates from the call that triggered it once every queued undeclare was attempted
 * (later failures are suppressed into the first); the region is forgotten either way, and
 * an {@code acquire} that fails so leaves its lease not held.
 */
public final class RegionCache implements AutoCloseable
{
    /** Most segments in one region, as in the driver contract. */
    public static final int MAX_SEGMENTS = 256;

    private final RegionDeclarer declarer;
    private final int maxRegions;
    private final long maxDeclaredBytes;
    private final Object lock = new Object();
    /** Every cached region by exact vector. */
    private final VectorIndex vectors = new VectorIndex();
    /** Cached single-segment regions by address, for containment. */
    private final ContainmentIndex singles = new ContainmentIndex();

    private final IdleRegions idle = new IdleRegions();
    private final UndeclareQueue undeclares;

    private long hits;
    private long misses;
    private long evictions;
    private long tableFullEvictions;
    private long invalidations;
    private long overCapacityAdmissions;
    private int declaredRegions;
    private long declaredBytes;
    private int inUseRegions;
    private boolean closed;

    /**
     * @param declarer         declares and undeclares regions with the driver.
     * @param maxRegions       most regions kept declared while idle ones can be evicted.
     * @param maxDeclaredBytes most bytes kept declared while idle ones can be evicted; 0 caches nothing.
     */
    public RegionCache(final RegionDeclarer declarer, final int maxRegions, final long maxDeclaredBytes)
    {
        this.declarer = Objects.requireNonNull(declarer, "declarer must not be null");
        this.undeclares = new UndeclareQueue(declarer);
        if (maxRegions < 1)
        {
            throw new IllegalArgumentException("maxRegions must be at least 1: " + maxRegions);
        }
        if (maxDeclaredBytes < 0)
        {
            throw new IllegalArgumentException("maxDeclaredBytes must be at least 0: " + maxDeclaredBytes);
        }
        this.maxRegions = maxRegions;
        this.maxDeclaredBytes = maxDeclaredBytes;
    }

    public int maxRegions()
    {
        return maxRegions;
    }

    public long maxDeclaredBytes()
    {
        return maxDeclaredBytes;
    }

    /**
     * Acquires a region covering one native segment: the smallest lookup, allocation-free on a hit.
     *
     * @param segment native segment of positive size.
     * @param lease   the caller's lease, not held; holds the region id and offset on return.
     * @throws IllegalArgumentException if the segment is null, not native or empty.
     * @throws IllegalStateException    if the lease is already held or the cache is closed.
     */
    public void acquire(final MemorySegment segment, final RegionLease lease)
    {
        acquireSingle(segment, SINGLE_SEGMENT, lease);
    }

    /**
     * Acquires the region declared for exactly this vector of native segments; a vector of
     * one segment is looked up as {@link #acquire(MemorySegment, RegionLease)} does.
     *
     * @param segments the vector, in order; only the first {@code count} are used.
     * @param count    number of segments, 1 to {@link #MAX_SEGMENTS}.
     * @param lease    the caller's lease, not held; holds the region id on return.
     * @throws IllegalArgumentException if count is out of range or a segment is null, not native or empty.
     * @throws IllegalStateException    if the lease is already held or the cache is closed.
     */
    public void acquire(final MemorySegment[] segments, final int count, final RegionLease lease)
    {
        Objects.requireNonNull(segments, "segments must not be null");
        if (count < 1 || count > MAX_SEGMENTS)
        {
            throw new IllegalArgumentException("count " + count + " is outside 1.." + MAX_SEGMENTS);
        }
        if (count > segments.length)
        {
            throw new IllegalArgumentException("count " + count + " exceeds segments.length " + segments.length);
        }
        if (1 == count)
        {
            acquireSingle(segments[0], 0, lease);
            return;
        }
        checkLeaseFree(lease);
        long hash = VectorIndex.hashStart(count);
        long totalBytes = 0;
        for (int i = 0; i < count; i++)
        {
            final MemorySegment segment = segments[i];
            final long address = checkedAddress(segment, i);
            final long length = segment.byteSize();
            totalBytes += length;
            if (totalBytes < 0)
            {
                throw new IllegalArgumentException("segments[0.." + i + "] total more than Long.MAX_VALUE bytes");
            }
            hash = VectorIndex.hashSegment(hash, address, length);
        }
        synchronized (lock)
        {
            checkOpen();
            final CachedRegion region = vectors.find(hash, segments, count);
            if (null != region)
            {
                hits++;
                use(region);
                lease.hold(this, region, 0);
                return;
            }
            misses++;
        }
        final long[] addresses = new long[count];
        final long[] lengths = new long[count];
        for (int i = 0; i < count; i++)
        {
            addresses[i] = segments[i].address();
            lengths[i] = segments[i].byteSize();
        }
        admit(new CachedRegion(addresses, lengths, count, hash), lease);
    }

    /**
     * Ends a lease; the region becomes idle once its last lease is released.
     *
     * @throws IllegalStateException    if the lease is not held (double release, or a failed acquire).
     * @throws IllegalArgumentException if the lease was acquired from another cache.
     */
    public void release(final RegionLease lease)
    {
        final CachedRegion region = lease.region;
        if (null == region)
        {
            throw new IllegalStateException("lease is not held: already released, or never acquired");
        }
        if (lease.cache != this)
        {
            throw new IllegalArgumentException("lease of region " + region.regionId + " was acquired from another cache");
        }
        final CachedRegion pending;
        synchronized (lock)
        {
            lease.clear();
            if (0 == --region.inUseCount)
            {
                inUseRegions--;
                if (region.dropped)
                {
                    retire(region);
                }
                else
                {
                    idle.pushMostRecent(region);
                    evictWhileOverCapacity();
                }
            }
            if (undeclares.isEmpty())
            {
                return;
            }
            pending = undeclares.takeAll();
        }
        undeclares.undeclareAll(pending);
    }

    /**
     * Drops every cached region with a segment overlapping {@code [address, address + length)},
     * for callers that know the memory changed: idle ones are undeclared now, those in use at
     * their last release; none is found by a later acquire. Scans every region.
     *
     * @return number of regions dropped.
     * @throws IllegalArgumentException if the length is not positive or the range wraps.
     */
    public int invalidate(final long address, final long length)
    {
        if (length < 1)
        {
            throw new IllegalArgumentException("length must be positive: " + length);
        }
        if (address + length < address)
        {
            throw new IllegalArgumentException(
                "address 0x" + Long.toHexString(address) + " + length " + length + " wraps around");
        }
        return dropOverlapping(address, address + length);
    }

    /**
     * Drops every cached region, as {@link #invalidate} does for all memory.
     *
     * @return number of regions dropped.
     */
    public int clear()
    {
        return dropOverlapping(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * Refuses further acquires and drops every region; regions still in use are undeclared
     * at their last release. Idempotent.
     */
    public void close()
    {
        synchronized (lock)
        {
            closed = true;
        }
        clear();
    }

    public RegionCacheStatistics statistics()
    {
        synchronized (lock)
        {
            return new RegionCacheStatistics(
                hits, misses, evictions, tableFullEvictions, invalidations, overCapacityAdmissions,
                declaredRegions, declaredBytes, inUseRegions);
        }
    }

    private void acquireSingle(final MemorySegment segment, final int index, final RegionLease lease)
    {
        checkLeaseFree(lease);
        final long address = checkedAddress(segment, index);
        final long length = segment.byteSize();
        final long end = address + length;
        final long hash = VectorIndex.hashSingle(address, length);
        synchronized (lock)
        {
            checkOpen();
            final CachedRegion region = findHolding(hash, address, end);
            if (null != region)
            {
                hits++;
                use(region);
                lease.hold(this, region, address - region.start);
                return;
            }
            misses++;
        }
        admit(new CachedRegion(new long[]{ address }, new long[]{ length }, 1, hash), lease);
    }

    /**
     * A query that changes nothing (no hit counted, recency kept): whether an acquire of this segment would find a
     * cached region holding it whole, so a transfer from or into it now declares nothing.
     *
     * @return false for a heap or empty segment (no region can hold it) and once the cache is closed.
     * @throws IllegalArgumentException if the segment is null.
     */
    public boolean covers(final MemorySegment segment)
    {
        if (null == segment)
        {
            throw new IllegalArgumentException("segment is null");
        }
        if (!segment.isNative() || segment.byteSize() < 1)
        {
            return false;
        }
        final long address = segment.address();
        final long hash = VectorIndex.hashSingle(address, segment.byteSize());
        synchronized (lock)
        {
            return !closed && null != findHolding(hash, address, address + segment.byteSize());
        }
    }

    /** Under the lock: the single-segment region of exactly this range, else one containing it, or null. */
    private CachedRegion findHolding(final long hash, final long address, final long end)
    {
        final CachedRegion exact = vectors.findSingle(hash, address, end);
        return null != exact ? exact : singles.findContaining(address, end);
    }

    /**
     * Declares a region the caller keeps outside the cache and undeclares itself (memory exposed for as long as the
     * caller decides), making room in the driver's table by undeclaring idle cached regions if need be.
     *
     * @param segments the vector, in order; only the first {@code count} are used.
     * @param count    number of segments, 1 to {@link #MAX_SEGMENTS}.
     * @return the driver's region id.
     * @throws IllegalArgumentException  if count is out of range or a segment is null, not native or empty.
     * @throws RegionTableFullException if the driver has no room and every cached region is in use.
     */
    public int declareOutside(final MemorySegment[] segments, final int count)
    {
        Objects.requireNonNull(segments, "segments must not be null");
        if (count < 1 || count > MAX_SEGMENTS || count > segments.length)
        {
            throw new IllegalArgumentException("count " + count + " is outside 1.." +
                Math.min(MAX_SEGMENTS, segments.length));
        }
        final long[] addresses = new long[count];
        final long[] lengths = new long[count];
        for (int i = 0; i < count; i++)
        {
            addresses[i] = checkedAddress(segments[i], i);
            lengths[i] = segments[i].byteSize();
        }
        return declareMakingRoom(addresses, lengths, count);
    }

    /** Declares outside the lock, then caches the region unless another thread cached the same meanwhile. */
    private void admit(final CachedRegion region, final RegionLease lease)
    {
        region.regionId = declareMakingRoom(region.addresses, region.lengths, region.segmentCount);
        final CachedRegion pending;
        final boolean wasClosed;
        synchronized (lock)
        {
            wasClosed = closed;
            final CachedRegion existing = wasClosed ? null : findExisting(region);
            if (wasClosed)
            {
                undeclares.add(region);
            }
            else if (null != existing)
            {
                use(existing);
                lease.hold(this, existing, region.start - existing.start);
                undeclares.add(region);
            }
            else
            {
                insert(region);
                lease.hold(this, region, 0);
            }
            pending = undeclares.takeAll();
        }
        try
        {
            undeclares.undeclareAll(pending);
        }
        catch (final RuntimeException ex)
        {
            if (lease.isHeld())
            {
                try
                {
                    release(lease);
                }
                catch (final RuntimeException releaseFailure)
                {
                    ex.addSuppressed(releaseFailure);
                }
            }
            throw ex;
        }
        if (wasClosed)
        {
            throw new IllegalStateException("region cache was closed while region " + region.regionId + " was declared");
        }
    }

    /**
     * Declares; while the driver has no room, undeclares the least recently used idle region and declares again.
     * Called without the lock.
     *
     * @throws RegionTableFullException if the driver has no room and no cached region is idle.
     */
    private int declareMakingRoom(final long[] addresses, final long[] lengths, final int count)
    {
        while (true)
        {
            try
            {
                return declarer.declare(addresses, lengths, count);
            }
            catch (final RegionTableFullException full)
            {
                final boolean evicted;
                final int held;
                final int inUse;
                final CachedRegion pending;
                synchronized (lock)
                {
                    evicted = null != idle.leastRecent();
                    if (evicted)
                    {
                        evictIdleTail();
                        tableFullEvictions++;
                    }
                    held = declaredRegions;
                    inUse = inUseRegions;
                    pending = undeclares.takeAll();
                }
                undeclares.undeclareAll(pending);
                if (!evicted)
                {
                    throw new RegionTableFullException("the driver has no room for another region and none of the " +
                        held + " regions this cache holds is idle (" + inUse + " in use): release leases, or declare " +
                        "fewer regions outside the cache", full);
                }
            }
        }
    }

    private CachedRegion findExisting(final CachedRegion region)
    {
        if (1 == region.segmentCount)
        {
            return singles.findContaining(region.start, region.end);
        }
        return vectors.findExact(region);
    }

    private void insert(final CachedRegion region)
    {
        region.inUseCount = 1;
        inUseRegions++;
        declaredRegions++;
        declaredBytes += region.declaredBytes;
        if (region.declaredBytes > maxDeclaredBytes)
        {
            region.dropped = true;
            overCapacityAdmissions++;
            return;
        }
        vectors.insert(region);
        if (1 == region.segmentCount)
        {
            singles.insert(region);
        }
        evictWhileOverCapacity();
        if (overCapacity())
        {
            overCapacityAdmissions++;
        }
    }

    private boolean overCapacity()
    {
        return declaredRegions > maxRegions || declaredBytes > maxDeclaredBytes;
    }

    private void evictWhileOverCapacity()
    {
        while (null != idle.leastRecent() && overCapacity())
        {
            evictIdleTail();
        }
    }

    /** Drops the least recently used idle region and queues its undeclare. */
    private void evictIdleTail()
    {
        final CachedRegion victim = idle.leastRecent();
        idle.remove(victim);
        removeFromIndex(victim);
        victim.dropped = true;
        retire(victim);
        evictions++;
    }

    private int dropOverlapping(final long address, final long endExclusive)
    {
        final CachedRegion pending;
        final int dropped;
        synchronized (lock)
        {
            final ArrayList<CachedRegion> victims = new ArrayList<>();
            for (int bucket = 0; bucket < vectors.bucketCount(); bucket++)
            {
                for (CachedRegion region = vectors.bucketHead(bucket); null != region; region = region.bucketNext)
                {
                    if (region.overlaps(address, endExclusive))
                    {
                        victims.add(region);
                    }
                }
            }
            for (final CachedRegion region : victims)
            {
                removeFromIndex(region);
                region.dropped = true;
                invalidations++;
                if (0 == region.inUseCount)
                {
                    idle.remove(region);
                    retire(region);
                }
            }
            dropped = victims.size();
            pending = undeclares.takeAll();
        }
        undeclares.undeclareAll(pending);
        return dropped;
    }

    private void use(final CachedRegion region)
    {
        if (0 == region.inUseCount++)
        {
            inUseRegions++;
            idle.remove(region);
        }
    }

    private void removeFromIndex(final CachedRegion region)
    {
        vectors.remove(region);
        if (1 == region.segmentCount)
        {
            singles.remove(region);
        }
    }

    /** Forgets a dropped idle region and queues its undeclare. */
    private void retire(final CachedRegion region)
    {
        declaredRegions--;
        declaredBytes -= region.declaredBytes;
        undeclares.add(region);
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("region cache is closed");
        }
    }
}
