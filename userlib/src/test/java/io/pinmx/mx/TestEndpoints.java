package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.awaitility.Awaitility.await;

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

    /**
     * Connects {@code from} to {@code to} for caller-driven endpoints: {@code to} answers the connect only while
     * this thread makes its progress.
     */
    static Partner connectPolling(final Endpoint from, final Endpoint to, final int applicationKey, final Duration timeout)
    {
        final CompletableFuture<Partner> connected =
            CompletableFuture.supplyAsync(() -> from.connect(to.address(), applicationKey, timeout));
        final Status ignored = new Status();
        await().atMost(timeout).until(() ->
        {
            to.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, ignored);
            return connected.isDone();
        });
        return connected.join();
    }
}
