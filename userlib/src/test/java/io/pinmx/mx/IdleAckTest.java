package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.user.UserDriverOptions;
import io.pinmx.pin.wire.FrameKind;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A caller-driven endpoint sends an ack its partner waits for as soon as a progress round finds nothing to do, not
 * after the ack delay: two endpoints over UDP (no shared memory, so every eager send completes on its ack) that
 * each wait for their own send before receiving (IMB PingPing) complete within a fraction of a delay of 5 s, and
 * with no resend (the resend timeout is 20 s).
 */
class IdleAckTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0x1D1E;
    private static final long ACK_DELAY_NS = 5_000_000_000L;
    private static final int ROUNDS = 50;

    @Test
    void sendsWaitingOnTheirAcksCompleteLongBeforeTheAckDelay()
    {
        try (Arena arena = Arena.ofShared();
             Endpoint a = open(1);
             Endpoint b = open(2))
        {
            final Partner aToB = TestEndpoints.connectPolling(a, b, KEY, TIMEOUT);
            final Partner bToA = TestEndpoints.connectPolling(b, a, KEY, TIMEOUT);
            final MemorySegment outA = arena.allocate(1024);
            final MemorySegment outB = arena.allocate(1024);
            final MemorySegment inA = arena.allocate(1024);
            final MemorySegment inB = arena.allocate(1024);
            final long startNs = System.nanoTime();
            for (int i = 0; i < ROUNDS; i++)
            {
                outA.set(ValueLayout.JAVA_INT, 0, i);
                outB.set(ValueLayout.JAVA_INT, 0, -i);
                final Request sendA = a.isend(aToB, 0, outA);
                final Request sendB = b.isend(bToA, 0, outB);
                awaitBoth(a, b, sendA, sendB);
                final Request recvA = a.irecv(aToB.id(), 0, MatchInfo.MASK_ALL, inA);
                final Request recvB = b.irecv(bToA.id(), 0, MatchInfo.MASK_ALL, inB);
                awaitBoth(a, b, recvA, recvB);
                assertEquals(-i, inA.get(ValueLayout.JAVA_INT, 0));
                assertEquals(i, inB.get(ValueLayout.JAVA_INT, 0));
                for (final Request r : new Request[] {sendA, sendB, recvA, recvB})
                {
                    r.release();
                }
            }
            final long elapsedNs = System.nanoTime() - startNs;
            assertTrue(elapsedNs < ACK_DELAY_NS, ROUNDS + " PingPing rounds took " + elapsedNs / 1_000_000 +
                " ms: acks waited for their delay");
            assertEquals(0, a.counters().resentFrames() + b.counters().resentFrames(), "no frame was resent");
            assertTrue(sent(a, FrameKind.ACK) + sent(b, FrameKind.ACK) >= ROUNDS,
                "each round's sends were acked by ACK frames, the rounds being idle while they waited");
        }
    }

    /**
     * Waits for both requests within {@link #TIMEOUT}, making a round of progress on each endpoint per turn, as two
     * ranks waiting on anything (their own requests, a barrier) keep polling their endpoints.
     */
    private static void awaitBoth(final Endpoint a, final Endpoint b, final Request x, final Request y)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT.toNanos();
        while (!(x.state().isDone() && y.state().isDone()))
        {
            a.progressFromCaller();
            b.progressFromCaller();
            assertTrue(System.nanoTime() - deadlineNs < 0, "not done within " + TIMEOUT + ": " + x + ", " + y);
        }
    }

    private static long sent(final Endpoint e, final FrameKind kind)
    {
        return e.counters().driver().get(Counter.sent(kind));
    }

    private static Endpoint open(final int index)
    {
        return TestEndpoints.open(TestEndpoints.options(index, KEY,
                UserDriverOptions.defaults().withProgressThread(false).withSameHost(false))
            .progressMode(ProgressMode.CALLER)
            .ackDelayNs(ACK_DELAY_NS)
            .resendTimeoutNs(20_000_000_000L)
            .build());
    }
}
