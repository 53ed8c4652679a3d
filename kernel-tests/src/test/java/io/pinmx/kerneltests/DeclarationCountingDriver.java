package io.pinmx.kerneltests;

import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ForwardingDriverEndpoint;
import io.pinmx.pin.spi.PinDriver;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real kernel provider, with every region declaration counted on the way through: how a test sees whether
 * the library's region cache declared a buffer again. Everything else is passed on unchanged.
 */
final class DeclarationCountingDriver implements PinDriver
{
    private final KernelDriver driver;
    private final AtomicInteger declarations = new AtomicInteger();
    private volatile KernelEndpoint lastOpened;

    DeclarationCountingDriver(final KernelDriver driver)
    {
        this.driver = driver;
    }

    int declarations()
    {
        return declarations.get();
    }

    /** @return the kernel endpoint most recently opened through this driver. */
    KernelEndpoint lastOpened()
    {
        return lastOpened;
    }

    @Override
    public DriverInfo info()
    {
        return driver.info();
    }

    @Override
    public DriverEndpoint open(final EndpointConfig config)
    {
        final KernelEndpoint endpoint = (KernelEndpoint)driver.open(config);
        lastOpened = endpoint;
        return new ForwardingDriverEndpoint(endpoint)
        {
            @Override
            public int declareRegion(final MemorySegment[] segments, final int count, final int accessFlags)
            {
                declarations.incrementAndGet();
                return super.declareRegion(segments, count, accessFlags);
            }
        };
    }
}
