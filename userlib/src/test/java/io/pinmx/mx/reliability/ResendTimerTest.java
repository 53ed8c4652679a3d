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
        assertEquals(WAIT, timer.check(w, 0), "nothing in flight");
        assertEquals(Long.MAX_VALUE, timer.deadlineNs(w));

        w.append("a", 0, 0);
        assertEquals(WAIT, timer.check(w, 999));
        assertEquals(1_000, timer.deadlineNs(w));
        assertEquals(RESEND, timer.check(w, 1_000));
        w.resendAll(1_000, (c, s, o, i) -> { }, null);
        assertEquals(WAIT, timer.check(w, 1_999));
        assertEquals(RESEND, timer.check(w, 2_000));
        w.resendAll(2_000, (c, s, o, i) -> { }, null);
        assertEquals(GIVE_UP, timer.check(w, 3_000), "first send plus two resends all timed out");
    }

    @Test
    void anAckResetsTheClockToTheNextOldestFrame()
    {
        final SendWindow w = new SendWindow(new SequenceNumbers(16), 8, 0);
        final ResendTimer timer = new ResendTimer(1_000, 0);
        w.append("a", 0, 0);
        w.append("b", 0, 800);
        w.acknowledge(1, (o, i) -> { });
        assertEquals(WAIT, timer.check(w, 1_500));
        assertEquals(GIVE_UP, timer.check(w, 1_800));
    }

    @Test
    void badSettingsAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new ResendTimer(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ResendTimer(1, -1));
    }
}
