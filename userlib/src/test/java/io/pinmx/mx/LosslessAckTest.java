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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Small eager messages that arrive through the same-host ring (which cannot lose them, and whose sends completed
 * without an ack) are acked on the reply, not by an ACK frame each, even with {@code ackDelayNs} 0; over UDP each
 * is still acked at once; and the last one of a burst is acked after {@code losslessAckDelayNs} when no reply comes.
 * Two caller-driven endpoints of one JVM, ping-ponged by the test thread.
 */
class LosslessAckTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0xACE;
    private static final int ROUND_TRIPS = 400;
    private static final long LOSSLESS_ACK_DELAY_NS = 2_000_000L;

    @Test
    void smallMessagesThroughTheRingAreAckedOnTheReply()
    {
        final long acks = ackFramesOfPingPong(UserDriverOptions.defaults());
        assertTrue(acks <= ROUND_TRIPS / 20, "ACK frames sent by the responder over shared memory: " + acks);
    }

    @Test
    void smallMessagesOverUdpAreStillAckedAtOnce()
    {
        final long acks = ackFramesOfPingPong(UserDriverOptions.defaults().withSameHost(false));
        assertTrue(acks >= ROUND_TRIPS - 1, "ACK frames sent by the responder over UDP: " + acks);
    }

    /** @return ACK frames the responder sent during the ping-pong, after which its last ack must still come. */
    private static long ackFramesOfPingPong(final UserDriverOptions driverOptions)
    {
        try (Arena arena = Arena.ofShared();
             Endpoint a = open(1, driverOptions);
             Endpoint b = open(2, driverOptions))
        {
            final Partner aToB = TestEndpoints.connectPolling(a, b, KEY, TIMEOUT);
            final MemorySegment out = arena.allocate(8);
            final MemorySegment in = arena.allocate(8);
            final Status status = new Status();
            Partner bToA = null;
            long acksBefore = 0;
            for (int i = 0; i < ROUND_TRIPS; i++)
            {
                out.set(ValueLayout.JAVA_LONG, 0, i);
                final Request request = b.irecv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, in);
                final Request send = a.isend(aToB, 0, out);
                final Status got = request.awaitOrThrow(TIMEOUT);
                assertEquals(i, in.get(ValueLayout.JAVA_LONG, 0));
                if (null == bToA)
                {
                    bToA = b.partner(got.source());
                    acksBefore = sent(b, FrameKind.ACK);
                }
                request.release();
                send.awaitOrThrow(TIMEOUT);
                send.release();
                final Request reply = a.irecv(aToB.id(), 0, MatchInfo.MASK_ALL, in);
                final Request answer = b.isend(bToA, 0, out);
                reply.awaitOrThrow(TIMEOUT);
                reply.release();
                answer.awaitOrThrow(TIMEOUT);
                answer.release();
            }
            final long acks = sent(b, FrameKind.ACK) - acksBefore;
            // The last message into b has no reply: b's owed ack goes out on its own once the delay passed.
            final long receivedByA = a.counters().driver().get(Counter.received(FrameKind.ACK));
            final Request last = a.isend(aToB, 1, out);
            await().atMost(TIMEOUT).until(() ->
            {
                b.iprobe(MatchInfo.ANY_SOURCE, 99, MatchInfo.MASK_ALL, status);
                a.iprobe(MatchInfo.ANY_SOURCE, 99, MatchInfo.MASK_ALL, status);
                return a.counters().driver().get(Counter.received(FrameKind.ACK)) > receivedByA;
            });
            last.awaitOrThrow(TIMEOUT);
            last.release();
            return acks;
        }
    }

    private static long sent(final Endpoint e, final FrameKind kind)
    {
        return e.counters().driver().get(Counter.sent(kind));
    }

    private static Endpoint open(final int index, final UserDriverOptions driverOptions)
    {
        return TestEndpoints.open(TestEndpoints.options(index, KEY, driverOptions.withProgressThread(false))
            .progressMode(ProgressMode.CALLER)
            .ackDelayNs(0)
            .losslessAckDelayNs(LOSSLESS_ACK_DELAY_NS)
            .build());
    }
}
