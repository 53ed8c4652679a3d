package io.pinmx.pin.select;

import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.user.UserDriver;

import java.nio.file.Path;

/**
 * Picks the provider: the kernel one when /dev/pinmx exists and its module speaks this library's ABI version,
 * the user-space one otherwise. The system property {@value #PROPERTY} or else the environment variable
 * {@value #VARIABLE} ({@code kernel}, {@code user} or {@code auto}, the default) forces a choice; forcing the
 * kernel provider where it cannot run fails naming why rather than falling back. The chosen provider's
 * {@code info().chosenBecause()} says which rule chose it.
 */
public final class DriverSelector
{
    /** System property that forces a provider. */
    public static final String PROPERTY = "pinmx.driver";
    /** Environment variable that forces a provider when the property is absent. */
    public static final String VARIABLE = "PINMX_DRIVER";

    private DriverSelector()
    {
    }

    /**
     * @return the provider for this process: forced by {@value #PROPERTY} / {@value #VARIABLE}, else by probing
     * /dev/pinmx.
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming an unknown choice, or
     *                         {@link DriverError#NO_RESOURCES} when the kernel provider is forced but cannot run.
     */
    public static PinDriver select()
    {
        final String property = System.getProperty(PROPERTY);
        final String variable = System.getenv(VARIABLE);
        final String forcedBy = null != property ? "-D" + PROPERTY + "=" + property :
            null != variable ? VARIABLE + "=" + variable : null;
        return select(null != property ? property : variable, forcedBy);
    }

    /**
     * @param choice   {@code kernel}, {@code user}, {@code auto} or null (auto).
     * @param forcedBy how the choice was given, for the reason ("PINMX_DRIVER=user"), or null.
     * @return the provider for that choice on /dev/pinmx and this library's ABI version.
     */
    public static PinDriver select(final String choice, final String forcedBy)
    {
        return select(choice, forcedBy, KernelDriverOptions.DEFAULT_DEVICE, PinmxAbi.ABI_VERSION);
    }

    /**
     * @param choice     {@code kernel}, {@code user}, {@code auto} or null (auto).
     * @param forcedBy   how the choice was given, for the reason ("-Dpinmx.driver=user"), or null.
     * @param device     the pinmx device file.
     * @param abiVersion the ABI version this library speaks (tests give another to simulate a mismatch).
     * @return the provider, with why it was chosen.
     */
    public static PinDriver select(final String choice, final String forcedBy, final Path device, final int abiVersion)
    {
        final String normalised = null == choice || choice.isBlank() ? "auto" : choice.trim();
        return switch (normalised)
        {
            case "user" -> new UserDriver("forced by " + forcedBy);
            case "kernel" ->
            {
                final KernelDriver.Probe probe = KernelDriver.probe(device, abiVersion);
                if (!probe.usable())
                {
                    throw new DriverException(DriverError.NO_RESOURCES, "kernel driver forced by " + forcedBy +
                        " cannot run: " + probe.reason());
                }
                yield new KernelDriver("forced by " + forcedBy + "; " + probe.reason());
            }
            case "auto" ->
            {
                final KernelDriver.Probe probe = KernelDriver.probe(device, abiVersion);
                yield probe.usable() ? new KernelDriver(probe.reason()) : new UserDriver(probe.reason());
            }
            default -> throw new DriverException(DriverError.BAD_ARGUMENT, "driver choice '" + choice + "'" +
                (null == forcedBy ? "" : " (" + forcedBy + ")") + ": expected kernel, user or auto");
        };
    }
}
