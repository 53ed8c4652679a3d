package io.pinmx.pin.kernel;

import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.ProviderOptionKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The kernel provider reads its options by key over its typed ones; a bad key is refused before the device is
 * touched, so these run on every host.
 */
class KernelProviderOptionsTest
{
    @TempDir
    Path dir;

    @Test
    void keysOverrideTheTypedOptionsPinModesByName()
    {
        final EndpointConfig config = EndpointConfig.builder()
            .options(KernelDriverOptions.class, KernelDriverOptions.defaults().withInterface("eth1"))
            .option(ProviderOptionKeys.KERNEL_PIN_MODE, "overlapped")
            .option(ProviderOptionKeys.KERNEL_PULLS_ON_WIRE, true)
            .option(ProviderOptionKeys.USER_SAME_HOST, false)
            .build();
        assertEquals(KernelDriverOptions.defaults().withInterface("eth1").withPinMode(PinmxAbi.PIN_OVERLAPPED)
            .withPullsOnWire(true), KernelProviderOptions.resolve(config));
        for (final int mode : new int[] {-1, PinmxAbi.PIN_DECLARE, PinmxAbi.PIN_ON_DEMAND, PinmxAbi.PIN_OVERLAPPED})
        {
            final KernelDriverOptions options = KernelDriverOptions.defaults().withPinMode(mode).withDevice(dir);
            assertEquals(options, KernelProviderOptions.resolve(
                EndpointConfig.builder().options(KernelProviderOptions.describe(options)).build()));
        }
    }

    @Test
    void anUnknownKeyIsRefusedNamingItBeforeTheDeviceIsOpened()
    {
        final EndpointConfig config = EndpointConfig.builder()
            .option(ProviderOptionKeys.KERNEL_DEVICE, dir.resolve("pinmx"))
            .option("kernel.iface", "lo")
            .build();
        final DriverException e = assertThrows(DriverException.class, () -> new KernelDriver("test").open(config));
        assertEquals(DriverError.BAD_ARGUMENT, e.kind());
        assertEquals("unknown provider option 'kernel.iface' for the kernel driver; it knows " +
            "[kernel.abiVersion, kernel.attach, kernel.device, kernel.interface, kernel.pinMode, kernel.pullsOnWire]",
            e.getMessage());
    }

    @Test
    void anUnknownPinModeOrAValueOfAnotherTypeIsRefusedNamingTheKey()
    {
        final DriverException mode = assertThrows(DriverException.class, () -> new KernelDriver("test").open(
            EndpointConfig.builder().option(ProviderOptionKeys.KERNEL_PIN_MODE, "sometimes").build()));
        assertEquals(DriverError.BAD_ARGUMENT, mode.kind());
        assertEquals("provider option 'kernel.pinMode': 'sometimes' is not one of " +
            "[default, declare, on-demand, overlapped]", mode.getMessage());
        final DriverException type = assertThrows(DriverException.class, () -> new KernelDriver("test").open(
            EndpointConfig.builder().option(ProviderOptionKeys.KERNEL_PIN_MODE, PinmxAbi.PIN_DECLARE).build()));
        assertEquals("provider option 'kernel.pinMode': expected String, got Integer 0", type.getMessage());
    }
}
