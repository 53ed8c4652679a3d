package io.pinmx.apps;

import io.pinmx.rma.RmaOptions;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kernels announce no access epochs unless PINMX_RMA_ACCESS_EPOCHS says otherwise; a bad value is refused. */
class EpochlessRmaOptionsTest
{
    @Test
    void announcesNoEpochsUnlessTheVariableIsSet()
    {
        assertFalse(EpochlessRmaOptions.fromEnvironment(Map.of()).accessEpochs());
        assertFalse(EpochlessRmaOptions.fromEnvironment(Map.of(RmaOptions.ACCESS_EPOCHS_VARIABLE, "0")).accessEpochs());
        assertTrue(EpochlessRmaOptions.fromEnvironment(Map.of(RmaOptions.ACCESS_EPOCHS_VARIABLE, "1")).accessEpochs());
    }

    @Test
    void keepsTheOtherVariables()
    {
        assertFalse(EpochlessRmaOptions.fromEnvironment(Map.of(RmaOptions.SHARED_MEMORY_VARIABLE, "0")).sharedMemory());
    }

    @Test
    void refusesABadValueNamingTheVariable()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> EpochlessRmaOptions.fromEnvironment(Map.of(RmaOptions.ACCESS_EPOCHS_VARIABLE, "yes")));
        assertTrue(refused.getMessage().contains("PINMX_RMA_ACCESS_EPOCHS=yes"), refused.getMessage());
    }
}
