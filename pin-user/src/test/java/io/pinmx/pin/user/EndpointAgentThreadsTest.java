package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The user driver's own threads are agents on pin-contract's ProgressRunner: a progress thread named after the
 * endpoint, or without one a responder thread (unless turned off too), each a daemon that close ends before it
 * returns; with neither, the endpoint has no thread of its own.
 */
class EndpointAgentThreadsTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final OpenedEndpoints resources = new OpenedEndpoints();

    @AfterEach
    void closeAll()
    {
        resources.close();
    }

    private static UserDriverOptions options()
    {
        return UserDriverOptions.defaults().withCountersFile(null);
    }

    @Test
    void theProgressThreadIsADaemonThatCloseEnds()
    {
        final DriverEndpoint endpoint = resources.open(options());
        assertThreadEndsWithClose(endpoint, "pinmx-progress-" + endpoint.address());
    }

    @Test
    void withoutAProgressThreadTheResponderIsADaemonThatCloseEnds()
    {
        final DriverEndpoint endpoint = resources.open(options().withProgressThread(false));
        assertNull(thread("pinmx-progress-" + endpoint.address()), "no progress thread");
        assertThreadEndsWithClose(endpoint, "pinmx-responder-" + endpoint.address());
    }

    @Test
    void withNeitherTheEndpointHasNoThreadOfItsOwn()
    {
        final DriverEndpoint endpoint = resources.open(options().withProgressThread(false).withResponder(false));
        assertNull(thread("pinmx-progress-" + endpoint.address()));
        assertNull(thread("pinmx-responder-" + endpoint.address()));
    }

    private static void assertThreadEndsWithClose(final DriverEndpoint endpoint, final String name)
    {
        final Thread thread = await().atMost(TIMEOUT).until(() -> thread(name), t -> null != t && t.isAlive());
        assertTrue(thread.isDaemon(), name + " keeps no JVM alive");
        endpoint.close();
        assertFalse(thread.isAlive(), "close returned before " + name + " ended");
    }

    private static Thread thread(final String name)
    {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> name.equals(t.getName()) && t.isAlive())
            .findFirst().orElse(null);
    }
}
