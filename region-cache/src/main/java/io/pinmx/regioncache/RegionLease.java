package io.pinmx.regioncache;

/**
 * The caller's hold on a cached region between {@link RegionCache#acquire} and
 * {@link RegionCache#release}. Owned and reused by the caller (e.g. one per in-flight
 * request), so acquiring allocates nothing on a hit. Used by one thread at a time.
 */
public final class RegionLease
{
    RegionCache cache;
    CachedRegion region;
    int regionId;
    long offset;

    /**
     * @return the declared region id to give the driver.
     * @throws IllegalStateException if the lease is not held.
     */
    public int regionId()
    {
        checkHeld();
        return regionId;
    }

    /**
     * @return byte offset of the requested segment inside the region: non-zero only when a
     *         single segment was found inside a larger cached region.
     * @throws IllegalStateException if the lease is not held.
     */
    public long offset()
    {
        checkHeld();
        return offset;
    }

    /**
     * @return true between a successful acquire and its release.
     */
    public boolean isHeld()
    {
        return null != region;
    }

    void hold(final RegionCache cache, final CachedRegion region, final long offset)
    {
        this.cache = cache;
        this.region = region;
        this.regionId = region.regionId;
        this.offset = offset;
    }

    void clear()
    {
        cache = null;
        region = null;
        regionId = 0;
        offset = 0;
    }

    private void checkHeld()
    {
        if (null == region)
        {
            throw new IllegalStateException("lease is not held: acquire it first (or it was already released)");
        }
    }

    @Override
    public String toString()
    {
        return null == region ?
            "RegionLease{not held}" :
            "RegionLease{regionId=" + regionId + ", offset=" + offset + '}';
    }
}
