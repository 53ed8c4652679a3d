package io.pinmx.regioncache;

/**
 * One declared region and its bookkeeping. Intrusive links keep the indexes and the idle
 * list free of wrapper objects; all fields are guarded by the cache's lock.
 */
final class CachedRegion
{
    final long[] addresses;
    final long[] lengths;
    final int segmentCount;
    final long declaredBytes;
    final long hash;
    /** First segment's start and exclusive end, copied out of the arrays so single-segment lookups stay on this object. */
    final long start;
    final long end;
    int regionId;

    /** Acquired and not yet released leases; an entry with a positive count is never undeclared. */
    int inUseCount;
    /** Out of the indexes (evicted, invalidated or cleared): no new lease, undeclare once idle. */
    boolean dropped;

    /** Idle list (least recently released at the tail); only entries with no lease are linked. */
    CachedRegion idlePrevious;
    CachedRegion idleNext;
    boolean idleLinked;

    /** Next entry in the same vector-hash bucket. */
    CachedRegion bucketNext;
    /** Next entry waiting to be undeclared outside the lock. */
    CachedRegion undeclareNext;

    CachedRegion(final long[] addresses, final long[] lengths, final int segmentCount, final long hash)
    {
        this.addresses = addresses;
        this.lengths = lengths;
        this.segmentCount = segmentCount;
        this.hash = hash;
        long bytes = 0;
        for (int i = 0; i < segmentCount; i++)
        {
            bytes += lengths[i];
        }
        this.declaredBytes = bytes;
        this.start = addresses[0];
        this.end = addresses[0] + lengths[0];
    }

    boolean overlaps(final long address, final long endExclusive)
    {
        for (int i = 0; i < segmentCount; i++)
        {
            if (addresses[i] < endExclusive && address < addresses[i] + lengths[i])
            {
                return true;
            }
        }
        return false;
    }
}
