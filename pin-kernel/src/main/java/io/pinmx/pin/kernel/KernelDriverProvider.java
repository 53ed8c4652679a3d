package io.pinmx.pin.kernel;

import io.pinmx.pin.spi.DriverProvider;
import io.pinmx.pin.spi.PinDriver;

import java.nio.file.Path;

/**
 * The kernel binding as a {@link DriverProvider} service: it can run where its device exists and the module
 * there speaks this library's ABI version ({@link KernelDriver#probe}).
 */
public final class KernelDriverProvider implements DriverProvider
{
    /** Above the user driver's: chosen automatically wherever pinmx.ko can run it. */
    public static final int PREFERENCE = 10;

    private final Path device;
    private final int abiVersion;

    /** Registered for ServiceLoader: the default device and this library's ABI version. */
    public KernelDriverProvider()
    {
        this(KernelDriverOptions.DEFAULT_DEVICE, PinmxAbi.ABI_VERSION);
    }

    /**
     * @param device     the pinmx device file to probe.
     * @param abiVersion the ABI version to expect (tests give another to see a mismatch refused).
     */
    public KernelDriverProvider(final Path device, final int abiVersion)
    {
        this.device = device;
        this.abiVersion = abiVersion;
    }

    @Override
    public String name()
    {
        return KernelEndpoint.NAME;
    }

    @Override
    public int preference()
    {
        return PREFERENCE;
    }

    @Override
    public Availability probe()
    {
        final KernelDriver.Probe probe = KernelDriver.probe(device, abiVersion);
        return new Availability(probe.usable(), probe.reason());
    }

    /** The ABI version this library speaks, and the module's state: {@code ABI N, pinmx.ko 0.1.0 loaded}. */
    @Override
    public String versionDetails()
    {
        return "ABI " + abiVersion + ", " + KernelModuleStatus.loadState(KernelModuleStatus.SYS_MODULE);
    }

    @Override
    public PinDriver create(final String chosenBecause)
    {
        return new KernelDriver(chosenBecause);
    }
}
