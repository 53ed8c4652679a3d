package io.pinmx.regioncache;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Every cached region by its exact segment vector (a single segment is a vector of one):
 * a chained hash table over the entries' intrusive {@code bucketNext} links. The hash is
 * folded from the addresses and lengths themselves, so a lookup builds no key object.
 * Guarded by the cache's lock.
 */
final class VectorIndex
{
    private static final int INITIAL_BUCKETS = 64;
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private CachedRegion[] buckets = new CachedRegion[INITIAL_BUCKETS];
    private int size;

    /**
     * The hash of a vector is {@code hashStart(count)} folded with each segment in order by
     * {@link #hashSegment}.
     */
    static long hashStart(final int segmentCount)
    {
        return segmentCount;
    }

    static long hashSegment(final long hash, final long address, final long length)
    {
        return mix(mix(hash, address), length);
    }

    static long hashSingle(final long address, final long length)
    {
        return hashSegment(hashStart(1), address, length);
    }

    private static long mix(final long hash, final long value)
    {
        final long h = (hash ^ value) * GOLDEN_GAMMA;
        return h ^ (h >>> 29);
    }

    int bucketCount()
    {
        return buckets.length;
    }

    CachedRegion bucketHead(final int bucket)
    {
        return buckets[bucket];
    }

    /**
     * @param hash the requested vector's hash (see {@link #hashStart}).
     * @return the region declared for exactly this vector, else null.
     */
    CachedRegion find(final long hash, final MemorySegment[] segments, final int count)
    {
        for (CachedRegion region = buckets[bucketOf(hash)]; null != region; region = region.bucketNext)
        {
            if (region.hash == hash && matches(region, segments, count))
            {
                return region;
            }
        }
        return null;
    }

    /**
     * @param hash         {@link #hashSingle} of the requested segment.
     * @param endExclusive the segment's address plus its length.
     * @return the single-segment region declared for exactly this segment, else null.
     */
    CachedRegion findSingle(final long hash, final long address, final long endExclusive)
    {
        for (CachedRegion region = buckets[bucketOf(hash)]; null != region; region = region.bucketNext)
        {
            if (region.hash == hash && 1 == region.segmentCount && region.start == address && region.end == endExclusive)
            {
                return region;
            }
        }
        return null;
    }

    /**
     * @return a region other than {@code region} declared for the same vector, else null.
     */
    CachedRegion findExact(final CachedRegion region)
    {
        for (CachedRegion other = buckets[bucketOf(region.hash)]; null != other; other = other.bucketNext)
        {
            if (other.hash == region.hash && other.segmentCount == region.segmentCount &&
                Arrays.equals(other.addresses, 0, other.segmentCount, region.addresses, 0, region.segmentCount) &&
                Arrays.equals(other.lengths, 0, other.segmentCount, region.lengths, 0, region.segmentCount))
            {
                return other;
            }
        }
        return null;
    }

    void insert(final CachedRegion region)
    {
        if (size == buckets.length)
        {
            rehash(buckets.length * 2);
        }
        final int bucket = bucketOf(region.hash);
        region.bucketNext = buckets[bucket];
        buckets[bucket] = region;
        size++;
    }

    void remove(final CachedRegion region)
    {
        final int bucket = bucketOf(region.hash);
        CachedRegion previous = null;
        for (CachedRegion current = buckets[bucket]; null != current; current = current.bucketNext)
        {
            if (current == region)
            {
                if (null == previous)
                {
                    buckets[bucket] = current.bucketNext;
                }
                else
                {
                    previous.bucketNext = current.bucketNext;
                }
                region.bucketNext = null;
                size--;
                return;
            }
            previous = current;
        }
        throw new IllegalStateException("region " + region.regionId + " is not in the vector index");
    }

    private static boolean matches(final CachedRegion region, final MemorySegment[] segments, final int count)
    {
        if (region.segmentCount != count)
        {
            return false;
        }
        for (int i = 0; i < count; i++)
        {
            final MemorySegment segment = segments[i];
            if (region.addresses[i] != segment.address() || region.lengths[i] != segment.byteSize())
            {
                return false;
            }
        }
        return true;
    }

    private int bucketOf(final long hash)
    {
        return (int)(hash ^ (hash >>> 32)) & (buckets.length - 1);
    }

    private void rehash(final int bucketCount)
    {
        final CachedRegion[] old = buckets;
        buckets = new CachedRegion[bucketCount];
        for (CachedRegion head : old)
        {
            CachedRegion region = head;
            while (null != region)
            {
                final CachedRegion next = region.bucketNext;
                final int bucket = bucketOf(region.hash);
                region.bucketNext = buckets[bucket];
                buckets[bucket] = region;
                region = next;
            }
        }
    }
}
