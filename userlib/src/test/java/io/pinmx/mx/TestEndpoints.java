package io.pinmx.mx;

import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;

/**
 * Opens endpoints over the real user-space driver on loopback, each with a kernel-chosen port.
 */
final class TestEndpoints
{
    private TestEndpoints()
    {
    }

    static EndpointOptions.Builder options(final int endpointIndex, final int applicationKey, final UserDriverOptions driverOptions)
    {
        return EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder()
                .boardIndex(0)
                .endpointIndex(endpointIndex)
                .options(UserDriverOptions.class, driverOptions)
                .build())
            .applicationKey(applicationKey);
    }

    static Endpoint open(final EndpointOptions options)
    {
        return Endpoint.open(new UserDriver(), options);
    }
}
