package io.pinmx.pin.user;

import io.pinmx.pin.spi.DriverProvider;
import io.pinmx.pin.spi.PinDriver;

/**
 * The user-space driver as a {@link DriverProvider} service: it needs nothing of the host, so it always can run,
 * after any provider that can use the host's hardware.
 */
public final class UserDriverProvider implements DriverProvider
{
    /** Below the kernel provider's: chosen automatically only where that one cannot run. */
    public static final int PREFERENCE = 0;

    @Override
    public String name()
    {
        return UserDriver.NAME;
    }

    @Override
    public int preference()
    {
        return PREFERENCE;
    }

    @Override
    public Availability probe()
    {
        return new Availability(true, "");
    }

    @Override
    public PinDriver create(final String chosenBecause)
    {
        return new UserDriver(chosenBecause);
    }
}
