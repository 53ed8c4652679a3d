package io.pinmx.mx.reliability;

import org.junit.jupiter.api.Test;

import static io.pinmx.mx.reliability.PartnerState.CONNECTED;
import static io.pinmx.mx.reliability.PartnerState.CONNECTING;
import static io.pinmx.mx.reliability.PartnerState.FAILED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartnerStateTest
{
    @Test
    void legalMovesOnlyForward()
    {
        assertEquals(CONNECTED, CONNECTING.moveTo(CONNECTED));
        assertEquals(FAILED, CONNECTING.moveTo(FAILED));
        assertEquals(FAILED, CONNECTED.moveTo(FAILED));
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> FAILED.moveTo(CONNECTED));
        assertTrue(e.getMessage().contains("FAILED to CONNECTED"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> CONNECTED.moveTo(CONNECTING));
    }
}
