package io.pinmx.pin.spi;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Provider options by key: typed reads, and an unknown key or a value of another type refused naming the key. */
class ProviderOptionsTest
{
    @Test
    void aConfigCarriesOptionsByKeyTheLastValueWinning()
    {
        final EndpointConfig config = EndpointConfig.builder()
            .option(ProviderOptionKeys.USER_PROGRESS_THREAD, true)
            .option(ProviderOptionKeys.USER_PROGRESS_THREAD, false)
            .option(ProviderOptionKeys.USER_BIND_ADDRESS, InetAddress.getLoopbackAddress())
            .option(ProviderOptionKeys.USER_SHM_DIRECTORY, Path.of("/dev/shm"))
            .options(ProviderOptions.none().with(ProviderOptionKeys.KERNEL_INTERFACE, "lo"))
            .build();
        final ProviderOptions options = config.providerOptions();
        assertEquals(Optional.of(false), options.get(ProviderOptionKeys.USER_PROGRESS_THREAD, Boolean.class));
        assertEquals(Optional.of(InetAddress.getLoopbackAddress()),
            options.get(ProviderOptionKeys.USER_BIND_ADDRESS, InetAddress.class));
        assertEquals(Optional.of(Path.of("/dev/shm")), options.get(ProviderOptionKeys.USER_SHM_DIRECTORY, Path.class));
        assertEquals(Optional.empty(), options.get(ProviderOptionKeys.USER_BASE_PORT, Integer.class));
        assertEquals(Set.of(ProviderOptionKeys.USER_PROGRESS_THREAD, ProviderOptionKeys.USER_BIND_ADDRESS,
            ProviderOptionKeys.USER_SHM_DIRECTORY), options.keysOf("user"));
        assertEquals(Set.of(ProviderOptionKeys.KERNEL_INTERFACE), options.keysOf("kernel"));
        assertTrue(config.toString().contains("user.progressThread=false"), config.toString());
    }

    @Test
    void anUnknownKeyIsRefusedNamingItAndTheKnownOnesLeavingOtherProvidersKeysAlone()
    {
        final ProviderOptions options = ProviderOptions.none()
            .with(ProviderOptionKeys.USER_SAME_HOST, false)
            .with("user.progresThread", false)
            .with("kernel.anything", 1);
        final DriverException e = assertThrows(DriverException.class,
            () -> options.refuseUnknown("user", Set.of(ProviderOptionKeys.USER_SAME_HOST)));
        assertEquals(DriverError.BAD_ARGUMENT, e.kind());
        assertEquals("unknown provider option 'user.progresThread' for the user driver; it knows [user.sameHost]",
            e.getMessage());
        ProviderOptions.none().with(ProviderOptionKeys.USER_SAME_HOST, false).with("kernel.anything", 1)
            .refuseUnknown("user", Set.of(ProviderOptionKeys.USER_SAME_HOST));
    }

    @Test
    void aValueOfAnotherTypeIsRefusedNamingTheKeyAndBothTypes()
    {
        final ProviderOptions options = ProviderOptions.none().with(ProviderOptionKeys.USER_BASE_PORT, "7000");
        final DriverException e = assertThrows(DriverException.class,
            () -> options.get(ProviderOptionKeys.USER_BASE_PORT, Integer.class));
        assertEquals(DriverError.BAD_ARGUMENT, e.kind());
        assertEquals("provider option 'user.basePort': expected Integer, got String 7000", e.getMessage());
    }

    @Test
    void aMalformedKeyOrAValueOfNoOptionTypeIsRefusedAndChangesNothing()
    {
        final EndpointConfig.Builder builder = EndpointConfig.builder().option(ProviderOptionKeys.USER_SAME_HOST, true);
        for (final String key : new String[] {"progressThread", ".progressThread", "user.", null})
        {
            final DriverException e = assertThrows(DriverException.class, () -> builder.option(key, true));
            assertEquals(DriverError.BAD_ARGUMENT, e.kind());
            assertTrue(e.getMessage().startsWith("provider option '" + key + "': expected PROVIDER.OPTION"),
                e.getMessage());
        }
        final DriverException e = assertThrows(DriverException.class,
            () -> builder.option(ProviderOptionKeys.USER_LOSS_SEED, new StringBuilder("1")));
        assertTrue(e.getMessage().startsWith("provider option 'user.lossSeed': value 1 is not a Boolean"),
            e.getMessage());
        assertThrows(DriverException.class, () -> builder.option(ProviderOptionKeys.USER_LOSS_SEED, null));
        assertEquals(Set.of(ProviderOptionKeys.USER_SAME_HOST), builder.build().providerOptions().keysOf("user"));
    }
}
