package io.pinmx.rma;

import io.pinmx.mx.ExposedRegion;

/**
 * One allocation's slices as exposed for one-sided writes and atomics ({@link io.pinmx.mx.EndpointRegions#exposeForWrites}):
 * every rank's region id and key, learnt in the allocation's collective, and this rank's own exposure, closed at the
 * free. A rank whose driver lacks the capability (the user driver), or whose slice is empty, has
 * {@link Allocator#NO_REGION}: operations on it go to its data server.
 */
final class ExposedWrites
{
    private final int[] regionIds;
    private final long[] keys;
    private final ExposedRegion own;

    ExposedWrites(final int[] regionIds, final long[] keys, final ExposedRegion own)
    {
        this.regionIds = regionIds;
        this.keys = keys;
        this.own = own;
    }

    /** @return whether the rank's slice takes one-sided writes and atomics from its driver. */
    boolean exposed(final int rank)
    {
        return Allocator.NO_REGION != regionIds[rank];
    }

    int regionId(final int rank)
    {
        return regionIds[rank];
    }

    long key(final int rank)
    {
        return keys[rank];
    }

    void close()
    {
        if (null != own)
        {
            own.close();
        }
    }
}
