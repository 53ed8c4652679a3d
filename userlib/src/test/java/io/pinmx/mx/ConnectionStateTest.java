package io.pinmx.mx;

import io.pinmx.mx.reliability.PartnerState;
import org.junit.jupiter.api.Test;

import static io.pinmx.mx.ConnectionState.CONNECTED_UNVERIFIED;
import static io.pinmx.mx.ConnectionState.CONNECTING;
import static io.pinmx.mx.ConnectionState.FAILED;
import static io.pinmx.mx.ConnectionState.VERIFIED;
import static io.pinmx.mx.ConnectionState.VERIFYING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionStateTest
{
    @Test
    void theHandshakeMovesOnlyAlongItsEdges()
    {
        assertTrue(CONNECTING.canMoveTo(VERIFIED), "our connect was answered: our key is verified");
        assertTrue(CONNECTING.canMoveTo(CONNECTED_UNVERIFIED), "the partner connected to us first");
        assertTrue(CONNECTED_UNVERIFIED.canMoveTo(VERIFYING));
        assertTrue(VERIFYING.canMoveTo(VERIFIED));
        assertTrue(VERIFYING.canMoveTo(CONNECTED_UNVERIFIED), "key refused or check timed out: the session lives on");
        assertTrue(VERIFIED.canMoveTo(VERIFYING), "another key to check");
        for (final ConnectionState s : ConnectionState.values())
        {
            assertEquals(FAILED != s, s.canMoveTo(FAILED), s + " to FAILED");
            assertFalse(FAILED.canMoveTo(s), "FAILED is final: " + s);
            assertFalse(s.canMoveTo(CONNECTING), "nothing goes back to CONNECTING: " + s);
        }
        assertFalse(CONNECTED_UNVERIFIED.canMoveTo(VERIFIED), "verified only by a reply to a check");
    }

    @Test
    void thePublicViewIsConnectingConnectedOrFailed()
    {
        assertEquals(PartnerState.CONNECTING, CONNECTING.partnerState());
        assertEquals(PartnerState.CONNECTED, CONNECTED_UNVERIFIED.partnerState());
        assertEquals(PartnerState.CONNECTED, VERIFYING.partnerState());
        assertEquals(PartnerState.CONNECTED, VERIFIED.partnerState());
        assertEquals(PartnerState.FAILED, FAILED.partnerState());
    }

    @Test
    void anIllegalMoveOfAPartnerFailsNamingBothStates()
    {
        final Partner p = new Partner(0, new io.pinmx.pin.spi.EndpointAddress(
            io.pinmx.pin.spi.BoardAddress.parse("udp:127.0.0.1:40000"), 1, 0), 0, 1);
        p.moveTo(FAILED);
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.moveTo(VERIFIED));
        assertTrue(e.getMessage().contains("FAILED to VERIFIED"), e.getMessage());
    }
}
