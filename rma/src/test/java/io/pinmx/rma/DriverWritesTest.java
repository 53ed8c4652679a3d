package io.pinmx.rma;

import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whether a rank's slices take its driver's writes, from what the driver announces: by default only where the driver
 * applies them without the process and can hold them back for an access epoch; "1" forces them and is refused,
 * naming the variable, where the driver cannot apply them at all.
 */
class DriverWritesTest
{
    private static final Set<DriverFeature> USER = EnumSet.of(DriverFeature.UDP, DriverFeature.REMOTE_WRITE,
        DriverFeature.REMOTE_ATOMIC);
    private static final Set<DriverFeature> PASSIVE = EnumSet.of(DriverFeature.ETHERNET, DriverFeature.REMOTE_WRITE,
        DriverFeature.REMOTE_ATOMIC, DriverFeature.PASSIVE_WRITES);

    @Test
    void autoTakesThemOnlyFromADriverThatAppliesThemWithoutTheProcessAndHoldsThemBack()
    {
        final Set<DriverFeature> holding = EnumSet.copyOf(PASSIVE);
        holding.add(DriverFeature.HOLD_WRITES);
        assertTrue(DriverWrites.AUTO.takes(driver("kernel", holding)));
        assertFalse(DriverWrites.AUTO.takes(driver("kernel", PASSIVE)), "a module that cannot hold writes back");
        assertFalse(DriverWrites.AUTO.takes(driver("user", USER)));
        assertFalse(DriverWrites.OFF.takes(driver("kernel", holding)));
        assertFalse(DriverWrites.OFF.takes(driver("user", USER)));
        assertTrue(DriverWrites.ON.takes(driver("kernel", holding)));
        assertTrue(DriverWrites.ON.takes(driver("kernel", PASSIVE)), "forced where epochs would be refused");
    }

    @Test
    void onIsRefusedNamingTheVariableWhereTheDriverNeedsTheTargetsThread()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> DriverWrites.ON.takes(driver("user", USER)));
        assertEquals("PINMX_RMA_DRIVER_WRITES=1: the 'user' driver does not apply puts and atomics without this " +
            "process (it lacks PASSIVE_WRITES); unset it (auto) or set 0", ex.getMessage());
    }

    @Test
    void wordsParseAndOthersAreRefusedNamingTheVariable()
    {
        assertEquals(DriverWrites.AUTO, DriverWrites.parse("V", "auto"));
        assertEquals(DriverWrites.ON, DriverWrites.parse("V", "1"));
        assertEquals(DriverWrites.OFF, DriverWrites.parse("V", "0"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> DriverWrites.parse("V", "on"));
        assertEquals("V=on: expected auto, 1 or 0", ex.getMessage());
    }

    private static DriverInfo driver(final String name, final Set<DriverFeature> features)
    {
        return new DriverInfo(name, "test", false, 1, 1, 1, 1, 1, features);
    }
}
