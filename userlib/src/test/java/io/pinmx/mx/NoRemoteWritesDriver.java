package io.pinmx.mx;

import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ForwardingDriverEndpoint;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RemoteRegion;
import io.pinmx.pin.user.UserDriver;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * The real user driver with its one-sided writes and atomics left out, as a provider without
 * {@link DriverFeature#REMOTE_WRITE} and {@link DriverFeature#REMOTE_ATOMIC} behaves: it does not list them and
 * refuses their operations with the contract's refusal, so the library's handling of such a provider is tested
 * where the real user driver has them.
 */
final class NoRemoteWritesDriver implements PinDriver
{
    private final UserDriver driver = new UserDriver();

    @Override
    public DriverInfo info()
    {
        return withoutRemoteWrites(driver.info());
    }

    @Override
    public DriverEndpoint open(final EndpointConfig config)
    {
        final DriverEndpoint endpoint = driver.open(config);
        final DriverInfo info = withoutRemoteWrites(endpoint.info());
        return new ForwardingDriverEndpoint(endpoint)
        {
            @Override
            public DriverInfo info()
            {
                return info;
            }

            @Override
            public RemoteRegion declareRemoteRegion(final MemorySegment[] segments, final int count)
            {
                throw DriverEndpoint.unsupported(this, DriverFeature.REMOTE_WRITE, "declareRemoteRegion");
            }

            @Override
            public void startPut(final PutSpec spec)
            {
                throw DriverEndpoint.unsupported(this, DriverFeature.REMOTE_WRITE, "startPut");
            }

            @Override
            public void startAtomic(final AtomicSpec spec)
            {
                throw DriverEndpoint.unsupported(this, DriverFeature.REMOTE_ATOMIC, "startAtomic");
            }
        };
    }

    private static DriverInfo withoutRemoteWrites(final DriverInfo info)
    {
        final Set<DriverFeature> features = EnumSet.copyOf(info.features());
        features.remove(DriverFeature.REMOTE_WRITE);
        features.remove(DriverFeature.REMOTE_ATOMIC);
        return new DriverInfo(info.providerName(), info.chosenBecause(), info.pinsMemory(), info.maxSegments(),
            info.maxRegionsPerEndpoint(), info.maxEndpointsPerBoard(), info.mediumFragPayloadBytes(),
            info.pullReplyPayloadBytes(), features);
    }
}
