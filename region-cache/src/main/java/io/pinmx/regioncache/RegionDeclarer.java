package io.pinmx.regioncache;

/**
 * The cache's boundary to the driver: declares a vector of segments as one region and
 * undeclares it by id. The endpoint library adapts it to the driver contract.
 * <p>
 * Both methods may be called concurrently from several threads, never while the cache
 * holds its lock. The arrays passed to {@link #declare} belong to the cache and must not
 * be modified or retained.
 */
public interface RegionDeclarer
{
    /**
     * Declares a region of {@code count} segments.
     *
     * @param addresses start address of each segment, in order.
     * @param lengths   byte length of each segment, in order, each positive.
     * @param count     number of segments used in the arrays.
     * @return the region id; the driver must not return an id again until it has been undeclared.
     * @throws RegionTableFullException when the driver has no room for another region: the cache undeclares its
     *                                  least recently used idle region and calls again.
     * @throws RuntimeException         whatever else the driver throws; the cache then caches nothing and rethrows it
     *                                  unchanged.
     */
    int declare(long[] addresses, long[] lengths, int count);

    /**
     * Undeclares a region the cache no longer holds. Called exactly once per declared id.
     *
     * @param regionId an id returned by {@link #declare}.
     */
    void undeclare(int regionId);
}
