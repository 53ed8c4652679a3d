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
        assertEquals(WAIT, timer.check(w, 0, ResendTimer.NEVER_SEEN_UNREAD), "nothing in flight");
        assertEquals(Long.MAX_VALUE, timer.deadlineNs(w, ResendTimer.NEVER_SEEN_UNREAD));

        w.append("a", 0, 0);
        assertEquals(WAIT, timer.check(w, 999, ResendTimer.NEVER_SEEN_UNREAD));
        assertEquals(1_000, timer.deadlineNs(w, ResendTimer.NEVER_SEEN_UNREAD));
        assertEquals(RESEND, timer.check(w, 1_000, ResendTimer.NEVER_SEEN_UNREAD));
        w.resendAll(1_000, (c, s, o, i) -> { }, null);
        assertEquals(WAIT, timer.check(w, 1_999, ResendTimer.NEVER_SEEN_UNREAD));
        assertEquals(RESEND, timer.check(w, 2_000, ResendTimer.NEVER_SEEN_UNREAD));
        w.resendAll(2_000, (c, s, o, i) -> { }, null);
        assertEquals(GIVE_UP, timer.check(w, 3_000, ResendTimer.NEVER_SEEN_UNREAD), "first send plus two resends all timed out");
    }

    @Test
    void anAckResetsTheClockToTheNextOldestFrame()
    {
        final SendWindow w = new SendWindow(new SequenceNumbers(16), 8, 0);
        final ResendTimer timer = new ResendTimer(1_000, 0);
        w.append("a", 0, 0);
        w.append("b", 0, 800);
        w.acknowledge(1, (o, i) -> { });
        assertEquals(WAIT, timer.check(w, 1_500, ResendTimer.NEVER_SEEN_UNREAD));
        assertEquals(GIVE_UP, timer.check(w, 1_800, ResendTimer.NEVER_SEEN_UNREAD));
    }

    @Test
    void framesSeenUnreadInTheReceiveQueueWaitATimeoutFromThen()
    {
        final SendWindow w = new SendWindow(new SequenceNumbers(16), 8, 0);
        final ResendTimer timer = new ResendTimer(1_000, 2);
        w.append("a", 0, 1_000);
        w.append("b", 0, 1_200);
        assertEquals(WAIT, timer.check(w, 50_000, 50_000), "the partner has not read them");
        assertEquals(51_000, timer.deadlineNs(w, 50_000), "seen unread at 50 us: looked at again a timeout later");
        assertEquals(WAIT, timer.check(w, 50_999, 50_000), "read since, maybe: its ack gets a timeout");
        assertEquals(RESEND, timer.check(w, 51_000, 50_000), "read yet not acked a timeout later: it refused them");
        assertEquals(2_000, timer.deadlineNs(w, 900), "seen unread before the oldest went in: that says nothing");
        w.resendAll(51_000, (c, s, o, i) -> { }, null);
        assertEquals(WAIT, timer.check(w, 51_999, 50_000));
        assertEquals(RESEND, timer.check(w, 52_000, 50_000));
    }

    @Test
    void badSettingsAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new ResendTimer(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ResendTimer(1, -1));
    }
}
