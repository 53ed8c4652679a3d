package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data server is an agent on a thread of its own named after its role; closing it ends that thread within an
 * idle slice, with its posted receive cancelled on the way out (the endpoint then closes with no receive of the
 * server's left), and a second close does nothing.
 */
class DataServerTest
{
    private static final int RANK = 7;
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @Test
    void runsOnAThreadNamedAfterItsRoleAndCloseEndsIt()
    {
        try (Endpoint endpoint = Endpoint.open(new UserDriver(), EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder().boardIndex(0).endpointIndex(40).build())
            .build()))
        {
            final DataServer server = new DataServer(endpoint, null, null, null, RANK, RANK + 1);
            assertEquals("pinmx-rma-data-server-" + RANK, server.roleName());
            final Thread thread = await().atMost(DEADLINE).until(() -> serverThread(server.roleName()),
                t -> null != t && t.isAlive());
            assertTrue(thread.isDaemon(), "a server thread keeps no JVM alive");

            final long startNs = System.nanoTime();
            server.close();
            assertFalse(thread.isAlive(), "close returned before the server's thread ended");
            assertTrue(System.nanoTime() - startNs < DEADLINE.toNanos(), "close took " +
                (System.nanoTime() - startNs) / 1_000_000 + " ms");
            server.close();
            assertEquals(0, server.requestsServed());
        }
    }

    private static Thread serverThread(final String name)
    {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> name.equals(t.getName())).findFirst()
            .orElse(null);
    }
}
