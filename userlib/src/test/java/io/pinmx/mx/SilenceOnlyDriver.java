package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ForwardingDriverEndpoint;
import io.pinmx.pin.spi.PeerLiveness;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.user.UserDriver;

/**
 * The real user driver with its liveness answers left out (nothing known beyond silence), as a provider without
 * liveness probes behaves: how the library treats a partner that only silence can judge, tested on one host where
 * the user driver itself would know the partner's process.
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
        return new ForwardingDriverEndpoint(driver.open(config))
        {
            @Override
            public PeerLiveness checkLiveness(
                final int peerIndex, final int endpointIndex, final int sessionId, final PeerLiveness out)
            {
                return out.unknown(0);
            }
        };
    }
}
