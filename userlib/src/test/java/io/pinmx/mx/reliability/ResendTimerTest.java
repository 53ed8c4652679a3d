package io.pinmx.mx.reliability;

import org.junit.jupiter.api.Test;

import static io.pinmx.mx.reliability.ResendTimer.Verdict.GIVE_UP;
import static io.pinmx.mx.reliability.ResendTimer.Verdict.RESEND;
import static io.pinmx.mx.reliability.ResendTimer.Verdict.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ResendTimerTest
{
    @Test
    void resendsOnTimeoutThenGivesUpAfterBoundedRetries()
    {
        final SendWindow w = new SendWindow(new SequenceNumbers(16), 8, 0);
        final ResendTimer timer = new ResendTimer(1_000, 2);
        assertEquals(WAIT, timer.check(w, 0, 0), "nothing in flight");
        assertEquals(Long.MAX_VALUE, timer.deadlineNs(w, 0));

        w.append("a", 0, 0);
        assertEquals(WAIT, timer.check(w, 999, 0));
        assertEquals(1_000, timer.deadlineNs(w, 0));
        assertEquals(RESEND, timer.check(w, 1_000, 0));
        w.resendAll(1_000, (c, s, o, i) -> { }, null);
        assertEquals(WAIT, timer.check(w, 1_999, 0));
        assertEquals(RESEND, timer.check(w, 2_000, 0));
        w.resendAll(2_000, (c, s, o, i) -> { }, null);
        assertEquals(GIVE_UP, timer.check(w, 3_000, 0), "first send plus two resends all timed out");
    }

    @Test
    void anAckResetsTheClockToTheNextOldestFrame()
    {
        final SendWindow w = new SendWindow(new SequenceNumbers(16), 8, 0);
        final ResendTimer timer = new ResendTimer(1_000, 0);
        w.append("a", 0, 0);
        w.append("b", 0, 800);
        w.acknowledge(1, (o, i) -> { });
        assertEquals(WAIT, timer.check(w, 1_500, 0));
        assertEquals(GIVE_UP, timer.check(w, 1_800, 0));
    }

    @Test
    void framesInTheReceiveQueueWaitUntilThePartnerIsHeardFromAfterThem()
    {
        final SendWindow w = new SendWindow(new SequenceNumbers(16), 8, 0);
        final ResendTimer timer = new ResendTimer(1_000, 2);
        final long heardBeforeNs = 500;
        w.append("a", 0, 1_000);
        w.append("b", 0, 1_200);
        w.inReceiveQueue(0, 2);
        assertEquals(WAIT, timer.check(w, 50_000, heardBeforeNs), "the partner has not read them");
        assertEquals(Long.MAX_VALUE, timer.deadlineNs(w, heardBeforeNs), "only hearing from it can change that");
        assertEquals(WAIT, timer.check(w, 50_000, 1_000), "heard at the moment the oldest went in: not after");
        assertEquals(RESEND, timer.check(w, 50_000, 1_001), "heard after them yet not acked: it refused them");
        assertEquals(2_000, timer.deadlineNs(w, 1_001));
    }

    @Test
    void aFrameOutsideTheReceiveQueueKeepsTheTimer()
    {
        final SendWindow w = new SendWindow(new SequenceNumbers(16), 8, 0);
        final ResendTimer timer = new ResendTimer(1_000, 1);
        w.append("a", 0, 0);
        w.append("b", 0, 0);
        w.inReceiveQueue(0, 1);
        assertEquals(RESEND, timer.check(w, 1_000, 0), "the second frame's send was refused or went over a link");
        w.resendAll(1_000, (c, s, o, i) -> w.inReceiveQueue(s, 1), null);
        assertEquals(WAIT, timer.check(w, 9_000, 0), "both resends went into the queue");
        w.resendAll(9_000, (c, s, o, i) -> { }, null);
        assertEquals(GIVE_UP, timer.check(w, 10_000, 0), "a resend that did not reach the queue counts as outside it");
    }

    @Test
    void badSettingsAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new ResendTimer(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ResendTimer(1, -1));
    }
}
