package io.pinmx.pin.select;

import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.kernel.KernelDriverProvider;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverProvider;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The provider choice where no pinmx device is usable: a missing device file, and a file that is not a pinmx
 * device (/dev/null answers PINMX_IOC_INFO with ENOTTY), so these run on every host. The kernel side of the
 * choice (device present, ABI match and mismatch) is tested where /dev/pinmx exists (kernel-tests module).
 */
class DriverSelectorTest
{
    @TempDir
    Path dir;

    @Test
    void withoutTheDeviceAutoChoosesTheUserDriverAndSaysWhy()
    {
        final Path missing = dir.resolve("pinmx");
        final PinDriver driver = DriverSelector.select(null, null, providers(missing));
        assertInstanceOf(UserDriver.class, driver);
        assertTrue(driver.info().chosenBecause().contains("chosen because no " + missing + " on this host"),
            driver.info().chosenBecause());
        assertEquals("user", driver.info().providerName());
    }

    @Test
    void aFileThatIsNotAPinmxDeviceIsRefusedNamingTheErrno()
    {
        final KernelDriver.Probe probe = KernelDriver.probe(Path.of("/dev/null"), PinmxAbi.ABI_VERSION);
        assertEquals(false, probe.usable());
        assertTrue(probe.reason().contains("PINMX_IOC_INFO on /dev/null") && probe.reason().contains("ENOTTY"),
            probe.reason());
        final PinDriver driver = DriverSelector.select("auto", null, providers(Path.of("/dev/null")));
        assertInstanceOf(UserDriver.class, driver);
        assertTrue(driver.info().chosenBecause().contains("ENOTTY"), driver.info().chosenBecause());
    }

    @Test
    void forcingTheUserDriverSaysSo()
    {
        final PinDriver driver = DriverSelector.select("user", "PINMX_DRIVER=user", providers(Path.of("/dev/null")));
        assertInstanceOf(UserDriver.class, driver);
        assertTrue(driver.info().chosenBecause().contains("chosen because forced by PINMX_DRIVER=user"),
            driver.info().chosenBecause());
    }

    @Test
    void forcingTheKernelDriverWhereItCannotRunFailsNamingTheDevice()
    {
        final Path missing = dir.resolve("pinmx");
        final DriverException e = assertThrows(DriverException.class,
            () -> DriverSelector.select("kernel", "-Dpinmx.driver=kernel", providers(missing)));
        assertEquals(DriverError.NO_RESOURCES, e.kind());
        assertTrue(e.getMessage().contains("kernel driver forced by -Dpinmx.driver=kernel cannot run: no " + missing),
            e.getMessage());
    }

    @Test
    void anUnknownChoiceIsRefused()
    {
        final DriverException e = assertThrows(DriverException.class,
            () -> DriverSelector.select("gpu", "PINMX_DRIVER=gpu", providers(Path.of("/dev/null"))));
        assertEquals(DriverError.BAD_ARGUMENT, e.kind());
        assertTrue(e.getMessage().contains("'gpu' (PINMX_DRIVER=gpu): expected kernel, user or auto"), e.getMessage());
    }

    @Test
    void openingAnEndpointOnAMissingDeviceNamesThePathAndTheErrno()
    {
        final Path missing = dir.resolve("pinmx");
        final DriverException e = assertThrows(DriverException.class, () -> new KernelDriver("test").open(
            EndpointConfig.builder().options(KernelDriverOptions.class,
                KernelDriverOptions.defaults().withDevice(missing)).build()));
        assertEquals(2, e.errno());
        assertTrue(e.getMessage().contains("cannot open " + missing + ": ENOENT"), e.getMessage());
    }

    @Test
    void theProvidersOnTheClassPathAreBoth()
    {
        assertEquals(List.of("kernel", "user"), DriverSelector.installed().stream().map(DriverProvider::name).sorted().toList());
    }

    private static List<DriverProvider> providers(final Path device)
    {
        return List.of(new UserDriverProvider(), new KernelDriverProvider(device, PinmxAbi.ABI_VERSION));
    }
}
