package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

/**
 * Native memory this endpoint declared to its driver once ({@link EndpointRegions#expose}) so that partners may read it
 * with {@link EndpointRegions#iget} without this process doing anything: the driver serves their pulls itself (the kernel
 * module in softirq, the user driver on its progress thread). Give partners {@link #id()}; {@link #close()}
 * undeclares it, and reads still running on it then fail at their origin.
 */
public final class ExposedRegion implements AutoCloseable
{
    private final DriverEndpoint driver;
    private final int id;
    private final long byteSize;
    private final long key;
    private boolean closed;

    ExposedRegion(final DriverEndpoint driver, final int id, final long byteSize, final long key)
    {
        this.driver = driver;
        this.id = id;
        this.byteSize = byteSize;
        this.key = key;
    }

    /**
     * @return for a region exposed for writes ({@link EndpointRegions#exposeForWrites}), the key a partner's
     *         {@link RemoteWrites#iput} and {@link RemoteWrites#iatomic} must carry; 0 for one exposed for reads only.
     */
    public long key()
    {
        return key;
    }

    /**
     * @return the driver's region id, what a partner's {@link EndpointRegions#iget} names.
     */
    public int id()
    {
        return id;
    }

    public long byteSize()
    {
        return byteSize;
    }

    /**
     * For a region exposed for writes: holds the partners' puts and atomics back ({@code true}), or lets them in
     * again ({@code false}). Once a hold returns none lands in the region until it is let in (those sent meanwhile
     * wait at their origin and land then), so this process may load and store it as its own; reads go on.
     *
     * @throws IllegalStateException if the region is closed.
     * @throws io.pinmx.pin.spi.DriverException {@link io.pinmx.pin.spi.DriverError#UNSUPPORTED} naming the driver
     *                                  when it cannot hold writes back (or the region takes none).
     */
    public void holdWrites(final boolean hold)
    {
        if (closed)
        {
            throw new IllegalStateException("holdWrites on " + this);
        }
        driver.holdRemoteWrites(id, hold);
    }

    /**
     * Undeclares the region. Idempotent; after the endpoint's close (which released every region) it does nothing.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            driver.destroyRegion(id);
        }
        catch (final DriverException ex)
        {
            if (DriverError.ENDPOINT_CLOSED != ex.kind())
            {
                throw ex;
            }
        }
    }

    @Override
    public String toString()
    {
        return "ExposedRegion{" + id + ", " + byteSize + " bytes" + (closed ? ", closed" : "") + '}';
    }
}
