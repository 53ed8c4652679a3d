package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.regioncache.RegionDeclarer;

import java.lang.foreign.MemorySegment;

/**
 * Adapts the region cache's declare/undeclare to the driver. Regions are declared for both
 * directions because one cached region may serve sends (pulled from) and receives (pulled into).
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
        return driver.declareRegion(segments, count, RegionAccess.READ_WRITE);
    }

    public void undeclare(final int regionId)
    {
        driver.destroyRegion(regionId);
    }
}
