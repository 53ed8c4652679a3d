package io.pinmx.regioncache;

/**
 * The cached regions no lease holds, most recently released first, linked through the regions themselves so that
 * taking one out on a hit and evicting the least recently used are O(1) and allocation-free. Not thread-safe: its
 * {@link RegionCache} calls it under its lock.
 */
final class IdleRegions
{
    /** Most recently released idle region. */
    private CachedRegion head;
    /** Least recently released idle region: the next to evict. */
    private CachedRegion tail;

    /** The region to evict first, or null when every region is in use. */
    CachedRegion leastRecent()
    {
        return tail;
    }

    /** Links a region that has just become idle as the most recent. */
    void pushMostRecent(final CachedRegion region)
    {
        region.idlePrevious = null;
        region.idleNext = head;
        if (null == head)
        {
            tail = region;
        }
        else
        {
            head.idlePrevious = region;
        }
        head = region;
        region.idleLinked = true;
    }

    /** Unlinks a region if it is idle; a region in use is left as it is. */
    void remove(final CachedRegion region)
    {
        if (!region.idleLinked)
        {
            return;
        }
        if (null == region.idlePrevious)
        {
            head = region.idleNext;
        }
        else
        {
            region.idlePrevious.idleNext = region.idleNext;
        }
        if (null == region.idleNext)
        {
            tail = region.idlePrevious;
        }
        else
        {
            region.idleNext.idlePrevious = region.idlePrevious;
        }
        region.idlePrevious = null;
        region.idleNext = null;
        region.idleLinked = false;
    }
}
