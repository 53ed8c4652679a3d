package io.pinmx.regioncache;

import java.util.Arrays;

/**
 * Single-segment regions ordered by start address, with a running maximum of their ends,
 * so that a containing region is found in O(log n) even when cached regions overlap.
 * <p>
 * Among the regions starting at or before an address (a prefix of the order), the one
 * reaching furthest is the best container: if it does not cover the request, none does.
 * Insert and remove shift the arrays (one memory move each) and then repair the running
 * maximum only as far as it changes, which for regions that do not nest is one or two
 * entries. Only misses, evictions and invalidations pay that.
 * <p>
 * Guarded by the cache's lock.
 */
final class ContainmentIndex
{
    private static final int INITIAL_CAPACITY = 64;

    private long[] starts = new long[INITIAL_CAPACITY];
    private CachedRegion[] regions = new CachedRegion[INITIAL_CAPACITY];
    /** Greatest end among regions[0..i], and the first region reaching it. */
    private long[] prefixMaxEnds = new long[INITIAL_CAPACITY];
    private CachedRegion[] prefixMaxRegions = new CachedRegion[INITIAL_CAPACITY];
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
        return prefixMaxRegions[last];
    }

    void insert(final CachedRegion region)
    {
        if (size == starts.length)
        {
            grow();
        }
        final int index = upperBound(region.start);
        final int tail = size - index;
        System.arraycopy(starts, index, starts, index + 1, tail);
        System.arraycopy(regions, index, regions, index + 1, tail);
        System.arraycopy(prefixMaxEnds, index, prefixMaxEnds, index + 1, tail);
        System.arraycopy(prefixMaxRegions, index, prefixMaxRegions, index + 1, tail);
        starts[index] = region.start;
        regions[index] = region;
        size++;
        repairFrom(index, true);
    }

    void remove(final CachedRegion region)
    {
        int index = lowerBound(region.start);
        while (index < size && regions[index] != region)
        {
            index++;
        }
        if (index == size)
        {
            throw new IllegalStateException("region " + region.regionId + " is not in the containment index");
        }
        final int tail = size - index - 1;
        System.arraycopy(starts, index + 1, starts, index, tail);
        System.arraycopy(regions, index + 1, regions, index, tail);
        System.arraycopy(prefixMaxEnds, index + 1, prefixMaxEnds, index, tail);
        System.arraycopy(prefixMaxRegions, index + 1, prefixMaxRegions, index, tail);
        size--;
        regions[size] = null;
        prefixMaxRegions[size] = null;
        repairFrom(index, false);
    }

    /**
     * Recomputes the running maximum from {@code index}. Past the changed position, the
     * entries still hold the maximum of the old order; once a recomputed entry equals the
     * stored one (same end, same region), every later one does too, so the repair stops.
     */
    private void repairFrom(final int index, final boolean changedEntryIsNew)
    {
        for (int i = index; i < size; i++)
        {
            final long end = regions[i].end;
            final long maxEnd;
            final CachedRegion maxRegion;
            if (0 == i || end > prefixMaxEnds[i - 1])
            {
                maxEnd = end;
                maxRegion = regions[i];
            }
            else
            {
                maxEnd = prefixMaxEnds[i - 1];
                maxRegion = prefixMaxRegions[i - 1];
            }
            final boolean atChangedEntry = changedEntryIsNew && i == index;
            if (!atChangedEntry && maxEnd == prefixMaxEnds[i] && maxRegion == prefixMaxRegions[i])
            {
                return;
            }
            prefixMaxEnds[i] = maxEnd;
            prefixMaxRegions[i] = maxRegion;
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
        regions = Arrays.copyOf(regions, capacity);
        prefixMaxEnds = Arrays.copyOf(prefixMaxEnds, capacity);
        prefixMaxRegions = Arrays.copyOf(prefixMaxRegions, capacity);
    }
}
