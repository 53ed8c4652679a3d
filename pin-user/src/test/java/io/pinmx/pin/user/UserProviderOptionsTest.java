package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptionKeys;
import io.pinmx.pin.spi.ProviderOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The user driver reads its options by key over its typed ones, and refuses a key it does not know naming it. */
class UserProviderOptionsTest
{
    @TempDir
    Path shm;

    @Test
    void keysOverrideTheTypedOptionsAndTheEndpointReportsWhatItRunsWith()
    {
        final EndpointConfig config = EndpointConfig.builder()
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withFramePayloadBytes(4096).withMaxRegions(64))
            .option(ProviderOptionKeys.USER_SHM_DIRECTORY, shm)
            .option(ProviderOptionKeys.USER_MAX_REGIONS, 32)
            .option(ProviderOptionKeys.USER_PROGRESS_THREAD, false)
            .option(ProviderOptionKeys.USER_PUBLISH_COUNTERS, false)
            .option(ProviderOptionKeys.KERNEL_INTERFACE, "eth9")
            .build();
        final UserDriverOptions resolved = UserProviderOptions.resolve(config);
        assertEquals(4096, resolved.framePayloadBytes());
        assertEquals(32, resolved.maxRegions());
        assertEquals(shm, resolved.shmDirectory());
        assertNull(resolved.countersFile());
        try (DriverEndpoint endpoint = new UserDriver("test").open(config))
        {
            final ProviderOptions running = endpoint.providerOptions();
            assertEquals(Optional.of(4096), running.get(ProviderOptionKeys.USER_FRAME_PAYLOAD_BYTES, Integer.class));
            assertEquals(Optional.of(32), running.get(ProviderOptionKeys.USER_MAX_REGIONS, Integer.class));
            assertEquals(Optional.of(false), running.get(ProviderOptionKeys.USER_PUBLISH_COUNTERS, Boolean.class));
            assertEquals(UserProviderOptions.KEYS.size() - 1, running.keysOf("user").size(), "all but countersFile");
        }
    }

    @Test
    void whatAnEndpointRunsWithReadsBackAsTheSameOptions()
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withShmDirectory(shm).withLoss(0.25, 0.5, 7)
            .withPullResend(5_000_000L, 3).withSharedPullMinBytes(0);
        final EndpointConfig.Builder builder = EndpointConfig.builder().options(UserProviderOptions.describe(options));
        assertEquals(options, UserProviderOptions.resolve(builder.build()));
    }

    @Test
    void anUnknownKeyIsRefusedNamingItAndNoEndpointIsOpened() throws IOException
    {
        final EndpointConfig config = EndpointConfig.builder()
            .option(ProviderOptionKeys.USER_SHM_DIRECTORY, shm)
            .option("user.progressThreads", false)
            .build();
        final DriverException e = assertThrows(DriverException.class, () -> new UserDriver("test").open(config));
        assertEquals(DriverError.BAD_ARGUMENT, e.kind());
        assertTrue(e.getMessage().startsWith("unknown provider option 'user.progressThreads' for the user driver"),
            e.getMessage());
        try (var files = Files.list(shm))
        {
            assertEquals(0, files.count(), "no endpoint file");
        }
    }

    @Test
    void aValueOfAnotherTypeIsRefusedNamingTheKey()
    {
        final EndpointConfig config = EndpointConfig.builder()
            .option(ProviderOptionKeys.USER_SHM_DIRECTORY, shm)
            .option(ProviderOptionKeys.USER_BASE_PORT, 7000L)
            .build();
        final DriverException e = assertThrows(DriverException.class, () -> new UserDriver("test").open(config));
        assertEquals(DriverError.BAD_ARGUMENT, e.kind());
        assertEquals("provider option 'user.basePort': expected Integer, got Long 7000", e.getMessage());
    }
}
