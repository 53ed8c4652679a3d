package io.pinmx.regioncache;

/**
 * A consistent snapshot of a {@link RegionCache}'s counters, taken under its lock.
 *
 * @param hits                   acquires served by a cached region.
 * @param misses                 acquires that had to declare a region.
 * @param evictions              idle regions undeclared to stay within capacity or to make room in the driver.
 * @param tableFullEvictions     of those, the ones undeclared because the driver had no room for a declaration.
 * @param invalidations          regions dropped by {@code invalidate}, {@code clear} or {@code close}.
 * @param overCapacityAdmissions regions admitted while over capacity because every cached region
 *                               was in use, or because the region alone exceeds the byte capacity.
 * @param declaredRegions        regions currently declared (cached, or dropped but still in use).
 * @param declaredBytes          sum of the segment lengths of the declared regions.
 * @param inUseRegions           declared regions with at least one held lease.
 */
public record RegionCacheStatistics(
    long hits,
    long misses,
    long evictions,
    long tableFullEvictions,
    long invalidations,
    long overCapacityAdmissions,
    int declaredRegions,
    long declaredBytes,
    int inUseRegions)
{
}
