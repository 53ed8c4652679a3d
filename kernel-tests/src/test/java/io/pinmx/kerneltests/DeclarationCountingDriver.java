package io.pinmx.kerneltests;

import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.spi.PullSpec;

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
        return new DriverEndpoint()
        {
            @Override
            public EndpointAddress address()
            {
                return endpoint.address();
            }

            @Override
            public DriverInfo info()
            {
                return endpoint.info();
            }

            @Override
            public int acquirePeer(final BoardAddress board)
            {
                return endpoint.acquirePeer(board);
            }

            @Override
            public void retainPeer(final int peerIndex)
            {
                endpoint.retainPeer(peerIndex);
            }

            @Override
            public void releasePeer(final int peerIndex)
            {
                endpoint.releasePeer(peerIndex);
            }

            @Override
            public BoardAddress peer(final int peerIndex)
            {
                return endpoint.peer(peerIndex);
            }

            @Override
            public int declareRegion(final MemorySegment[] segments, final int count, final int accessFlags)
            {
                declarations.incrementAndGet();
                return endpoint.declareRegion(segments, count, accessFlags);
            }

            @Override
            public void destroyRegion(final int regionId)
            {
                endpoint.destroyRegion(regionId);
            }

            @Override
            public boolean send(final int peerIndex, final MemorySegment header, final MemorySegment payload)
            {
                return endpoint.send(peerIndex, header, payload);
            }

            @Override
            public void startPull(final PullSpec spec)
            {
                endpoint.startPull(spec);
            }

            @Override
            public int poll(final EventHandler handler, final int limit)
            {
                return endpoint.poll(handler, limit);
            }

            @Override
            public boolean await(final long timeoutNs)
            {
                return endpoint.await(timeoutNs);
            }

            @Override
            public DriverCounters counters()
            {
                return endpoint.counters();
            }

            @Override
            public void close()
            {
                endpoint.close();
            }
        };
    }
}
