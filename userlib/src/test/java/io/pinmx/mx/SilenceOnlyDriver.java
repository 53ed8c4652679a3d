package io.pinmx.mx;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.user.UserDriver;

import java.lang.foreign.MemorySegment;

/**
 * The real user driver with its liveness answers left out (the contract's default: nothing known beyond silence),
 * as a provider without liveness probes behaves: how the library treats a partner that only silence can judge,
 * tested on one host where the user driver itself would know the partner's process.
 */
final class SilenceOnlyDriver implements PinDriver
{
    private final UserDriver driver = new UserDriver();

    @Override
    public DriverInfo info()
    {
        return driver.info();
    }

    @Override
    public DriverEndpoint open(final EndpointConfig config)
    {
        return new SilenceOnlyEndpoint(driver.open(config));
    }

    /** Every operation but {@link DriverEndpoint#checkLiveness} goes to the user driver's endpoint. */
    private record SilenceOnlyEndpoint(DriverEndpoint endpoint) implements DriverEndpoint
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
        public boolean sendRun(
            final int peerIndex, final MemorySegment[] headers, final MemorySegment[] payloads, final int frames)
        {
            return endpoint.sendRun(peerIndex, headers, payloads, frames);
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
    }
}
