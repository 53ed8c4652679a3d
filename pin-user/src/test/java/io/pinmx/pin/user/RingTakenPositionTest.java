package io.pinmx.pin.user;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The position published as taken never passes a ring frame still queued for the library, and reaches the drained
 * position once nothing is queued, whichever thread sees that last; alike with one owner (no progress thread: plain
 * counts, a release store) and with two threads (a progress thread drains while poll takes).
 */
class RingTakenPositionTest
{
    private final Arena arena = Arena.ofConfined();
    private final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));

    @AfterEach
    void close()
    {
        arena.close();
    }

    @ParameterizedTest(name = "one owner: {0}")
    @ValueSource(booleans = {true, false})
    void aQueuedFrameHoldsThePositionBackUntilPollTakesIt(final boolean oneOwner)
    {
        final RingTakenPosition position = new RingTakenPosition(ring, oneOwner);
        position.consumed(64);
        assertEquals(64, ring.taken(), "a record the driver consumed with nothing queued");
        position.queued(128);
        position.consumed(192);
        assertEquals(64, ring.taken(), "a record consumed after a queued frame: the frame still waits");
        position.taken(128);
        assertEquals(192, ring.taken(), "poll took the last queued frame: everything drained is taken");

        position.queued(256);
        position.queued(320);
        position.taken(256);
        assertEquals(256, ring.taken(), "one of two queued frames taken");
        position.taken(320);
        assertEquals(320, ring.taken());
    }

    @ParameterizedTest(name = "one owner: {0}")
    @ValueSource(booleans = {true, false})
    void pollTakingAFrameBeforeTheDrainCountsItNeverPublishesPastALaterOne(final boolean oneOwner)
    {
        final RingTakenPosition position = new RingTakenPosition(ring, oneOwner);
        position.taken(64);
        assertEquals(64, ring.taken(), "the frame poll took, though the drain has not counted it yet");
        position.queued(64);
        position.queued(128);
        position.consumed(192);
        assertEquals(64, ring.taken(), "the second frame waits");
        position.taken(128);
        assertEquals(192, ring.taken());
    }
}
