package io.pinmx.rma;

import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;

/**
 * Whether a rank's slices take puts, integer accumulates and read-modify-writes from its driver, which applies them
 * without this process (option {@code PINMX_RMA_DRIVER_WRITES}: a passive target), or only from its data server.
 */
public enum DriverWrites
{
    /**
     * From its driver where the driver applies them without this process and can hold them back for an access epoch
     * (pinmx.ko with {@link DriverFeature#PASSIVE_WRITES} and {@link DriverFeature#HOLD_WRITES}); else (the user
     * driver, whose writes need the target's driver thread) from its data server.
     */
    AUTO,
    /** From its driver; {@link Rma#init} refuses a driver that cannot apply them without this process. */
    ON,
    /** From its data server only. */
    OFF;

    /**
     * @throws IllegalArgumentException naming the variable and the word if it is not auto, 1 or 0.
     */
    static DriverWrites parse(final String variable, final String word)
    {
        return switch (word)
        {
            case "auto" -> AUTO;
            case "1" -> ON;
            case "0" -> OFF;
            default -> throw new IllegalArgumentException(variable + "=" + word + ": expected auto, 1 or 0");
        };
    }

    /**
     * @return whether this rank's slices take writes from a driver of this description.
     * @throws IllegalArgumentException naming {@code PINMX_RMA_DRIVER_WRITES=1} and the provider if this is
     *                                  {@link #ON} and the driver cannot apply them without this process.
     */
    boolean takes(final DriverInfo driver)
    {
        final boolean passive = ModuleWrites.passive(driver);
        return switch (this)
        {
            case AUTO -> passive && driver.has(DriverFeature.HOLD_WRITES);
            case OFF -> false;
            case ON ->
            {
                if (!passive)
                {
                    throw new IllegalArgumentException(RmaOptions.DRIVER_WRITES_VARIABLE + "=1: the '" +
                        driver.providerName() + "' driver does not apply puts and atomics without this process " +
                        "(it lacks " + DriverFeature.PASSIVE_WRITES + "); unset it (auto) or set 0");
                }
                yield true;
            }
        };
    }
}
