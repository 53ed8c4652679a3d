package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.mx.reliability.PartnerState;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Endpoint#failPartner}: news from outside the endpoint (a launcher reporting a rank dead) fails the
 * partner's pending receives, and receives from any source, at once with the reason given; a blank reason or
 * another endpoint's partner is refused, naming it, and changes nothing.
 */
class FailPartnerTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0xFA11;

    private final Arena arena = Arena.ofShared();
    private Endpoint first;
    private Endpoint second;

    @AfterEach
    void close()
    {
        if (null != first)
        {
            first.close();
        }
        if (null != second)
        {
            second.close();
        }
        arena.close();
    }

    @Test
    void aPartnerFailedFromOutsideFailsItsWaitsAtOnceWithTheReason()
    {
        first = TestEndpoints.open(TestEndpoints.options(1, KEY, UserDriverOptions.defaults()).build());
        second = TestEndpoints.open(TestEndpoints.options(2, KEY, UserDriverOptions.defaults()).build());
        final Partner partner = first.connect(second.address(), KEY, TIMEOUT);
        final MemorySegment buffer = arena.allocate(8);
        final Request fromIt = first.irecv(partner.id(), 7, MatchInfo.MASK_ALL, buffer);
        final Request fromAny = first.irecv(MatchInfo.ANY_SOURCE, 8, MatchInfo.MASK_ALL, arena.allocate(8));

        assertEquals("failPartner: a reason must be given for " + partner,
            assertThrows(IllegalArgumentException.class, () -> first.failPartner(partner, " ")).getMessage());
        final Partner foreign = second.connect(first.address(), KEY, TIMEOUT);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> first.failPartner(foreign, "x")).getMessage()
            .contains("failPartner"));
        assertEquals(RequestState.POSTED, fromIt.state(), "a refused call changes nothing");

        first.failPartner(partner, "rank 2 died (launcher event)");

        assertEquals(PartnerState.FAILED, partner.state());
        assertEquals("rank 2 died (launcher event)", partner.failure());
        assertTrue(fromIt.await(Duration.ofMillis(500)), "failed at once, not after the peer timeout");
        assertEquals(RequestState.FAILED, fromIt.state());
        assertTrue(fromIt.status().error().contains("rank 2 died (launcher event)"), fromIt.status().error());
        assertTrue(fromAny.await(Duration.ofMillis(500)), "a receive from any source fails too");
        assertTrue(fromAny.status().error().contains("rank 2 died"), fromAny.status().error());
        first.failPartner(partner, "again");
        assertEquals("rank 2 died (launcher event)", partner.failure(), "a failed partner stays as it is");
    }
}
