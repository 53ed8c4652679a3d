package io.pinmx.rma;

import io.pinmx.mx.ExposedRegion;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

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

    /**
     * Holds back (or lets in again) the driver's writes into this rank's own slice: once a hold returns none lands
     * there until it is let in; those sent meanwhile wait at their origins.
     *
     * @throws IllegalStateException if the driver cannot hold them back, naming the variable that turns them off.
     */
    void holdOwn(final boolean hold, final String allocation)
    {
        try
        {
            own.holdWrites(hold);
        }
        catch (final DriverException ex)
        {
            if (DriverError.UNSUPPORTED != ex.kind())
            {
                throw ex;
            }
            throw new IllegalStateException("access epoch on " + allocation + ": this rank's slice takes puts, " +
                "accumulates and read-modify-writes from its driver, which cannot hold them back (" + ex.getMessage() +
                "); unset " + RmaOptions.DRIVER_WRITES_VARIABLE + " (auto) or set it to 0", ex);
        }
    }

    void close()
    {
        if (null != own)
        {
            own.close();
        }
    }
}
