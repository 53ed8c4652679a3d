package io.pinmx.bench;

import io.pinmx.pin.select.DriverSelector;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptionKeys;
import io.pinmx.pin.spi.ProviderOptions;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The environment's say in the pinmx transport's endpoint options. */
class PinmxTuningTest
{
    private static final String VARIABLE = PinmxTransport.SHARED_PULL_MIN_BYTES_VARIABLE;

    @Test
    void sharedPullsKeepTheDriversDefaultUnlessTheEnvironmentSetsThem()
    {
        final PinmxTransport.Tuning defaults = PinmxTransport.Tuning.defaults();
        assertEquals(Optional.empty(), sharedPullMinBytes(defaults));
        assertEquals(defaults, defaults.withEnvironment(Map.of()));
        assertEquals(defaults, defaults.withEnvironment(Map.of(VARIABLE, "")));
        assertEquals(Optional.of(0L), sharedPullMinBytes(defaults.withEnvironment(Map.of(VARIABLE, "0"))));
        assertEquals(Optional.of(1L << 20), sharedPullMinBytes(defaults.withEnvironment(Map.of(VARIABLE, "1048576"))));
        assertEquals(defaults.regionCacheMaxBytes(),
            defaults.withEnvironment(Map.of(VARIABLE, "0")).regionCacheMaxBytes());
    }

    /** The header's line: the driver in use and what matters of it, the same text in every run. */
    @Test
    void theDriverSummaryNamesTheDriverInUseAndItsFewTunings()
    {
        final EndpointConfig.Builder builder = EndpointConfig.builder();
        PinmxTransport.Tuning.defaults().withEnvironment(Map.of(VARIABLE, "4096")).driverConfig(builder);
        try (DriverEndpoint endpoint = DriverSelector.select("user", "PinmxTuningTest").open(builder.build()))
        {
            final String user = PinmxTransport.driverSummary(endpoint.info().providerName(), endpoint.providerOptions());
            assertTrue(user.matches("user driver \\(UDP( on [0-9.:a-f]+)? and same-host shared memory, frame " +
                "payloads [0-9]+ B, shared pulls from 4096 B, no progress thread of its own\\)"), user);
            assertEquals(user, PinmxTransport.driverSummary(endpoint.info().providerName(), endpoint.providerOptions()));
        }
        final String kernel = PinmxTransport.driverSummary("kernel", ProviderOptions.none()
            .with(ProviderOptionKeys.KERNEL_INTERFACE, "lo").with(ProviderOptionKeys.KERNEL_PIN_MODE, "on-demand")
            .with(ProviderOptionKeys.KERNEL_PULLS_ON_WIRE, true));
        assertEquals("kernel driver (pinmx.ko on lo, pin mode on-demand, pulls as frames)", kernel);
    }

    @Test
    void aValueThatIsNotAByteCountIsRefusedNamingTheVariable()
    {
        for (final String bad : new String[] {"-1", "lots", "1.5", " 0"})
        {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PinmxTransport.Tuning.defaults().withEnvironment(Map.of(VARIABLE, bad)));
            assertTrue(e.getMessage().startsWith(VARIABLE + "=" + bad + ":"), e.getMessage());
        }
    }

    private static Optional<Long> sharedPullMinBytes(final PinmxTransport.Tuning tuning)
    {
        return tuning.driverOptions().get(ProviderOptionKeys.USER_SHARED_PULL_MIN_BYTES, Long.class);
    }
}
