package io.pinmx.mx.reliability;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SendWindowTest
{
    private final SequenceNumbers seq = new SequenceNumbers(8);
    private final List<String> acked = new ArrayList<>();

    @Test
    void cumulativeAcksReleaseFramesInOrderAcrossTheWrap()
    {
        final SendWindow w = new SendWindow(seq, 8, 254);
        assertEquals(254, w.append("a", 0, 10));
        assertEquals(255, w.append("a", 1, 11));
        assertEquals(0, w.append("b", 0, 12));
        assertEquals(1, w.append("c", 0, 13));

        assertEquals(3, w.acknowledge(1, (o, i) -> acked.add(o.toString() + i)));
        assertEquals(List.of("a0", "a1", "b0"), acked);
        assertEquals(1, w.inFlight());
        assertEquals(1, w.oldestSeq());
        assertEquals(13, w.oldestSentAtNs());
    }

    @Test
    void staleDuplicateAndImpossibleAcksChangeNothing()
    {
        final SendWindow w = new SendWindow(seq, 8, 10);
        w.append("a", 0, 0);
        w.append("a", 1, 0);
        assertEquals(1, w.acknowledge(11, (o, i) -> acked.add(o.toString() + i)));
        assertEquals(0, w.acknowledge(11, (o, i) -> acked.add(o.toString() + i)), "duplicate ack");
        assertEquals(0, w.acknowledge(5, (o, i) -> acked.add(o.toString() + i)), "stale ack");
        assertEquals(0, w.acknowledge(40, (o, i) -> acked.add(o.toString() + i)), "acks a frame never sent");
        assertEquals(List.of("a0"), acked);
        assertEquals(1, w.inFlight());
    }

    @Test
    void fullWindowRefusesMoreAndSaysWhy()
    {
        final SendWindow w = new SendWindow(seq, 2, 0);
        w.append("a", 0, 0);
        w.append("a", 1, 0);
        assertFalse(w.hasRoom());
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.append("a", 2, 0));
        assertTrue(e.getMessage().contains("2 frames"), e.getMessage());
        w.acknowledge(1, (o, i) -> { });
        assertTrue(w.hasRoom());
    }

    @Test
    void resendAllGoesBackToTheOldestAndCountsSends()
    {
        final SendWindow w = new SendWindow(seq, 4, 0);
        w.append("a", 0, 100);
        w.append("b", 0, 110);
        final List<String> resent = new ArrayList<>();
        w.resendAll(500, (c, s, o, i) -> resent.add(s + ":" + o.toString() + i), null);
        assertEquals(List.of("0:a0", "1:b0"), resent);
        assertEquals(2, w.oldestSendCount());
        assertEquals(500, w.oldestSentAtNs());
    }

    @Test
    void resendFromStartsAtTheRefusedFrameAcrossTheWrapOrAtTheOldestOnceItWasAcked()
    {
        final SendWindow w = new SendWindow(seq, 8, 253);
        w.append("a", 0, 1);
        w.append("a", 1, 1);
        w.append("b", 0, 1);
        w.append("c", 0, 1);
        w.inReceiveQueue(253, 2);
        final List<String> resent = new ArrayList<>();
        w.resendFrom(255, 500, (c, s, o, i) -> resent.add(s + ":" + o.toString() + i), null);
        assertEquals(List.of("255:b0", "0:c0"), resent);
        assertFalse(w.allInReceiveQueue());
        assertEquals(1, w.oldestSendCount(), "frames before the refused one were not sent again");

        resent.clear();
        w.acknowledge(254, (o, i) -> acked.add(o.toString() + i));
        w.resendFrom(253, 600, (c, s, o, i) -> resent.add(s + ":" + o.toString() + i), null);
        assertEquals(List.of("254:a1", "255:b0", "0:c0"), resent, "an acknowledged start begins at the oldest");

        resent.clear();
        w.resendFrom(1, 700, (c, s, o, i) -> resent.add(s + ":" + o.toString() + i), null);
        assertEquals(List.of(), resent, "a frame not appended yet resends nothing");
    }

    @Test
    void clearHandsBackEveryFrame()
    {
        final SendWindow w = new SendWindow(seq, 4, 0);
        w.append("a", 0, 0);
        w.append("b", 3, 0);
        w.clear((c, o, i) -> acked.add(o.toString() + i), null);
        assertEquals(List.of("a0", "b3"), acked);
        assertTrue(w.isEmpty());
        assertEquals(0, w.oldestSendCount());
    }

    @Test
    void tracksWhichFramesWentIntoTheReceiveQueueAcrossTheWrap()
    {
        final SendWindow w = new SendWindow(seq, 4, 254);
        assertFalse(w.allInReceiveQueue(), "an empty window holds nothing anywhere");
        w.append("a", 0, 0);
        w.append("b", 0, 0);
        w.append("c", 0, 0);
        w.inReceiveQueue(254, 2);
        assertFalse(w.allInReceiveQueue(), "seq 0 is still outside");
        w.inReceiveQueue(0, 1);
        w.inReceiveQueue(0, 1);
        w.inReceiveQueue(1, 3);
        assertTrue(w.allInReceiveQueue(), "a repeated mark or one past the window changes nothing");
        w.acknowledge(255, (o, i) -> { });
        assertTrue(w.allInReceiveQueue());
        w.append("d", 0, 0);
        assertFalse(w.allInReceiveQueue(), "a new frame starts outside");
        w.inReceiveQueue(1, 1);
        assertTrue(w.allInReceiveQueue());
        w.resendAll(5, (c, s, o, i) -> { }, null);
        assertFalse(w.allInReceiveQueue(), "a resend starts outside again");
        w.acknowledge(2, (o, i) -> { });
        assertFalse(w.allInReceiveQueue(), "empty again");
    }

    @Test
    void capacityMustFitTheSequenceSpace()
    {
        assertThrows(IllegalArgumentException.class, () -> new SendWindow(seq, 128, 0));
        assertThrows(IllegalArgumentException.class, () -> new SendWindow(seq, 6, 0));
        assertThrows(IllegalArgumentException.class, () -> new SendWindow(seq, 4, 256));
    }
}
