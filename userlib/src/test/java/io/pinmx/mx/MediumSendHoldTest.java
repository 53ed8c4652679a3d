package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A medium eager send whose fragments all went into a same-host peer's ring completes before the receiver has
 * polled anything, and its owner may reuse its buffer at once: a fragment the receiver then holds back (its
 * unexpected queue is full) is resent from the library's staged copy, so the receiver gets the bytes of the send,
 * never what the owner wrote into its buffer afterwards. A released request held by the window cannot be released
 * twice, and goes back to the pool when its partner fails instead (no request lost). Over UDP the same send
 * completes only on its ack.
 */
class MediumSendHoldTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0x4E1D;
    private static final int BYTES = 20_000;

    @Test
    void completesInTheRingAndAResendCarriesTheSentBytesNotTheReusedBuffer()
    {
        try (Arena arena = Arena.ofShared();
             Endpoint a = open(5, UserDriverOptions.defaults());
             Endpoint b = open(6, UserDriverOptions.defaults()))
        {
            final Partner aToB = TestEndpoints.connectPolling(a, b, KEY, TIMEOUT);
            final MemorySegment first = arena.allocate(BYTES);
            final MemorySegment second = arena.allocate(BYTES);
            fill(first, 1);
            fill(second, 2);
            final Request sendFirst = a.isend(aToB, 1, first);
            final Request sendSecond = a.isend(aToB, 2, second);
            assertEquals(RequestState.COMPLETED, sendFirst.state(), "in the ring before the receiver polled");
            assertEquals(RequestState.COMPLETED, sendSecond.state());
            assertEquals(BYTES, sendSecond.status().bytesTransferred());
            fill(first, 0x55);
            fill(second, 0x66);
            sendFirst.release();
            sendSecond.release();
            assertThrows(IllegalStateException.class, sendSecond::release, "released once already");
            // Before any receive is posted: the first message fills the unexpected queue, the second is held back.
            b.progressFromCaller();

            final MemorySegment in = arena.allocate(BYTES);
            receive(a, b, 1, in);
            check(in, 1);
            receive(a, b, 2, in);
            check(in, 2);
            assertTrue(a.counters().resentFrames() > 0, "the second message was held back and resent (unexpected queue of 1)");
        }
    }

    @Test
    void heldRequestsReturnToThePoolWhenThePartnerFailsBeforeAcking()
    {
        final int maxRequests = 4;
        try (Arena arena = Arena.ofShared();
             Endpoint a = TestEndpoints.open(TestEndpoints.options(9, KEY,
                     UserDriverOptions.defaults().withProgressThread(false))
                 .progressMode(ProgressMode.CALLER)
                 .maxRequests(maxRequests)
                 .resendTimeoutNs(10_000_000L)
                 .maxResends(5)
                 .build()))
        {
            final Partner aToB;
            try (Endpoint b = open(10, UserDriverOptions.defaults()))
            {
                aToB = TestEndpoints.connectPolling(a, b, KEY, TIMEOUT);
                final MemorySegment out = arena.allocate(BYTES);
                for (int i = 0; i < maxRequests; i++)
                {
                    final Request send = a.isend(aToB, i, out);
                    assertEquals(RequestState.COMPLETED, send.state(), "send " + i + " completed in the ring");
                    send.release();
                }
            }
            // b closed without polling: nothing is acknowledged, a gives b up after 6 silent resend timeouts.
            final long deadlineNs = System.nanoTime() + TIMEOUT.toNanos();
            while (aToB.isConnected())
            {
                a.progressFromCaller();
                assertTrue(System.nanoTime() - deadlineNs < 0, "partner not failed within " + TIMEOUT);
            }
            final Request[] receives = new Request[maxRequests];
            for (int i = 0; i < maxRequests; i++)
            {
                receives[i] = a.irecv(MatchInfo.ANY_SOURCE, i, MatchInfo.MASK_ALL, arena.allocate(8));
            }
            for (final Request r : receives)
            {
                assertTrue(r.cancel());
                r.release();
            }
        }
    }

    @Test
    void overUdpTheSameSendWaitsForItsAck()
    {
        try (Arena arena = Arena.ofShared();
             Endpoint a = open(7, UserDriverOptions.defaults().withSameHost(false));
             Endpoint b = open(8, UserDriverOptions.defaults().withSameHost(false)))
        {
            final Partner aToB = TestEndpoints.connectPolling(a, b, KEY, TIMEOUT);
            final MemorySegment out = arena.allocate(BYTES);
            fill(out, 3);
            final Request send = a.isend(aToB, 3, out);
            assertEquals(RequestState.SENDING, send.state(), "no ack yet: the receiver has not polled");
            final MemorySegment in = arena.allocate(BYTES);
            receive(a, b, 3, in);
            check(in, 3);
            final long deadlineNs = System.nanoTime() + TIMEOUT.toNanos();
            while (!send.test())
            {
                b.progressFromCaller();
                assertTrue(System.nanoTime() - deadlineNs < 0, "send not acked within " + TIMEOUT);
            }
            send.release();
        }
    }

    /** Receives the message tagged {@code tag} into {@code in}, making progress on both endpoints meanwhile. */
    private static void receive(final Endpoint a, final Endpoint b, final long tag, final MemorySegment in)
    {
        final Request r = b.irecv(MatchInfo.ANY_SOURCE, tag, MatchInfo.MASK_ALL, in);
        final long deadlineNs = System.nanoTime() + TIMEOUT.toNanos();
        while (!r.test())
        {
            a.progressFromCaller();
            assertTrue(System.nanoTime() - deadlineNs < 0, "message " + tag + " not received within " + TIMEOUT);
        }
        assertEquals(BYTES, r.status().bytesTransferred());
        r.release();
    }

    private static void fill(final MemorySegment s, final int seed)
    {
        for (int i = 0; i < BYTES; i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)(seed * 31 + i));
        }
    }

    private static void check(final MemorySegment s, final int seed)
    {
        for (int i = 0; i < BYTES; i++)
        {
            assertEquals((byte)(seed * 31 + i), s.get(ValueLayout.JAVA_BYTE, i), "message " + seed + ", byte " + i);
        }
    }

    private static Endpoint open(final int index, final UserDriverOptions driverOptions)
    {
        return TestEndpoints.open(TestEndpoints.options(index, KEY, driverOptions.withProgressThread(false))
            .progressMode(ProgressMode.CALLER)
            .unexpectedMaxMessages(1)
            .resendTimeoutNs(5_000_000L)
            .build());
    }
}
