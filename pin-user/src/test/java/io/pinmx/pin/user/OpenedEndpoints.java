package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EndpointConfig;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The user driver endpoints a test opened, closed in reverse order; and the check of a refused driver call. */
final class OpenedEndpoints implements AutoCloseable
{
    private final List<DriverEndpoint> opened = new ArrayList<>();

    /** Endpoint 0 of a board with these options. */
    DriverEndpoint open(final UserDriverOptions options)
    {
        return add(new UserDriver("test").open(EndpointConfig.builder()
            .endpointIndex(0).options(UserDriverOptions.class, options).build()));
    }

    DriverEndpoint add(final DriverEndpoint endpoint)
    {
        opened.add(endpoint);
        return endpoint;
    }

    @Override
    public void close()
    {
        for (int i = opened.size() - 1; i >= 0; i--)
        {
            opened.get(i).close();
        }
    }

    /** {@code call} throws a {@link DriverException} of {@code kind} whose message holds {@code messagePart}. */
    static void expect(final DriverError kind, final String messagePart, final Executable call)
    {
        final DriverException e = assertThrows(DriverException.class, call);
        assertEquals(kind, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains(messagePart), "'" + e.getMessage() + "' should contain '" + messagePart + "'");
    }
}
