package io.pinmx.regioncache;

import java.util.Arrays;

/**
 * Single-segment regions ordered by start address, with a running maximum of their ends,
 * so that a containing region is found in O(log n) even when cached regions overlap.
 * <p>
 * Among the regions starting at or before an address (a prefix of the order), the one
 * reaching furthest is the best container: if it does not cover the request, none does.
 * The prefix maximum is recomputed from the changed position on insert and remove, an
 * O(n) array shift like the insertion itself; only misses, evictions and invalidations pay it.
 * <p>
 * Guarded by the cache's lock.
 */
final class ContainmentIndex
{
    private static final int INITIAL_CAPACITY = 64;

    private long[] starts = new long[INITIAL_CAPACITY];
    private long[] ends = new long[INITIAL_CAPACITY];
    private CachedRegion[] regions = new CachedRegion[INITIAL_CAPACITY];
    private long[] prefixMaxEnds = new long[INITIAL_CAPACITY];
    private int[] prefixMaxIndices = new int[INITIAL_CAPACITY];
    private int size;

    int size()
    {
        return size;
    }

    /**
     * @return the region reaching furthest among those starting at or before {@code address}
     *         if it covers up to {@code endExclusive}, else null.
     */
    CachedRegion findContaining(final long address, final long endExclusive)
    {
        final int last = upperBound(address) - 1;
        if (last < 0 || prefixMaxEnds[last] < endExclusive)
        {
            return null;
        }
        return regions[prefixMaxIndices[last]];
    }

    void insert(final CachedRegion region)
    {
        if (size == starts.length)
        {
            grow();
        }
        final long start = region.start;
        final int index = upperBound(start);
        final int tail = size - index;
        System.arraycopy(starts, index, starts, index + 1, tail);
        System.arraycopy(ends, index, ends, index + 1, tail);
        System.arraycopy(regions, index, regions, index + 1, tail);
        starts[index] = start;
        ends[index] = region.end;
        regions[index] = region;
        size++;
        recomputeFrom(index);
    }

    void remove(final CachedRegion region)
    {
        final long start = region.start;
        int index = lowerBound(start);
        while (index < size && regions[index] != region)
        {
            index++;
        }
        if (index == size)
        {
            throw new IllegalStateException("region " + region.regionId + " is not in the containment index");
        }
        removeAt(index);
    }

    private void removeAt(final int index)
    {
        final int tail = size - index - 1;
        System.arraycopy(starts, index + 1, starts, index, tail);
        System.arraycopy(ends, index + 1, ends, index, tail);
        System.arraycopy(regions, index + 1, regions, index, tail);
        size--;
        regions[size] = null;
        recomputeFrom(index);
    }

    private void recomputeFrom(final int index)
    {
        for (int i = index; i < size; i++)
        {
            if (0 == i || ends[i] > prefixMaxEnds[i - 1])
            {
                prefixMaxEnds[i] = ends[i];
                prefixMaxIndices[i] = i;
            }
            else
            {
                prefixMaxEnds[i] = prefixMaxEnds[i - 1];
                prefixMaxIndices[i] = prefixMaxIndices[i - 1];
            }
        }
    }

    /**
     * First index whose start is greater than {@code address}. A fixed number of halvings
     * with a conditional move instead of a taken-or-not branch: random lookups would
     * mispredict about every other step.
     */
    private int upperBound(final long address)
    {
        if (0 == size)
        {
            return 0;
        }
        int base = 0;
        int remaining = size;
        while (remaining > 1)
        {
            final int half = remaining >>> 1;
            base = starts[base + half] <= address ? base + half : base;
            remaining -= half;
        }
        return starts[base] <= address ? base + 1 : base;
    }

    /** First index whose start is at least {@code address}. */
    private int lowerBound(final long address)
    {
        int low = 0;
        int high = size;
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (starts[middle] < address)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low;
    }

    private void grow()
    {
        final int capacity = starts.length * 2;
        starts = Arrays.copyOf(starts, capacity);
        ends = Arrays.copyOf(ends, capacity);
        regions = Arrays.copyOf(regions, capacity);
        prefixMaxEnds = Arrays.copyOf(prefixMaxEnds, capacity);
        prefixMaxIndices = Arrays.copyOf(prefixMaxIndices, capacity);
    }
}
