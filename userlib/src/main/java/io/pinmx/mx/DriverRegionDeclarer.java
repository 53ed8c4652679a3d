package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.regioncache.RegionDeclarer;
import io.pinmx.regioncache.RegionTableFullException;

import java.lang.foreign.MemorySegment;

/**
 * Adapts the region cache's declare/undeclare to the driver. Regions are declared for both
 * directions because one cached region may serve sends (pulled from) and receives (pulled into).
 * The driver's "no room" (NO_RESOURCES) becomes the cache's {@link RegionTableFullException}, on which it makes room.
 */
final class DriverRegionDeclarer implements RegionDeclarer
{
    private final DriverEndpoint driver;

    DriverRegionDeclarer(final DriverEndpoint driver)
    {
        this.driver = driver;
    }

    /**
     * The addresses come from live segments the cache was given, so re-sizing raw addresses is safe here.
     */
    @SuppressWarnings("restricted")
    public int declare(final long[] addresses, final long[] lengths, final int count)
    {
        final MemorySegment[] segments = new MemorySegment[count];
        for (int i = 0; i < count; i++)
        {
            segments[i] = MemorySegment.ofAddress(addresses[i]).reinterpret(lengths[i]);
        }
        try
        {
            return driver.declareRegion(segments, count, RegionAccess.READ_WRITE);
        }
        catch (final DriverException ex)
        {
            // Both providers say NO_RESOURCES when the endpoint's table is full (or, in the module, out of memory):
            // the cache undeclares an idle region and declares again.
            if (DriverError.NO_RESOURCES == ex.kind())
            {
                throw new RegionTableFullException(ex.getMessage(), ex);
            }
            throw ex;
        }
    }

    public void undeclare(final int regionId)
    {
        try
        {
            driver.destroyRegion(regionId);
        }
        catch (final DriverException ex)
        {
            // A closed endpoint's regions went with it: leases ended by its close (reads whose pulls ran until
            // then) have nothing left to undeclare.
            if (DriverError.ENDPOINT_CLOSED != ex.kind())
            {
                throw ex;
            }
        }
    }
}
