package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.user.UserDriverOptions;
import io.pinmx.pin.wire.FrameKind;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A partner that does not poll for many resend timeouts while frames to it wait unacknowledged: on this host its
 * shared-memory ring holds them, so none is resent and each arrives once when it polls again; over UDP they are
 * still resent (the receiver discards the copies). Tiny, small, medium and rendezvous sends, and the NOTIFYs back.
 * Two caller-driven endpoints of one JVM: the receiver's thread simply makes no call while the sender's runs rounds.
 */
class RingResendTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int KEY = 0x71E6;
    private static final long RESEND_TIMEOUT_NS = 10_000_000L;
    private static final long SILENT_NS = 200_000_000L;
    /** One of each size class per round: tiny, small, medium (several fragments), rendezvous. */
    private static final long[] SIZES = {8, 100, 20_000, 50_000};
    private static final int ROUNDS = 3;

    @Test
    void framesWaitingInTheRingOfAPartnerThatDoesNotPollAreNotResent()
    {
        final Resends resends = sendWhileReceiverIsSilent(true);
        assertEquals(0, resends.all(), "frames resent into the silent partner's ring");
        assertEquals(0, resends.intoQueue());
    }

    @Test
    void framesOverUdpToAPartnerThatDoesNotPollAreStillResent()
    {
        final Resends resends = sendWhileReceiverIsSilent(false);
        assertTrue(resends.all() > 0, "nothing resent over UDP in " + SILENT_NS / 1_000_000 + " ms");
        assertEquals(0, resends.intoQueue(), "resends counted as into a ring over UDP");
    }

    /** The sender's resend counters. */
    private record Resends(long all, long intoQueue)
    {
    }

    /**
     * Sends every size {@link #ROUNDS} times while the receiver makes no call for {@link #SILENT_NS}, then lets it
     * receive; checks every message arrived once, in order and byte-exact (on this host: the receiver's driver got
     * each eager and RNDV frame once).
     */
    private static Resends sendWhileReceiverIsSilent(final boolean sameHost)
    {
        final UserDriverOptions driverOptions = UserDriverOptions.defaults().withSameHost(sameHost);
        final int messages = ROUNDS * SIZES.length;
        try (Arena arena = Arena.ofShared();
             Endpoint a = open(1, driverOptions);
             Endpoint b = open(2, driverOptions))
        {
            final Partner aToB = TestEndpoints.connectPolling(a, b, KEY, TIMEOUT);
            final long[] receivedBefore = receivedSequenced(b);
            final Request[] sends = new Request[messages];
            for (int i = 0; i < messages; i++)
            {
                final MemorySegment data = arena.allocate(SIZES[i % SIZES.length]);
                Patterns.fill(data, i);
                sends[i] = a.isend(aToB, i, data);
            }
            final Status probe = new Status();
            final long silentUntilNs = System.nanoTime() + SILENT_NS;
            while (System.nanoTime() - silentUntilNs < 0)
            {
                // only the sender runs rounds: its timers see the partner silent with frames unacknowledged
                a.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, probe);
                Thread.onSpinWait();
            }
            final MemorySegment[] buffers = new MemorySegment[messages];
            final Request[] receives = new Request[messages];
            for (int i = 0; i < messages; i++)
            {
                buffers[i] = arena.allocate(SIZES[i % SIZES.length] + 16);
                receives[i] = b.irecv(MatchInfo.ANY_SOURCE, 0, 0, buffers[i]);
            }
            await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(1)).until(() ->
            {
                a.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, probe);
                b.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ALL, probe);
                return allDone(sends) && allDone(receives);
            });
            for (int i = 0; i < messages; i++)
            {
                assertFalse(sends[i].status().isError(), "send " + i + ": " + sends[i].status());
                final Status got = receives[i].status();
                assertFalse(got.isError(), "receive " + i + ": " + got);
                assertEquals(i, got.matchInfo(), "receive " + i + " took another message");
                assertEquals(SIZES[i % SIZES.length], got.bytesTransferred(), "receive " + i);
                assertEquals(-1, Patterns.firstMismatch(buffers[i], got.bytesTransferred(), i), "receive " + i);
                sends[i].release();
                receives[i].release();
            }
            if (sameHost)
            {
                final long[] received = receivedSequenced(b);
                assertEquals(ROUNDS, received[0] - receivedBefore[0], "TINY frames the receiver got");
                assertEquals(ROUNDS, received[1] - receivedBefore[1], "SMALL frames the receiver got");
                assertEquals(ROUNDS, received[2] - receivedBefore[2], "RNDV frames the receiver got");
            }
            assertFalse(b.iprobe(MatchInfo.ANY_SOURCE, 0, 0, probe), "a message left over: " + probe);
            return new Resends(a.counters().resentFrames(), a.counters().resentIntoQueueFrames());
        }
    }

    private static boolean allDone(final Request[] requests)
    {
        for (final Request r : requests)
        {
            if (!r.test())
            {
                return false;
            }
        }
        return true;
    }

    private static long[] receivedSequenced(final Endpoint e)
    {
        return new long[] {
            e.counters().driver().get(Counter.received(FrameKind.TINY)),
            e.counters().driver().get(Counter.received(FrameKind.SMALL)),
            e.counters().driver().get(Counter.received(FrameKind.RNDV))};
    }

    private static Endpoint open(final int index, final UserDriverOptions driverOptions)
    {
        return TestEndpoints.open(TestEndpoints.options(index, KEY, driverOptions.withProgressThread(false))
            .progressMode(ProgressMode.CALLER)
            .resendTimeoutNs(RESEND_TIMEOUT_NS)
            .build());
    }
}
