package io.pinmx.bench;

import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.Test;

import java.util.Map;

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
        assertEquals(UserDriverOptions.DEFAULT_SHARED_PULL_MIN_BYTES, defaults.sharedPullMinBytes());
        assertEquals(defaults, defaults.withEnvironment(Map.of()));
        assertEquals(defaults, defaults.withEnvironment(Map.of(VARIABLE, "")));
        assertEquals(0, defaults.withEnvironment(Map.of(VARIABLE, "0")).sharedPullMinBytes());
        assertEquals(1 << 20, defaults.withEnvironment(Map.of(VARIABLE, "1048576")).sharedPullMinBytes());
        assertEquals(defaults.regionCacheMaxBytes(),
            defaults.withEnvironment(Map.of(VARIABLE, "0")).regionCacheMaxBytes());
    }

    /** The header's line: the driver in use and what matters of it, the same text in every run. */
    @Test
    void theDriverSummaryNamesTheDriverInUseAndItsFewTunings()
    {
        final EndpointConfig.Builder builder = EndpointConfig.builder();
        PinmxTransport.Tuning.defaults().withEnvironment(Map.of(VARIABLE, "4096")).driverConfig(builder);
        final EndpointConfig config = builder.build();
        final String user = PinmxTransport.driverSummary(false, config);
        assertTrue(user.matches("user driver \\(UDP( on [0-9.:a-f]+)? and same-host shared memory, frame payloads [0-9]+ B, shared " +
            "pulls from 4096 B, no progress thread of its own\\)"), user);
        assertEquals(user, PinmxTransport.driverSummary(false, builder.build()));
        final String kernel = PinmxTransport.driverSummary(true, config);
        assertTrue(kernel.startsWith("kernel driver (pinmx.ko on lo, pin mode "), kernel);
        assertTrue(!user.contains("EndpointConfig") && !kernel.contains("Kernel") && !user.contains("User"), user);
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
}
