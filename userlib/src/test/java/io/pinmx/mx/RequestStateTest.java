package io.pinmx.mx;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestStateTest
{
    @Test
    void sendsAndReceivesFollowTheirOwnPaths()
    {
        assertTrue(RequestState.FREE.canMoveTo(RequestState.QUEUED));
        assertTrue(RequestState.QUEUED.canMoveTo(RequestState.SENDING));
        assertTrue(RequestState.SENDING.canMoveTo(RequestState.COMPLETED));
        assertTrue(RequestState.FREE.canMoveTo(RequestState.POSTED));
        assertTrue(RequestState.POSTED.canMoveTo(RequestState.PULLING));
        assertTrue(RequestState.POSTED.canMoveTo(RequestState.RECEIVING));
        assertTrue(RequestState.RECEIVING.canMoveTo(RequestState.FAILED));
        assertFalse(RequestState.SENDING.canMoveTo(RequestState.CANCELLED), "a send cannot be cancelled");
        assertFalse(RequestState.PULLING.canMoveTo(RequestState.CANCELLED), "a matched receive cannot be cancelled");
        assertFalse(RequestState.QUEUED.canMoveTo(RequestState.POSTED));
    }

    @Test
    void onlyDoneRequestsGoBackToThePoolAndDoneIsFinal()
    {
        for (final RequestState s : RequestState.values())
        {
            assertTrue(s.isDone() == s.canMoveTo(RequestState.FREE), s + ": back to the pool only when done");
            if (s.isDone())
            {
                for (final RequestState next : RequestState.values())
                {
                    assertTrue(RequestState.FREE == next || !s.canMoveTo(next), s + " must not move to " + next);
                }
            }
        }
        assertFalse(RequestState.FREE.canMoveTo(RequestState.FREE));
    }
}
