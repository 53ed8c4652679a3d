package io.pinmx.mx.reliability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.pinmx.mx.reliability.ReceiveTracker.Classification.AHEAD;
import static io.pinmx.mx.reliability.ReceiveTracker.Classification.DUPLICATE;
import static io.pinmx.mx.reliability.ReceiveTracker.Classification.IN_ORDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReceiveTrackerTest
{
    private final SequenceNumbers seq = new SequenceNumbers(16);

    @Test
    void delayedAckFallsDueAfterTheDelay()
    {
        final ReceiveTracker t = new ReceiveTracker(seq, 0, 500, 500, 100);
        assertFalse(t.isAckDue(0));
        assertEquals(IN_ORDER, t.classify(0, 1_000));
        t.accept(1_000);
        assertFalse(t.isAckDue(1_499));
        assertEquals(1_500, t.ackDeadlineNs());
        assertTrue(t.isAckDue(1_500));
        assertEquals(1, t.expectedSeq());
        t.onAckSent();
        assertFalse(t.isAckDue(10_000));
        assertEquals(Long.MAX_VALUE, t.ackDeadlineNs());
    }

    @ParameterizedTest(name = "lossless={0}")
    @ValueSource(booleans = {false, true})
    void everyNthFrameIsAckedAtOnce(final boolean lossless)
    {
        final ReceiveTracker t = new ReceiveTracker(seq, 0, 1_000_000, 1_000_000, 3);
        for (int i = 1; i <= 3; i++)
        {
            assertFalse(t.isAckDue(0));
            if (lossless)
            {
                t.acceptLossless(0);
            }
            else
            {
                t.accept(0);
            }
        }
        assertTrue(t.isAckDue(0));
    }

    @Test
    void duplicatesAndGapsAreNotAcceptedAndMakeTheAckUrgent()
    {
        final ReceiveTracker t = new ReceiveTracker(seq, 0xFFFF, 1_000_000, 1_000_000, 100);
        t.accept(0);
        assertEquals(0, t.expectedSeq(), "wrapped");
        t.onAckSent();
        assertEquals(DUPLICATE, t.classify(0xFFFF, 5));
        assertTrue(t.isAckDue(5));
        t.onAckSent();
        assertEquals(AHEAD, t.classify(3, 6));
        assertTrue(t.isAckDue(6));
        assertEquals(0, t.expectedSeq(), "nothing accepted");
    }

    @Test
    void aRefusedFrameIsNotAdvancedPast()
    {
        final ReceiveTracker t = new ReceiveTracker(seq, 7, 100, 100, 100);
        assertEquals(IN_ORDER, t.classify(7, 0));
        t.refuse(0);
        assertEquals(7, t.expectedSeq());
        assertTrue(t.isAckDue(100));
        assertEquals(IN_ORDER, t.classify(7, 200));
    }

    @Test
    void anAckRequestedByThePartnerIsDueAtOnce()
    {
        final ReceiveTracker t = new ReceiveTracker(seq, 0, 1_000_000, 1_000_000, 100);
        assertFalse(t.isAckDue(0));
        t.ackRequested(50);
        assertTrue(t.isAckDue(50));
        assertEquals(50, t.ackDeadlineNs());
    }

    @Test
    void aLosslessFrameIsAckedAfterTheLongerDelayUnlessAnotherFrameNeedsItSooner()
    {
        final ReceiveTracker t = new ReceiveTracker(seq, 0, 0, 200_000, 100);
        t.acceptLossless(1_000);
        assertFalse(t.isAckDue(1_000), "no ACK frame of its own right away");
        assertEquals(201_000, t.ackDeadlineNs());
        assertTrue(t.isAckDue(201_000));
        t.onAckSent();
        t.acceptLossless(300_000);
        t.accept(300_010);
        assertTrue(t.isAckDue(300_010), "a frame whose sender waits for the ack makes it due at its own delay");
        t.onAckSent();
        t.acceptLossless(400_000);
        assertEquals(DUPLICATE, t.classify(0, 400_001));
        assertTrue(t.isAckDue(400_001), "a duplicate makes it urgent");
    }

    @Test
    void theLosslessDelayIsNeverShorterThanTheOrdinaryOne()
    {
        final ReceiveTracker t = new ReceiveTracker(seq, 0, 500, 100, 100);
        t.acceptLossless(0);
        assertEquals(500, t.ackDeadlineNs());
    }

    @Test
    void onlyAnAckWhoseSenderWaitsIsAwaitedUntilSent()
    {
        final ReceiveTracker t = new ReceiveTracker(seq, 0, 200_000, 200_000, 100);
        assertFalse(t.isAckAwaited(), "nothing owed");
        t.acceptLossless(0);
        assertFalse(t.isAckAwaited(), "a lossless frame's send completed without its ack");
        t.accept(10);
        assertTrue(t.isAckAwaited(), "an ordinary frame's sender waits for the ack");
        assertFalse(t.isAckDue(10), "though its delay has not passed");
        t.onAckSent();
        assertFalse(t.isAckAwaited(), "a frame back carried it");
        t.refuse(20);
        assertTrue(t.isAckAwaited(), "a refused frame's sender must see progress stop");
        t.onAckSent();
        t.ackRequested(30);
        assertTrue(t.isAckAwaited(), "so must a partner that asked");
    }
}
