package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two endpoints in one JVM over the user-space driver: the quickest full-stack check of each
 * protocol path. The two-process tests cover the same paths between real JVMs.
 */
class EndpointLoopbackTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0x5EED;

    private final Arena arena = Arena.ofShared();
    private Endpoint a;
    private Endpoint b;
    private Partner aToB;

    @BeforeEach
    void open()
    {
        a = TestEndpoints.open(TestEndpoints.options(1, KEY, UserDriverOptions.defaults()).build());
        b = TestEndpoints.open(TestEndpoints.options(2, KEY, UserDriverOptions.defaults()).build());
        aToB = a.connect(b.address(), KEY, TIMEOUT);
    }

    @AfterEach
    void close()
    {
        a.close();
        b.close();
        arena.close();
    }

    private MemorySegment pattern(final long length, final int seed)
    {
        final MemorySegment s = arena.allocate(Math.max(1, length)).asSlice(0, length);
        for (long i = 0; i < length; i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 31 + seed));
        }
        return s;
    }

    private static void assertPattern(final MemorySegment s, final long length, final int seed)
    {
        for (long i = 0; i < length; i++)
        {
            if (s.get(ValueLayout.JAVA_BYTE, i) != (byte)(i * 31 + seed))
            {
                throw new AssertionError("byte " + i + " of " + length + " differs");
            }
        }
    }

    @Test
    void everySizeClassArrivesIntact()
    {
        final long[] sizes = {0, 1, 32, 33, 128, 129, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1, 1 << 20};
        for (final long size : sizes)
        {
            final MemorySegment out = pattern(size, (int)size);
            final MemorySegment in = arena.allocate(Math.max(1, size)).asSlice(0, size);
            final Request recv = b.irecv(MatchInfo.ANY_SOURCE, size, MatchInfo.MASK_ALL, in);
            final Request send = a.isend(aToB, size, out);
            final Status rs = recv.awaitOrThrow(TIMEOUT);
            send.awaitOrThrow(TIMEOUT);
            assertEquals(size, rs.messageLength(), "size " + size);
            assertEquals(size, rs.bytesTransferred(), "size " + size);
            assertFalse(rs.truncated());
            assertEquals(size, rs.matchInfo());
            assertPattern(in, size, (int)size);
            recv.release();
            send.release();
        }
    }

    @Test
    void aFailedPullFailsBothSidesNamingThePeerAndTheCause()
    {
        // a declared segment that is not mapped: the declare succeeds (as in Open-MX), the pull faults
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(4096);
        final MemorySegment head = pattern(40_000, 7);
        final long length = head.byteSize() + unmapped.byteSize();
        final MemorySegment in = arena.allocate(length);
        final Request recv = b.irecv(MatchInfo.ANY_SOURCE, 9, MatchInfo.MASK_ALL, in);
        final Request send = a.isend(aToB, 9, new MemorySegment[]{ head, unmapped }, 2);

        final MxException receiverError = assertThrows(MxException.class, () -> recv.awaitOrThrow(TIMEOUT));
        assertTrue(receiverError.getMessage().contains("SEGMENT_FAULT"), receiverError.getMessage());
        final MxException senderError = assertThrows(MxException.class, () -> send.awaitOrThrow(TIMEOUT));
        assertTrue(senderError.getMessage().contains("receiver " + aToB.describe() + " failed to pull the message: " +
            "SEGMENT_FAULT"), senderError.getMessage());
        assertEquals(RequestState.FAILED, send.state());
        recv.release();
        send.release();

        // the partner carries on, and a truncated rendezvous is no error for the sender
        final MemorySegment out = pattern(100_000, 3);
        final MemorySegment shortIn = arena.allocate(50_000);
        final Request shortRecv = b.irecv(MatchInfo.ANY_SOURCE, 10, MatchInfo.MASK_ALL, shortIn);
        final Request shortSend = a.isend(aToB, 10, out);
        assertTrue(shortRecv.awaitOrThrow(TIMEOUT).truncated());
        assertEquals(50_000, shortSend.awaitOrThrow(TIMEOUT).bytesTransferred(), "the sender learns the bytes pulled");
        assertPattern(shortIn, 50_000, 3);
        shortRecv.release();
        shortSend.release();
    }

    @Test
    void unexpectedEagerAndRendezvousMessagesWaitForTheirReceive()
    {
        final MemorySegment small = pattern(100, 1);
        final MemorySegment large = pattern(200_000, 2);
        final Request s1 = a.isend(aToB, 1, small);
        final Request s2 = a.isend(aToB, 2, large);
        final Status probe = new Status();
        assertTrue(b.probe(MatchInfo.ANY_SOURCE, 2, MatchInfo.MASK_ALL, probe, TIMEOUT));
        assertEquals(200_000, probe.messageLength());
        final MemorySegment in2 = arena.allocate(200_000);
        final MemorySegment in1 = arena.allocate(100);
        final Request r2 = b.irecv(MatchInfo.ANY_SOURCE, 2, MatchInfo.MASK_ALL, in2);
        final Request r1 = b.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, in1);
        r1.awaitOrThrow(TIMEOUT);
        r2.awaitOrThrow(TIMEOUT);
        s1.awaitOrThrow(TIMEOUT);
        s2.awaitOrThrow(TIMEOUT);
        assertPattern(in1, 100, 1);
        assertPattern(in2, 200_000, 2);
    }

    @Test
    void wrongKeyIsRefusedClearly()
    {
        final MxException e = assertThrows(MxException.class, () -> b.connect(a.address(), KEY + 1, TIMEOUT));
        assertTrue(e.getMessage().contains("BAD_KEY"), e.getMessage());
        assertTrue(e.getMessage().contains("0x" + Integer.toHexString(KEY + 1)), e.getMessage());
        final Endpoint c = TestEndpoints.open(TestEndpoints.options(3, KEY, UserDriverOptions.defaults()).build());
        try
        {
            final MxException fresh = assertThrows(MxException.class, () -> c.connect(a.address(), KEY + 1, TIMEOUT));
            assertTrue(fresh.getMessage().contains("BAD_KEY"), fresh.getMessage());
            final Partner cToA = c.connect(a.address(), KEY, TIMEOUT);
            c.send(cToA, 7, pattern(10, 7), TIMEOUT);
            final MemorySegment in = arena.allocate(10);
            final Status st = new Status();
            a.recv(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, in, st, TIMEOUT);
            assertPattern(in, 10, 7);
        }
        finally
        {
            c.close();
        }
        final Partner bToA = b.connect(a.address(), KEY, TIMEOUT);
        assertEquals(io.pinmx.mx.reliability.PartnerState.CONNECTED, bToA.state());
    }

    @Test
    void badInputIsRefusedWithTheCulpritNamedAndNothingChanges()
    {
        final MemorySegment buf = arena.allocate(16);
        final IllegalArgumentException mask = assertThrows(IllegalArgumentException.class,
            () -> b.irecv(MatchInfo.ANY_SOURCE, 0xF0L, 0x0FL, buf));
        assertTrue(mask.getMessage().contains("0xf0") && mask.getMessage().contains("0xf"), mask.getMessage());
        final IllegalArgumentException source = assertThrows(IllegalArgumentException.class,
            () -> b.irecv(42, 0, MatchInfo.MASK_ANY, buf));
        assertTrue(source.getMessage().contains("42"), source.getMessage());
        final MemorySegment[] tooMany = new MemorySegment[257];
        java.util.Arrays.fill(tooMany, buf);
        final IllegalArgumentException vector = assertThrows(IllegalArgumentException.class,
            () -> a.isend(aToB, 1, tooMany, 257));
        assertTrue(vector.getMessage().contains("257"), vector.getMessage());
        final MemorySegment[] withNull = {buf, null};
        final IllegalArgumentException nullSegment = assertThrows(IllegalArgumentException.class,
            () -> b.irecv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, withNull, 2));
        assertTrue(nullSegment.getMessage().contains("segment 1"), nullSegment.getMessage());

        final Request pending = b.irecv(MatchInfo.ANY_SOURCE, 5, MatchInfo.MASK_ALL, buf);
        final IllegalStateException early = assertThrows(IllegalStateException.class, pending::release);
        assertTrue(early.getMessage().contains("not done"), early.getMessage());
        assertTrue(pending.cancel());
        pending.release();
        final IllegalStateException twice = assertThrows(IllegalStateException.class, pending::release);
        assertTrue(twice.getMessage().contains("already released"), twice.getMessage());

        final Request ok = b.irecv(MatchInfo.ANY_SOURCE, 6, MatchInfo.MASK_ALL, buf);
        a.send(aToB, 6, pattern(16, 6), TIMEOUT);
        ok.awaitOrThrow(TIMEOUT);
        assertPattern(buf, 16, 6);
        ok.release();
    }

    @Test
    void aBufferConfinedToTheCallersThreadIsRefusedAtPostTimeNamingWhatToUse()
    {
        try (Arena confined = Arena.ofConfined())
        {
            final MemorySegment mine = confined.allocate(64);
            final IllegalArgumentException receive = assertThrows(IllegalArgumentException.class,
                () -> b.irecv(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, mine));
            assertTrue(receive.getMessage().startsWith("buffer segment " + mine + " is confined"), receive.getMessage());
            assertTrue(receive.getMessage().contains("Arena.ofConfined()") &&
                receive.getMessage().contains("Arena.ofShared(), Arena.global() or Arena.ofAuto()"), receive.getMessage());
            final MemorySegment[] vector = {pattern(8, 1), mine};
            final IllegalArgumentException send = assertThrows(IllegalArgumentException.class,
                () -> a.isend(aToB, 7, vector, 2));
            assertTrue(send.getMessage().startsWith("segment vector: segment 1 of 2 "), send.getMessage());
            assertThrows(IllegalArgumentException.class, () -> a.issend(aToB, 7, mine));
        }

        // nothing was posted: a shared buffer of the same size still receives the next message, and heap memory
        // (staged) is no thread's own either
        final MemorySegment shared = arena.allocate(64);
        final Request ok = b.irecv(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, shared);
        a.send(aToB, 7, MemorySegment.ofArray(new byte[64]).fill((byte)9), TIMEOUT);
        assertEquals(64, ok.awaitOrThrow(TIMEOUT).bytesTransferred());
        assertEquals(9, shared.get(ValueLayout.JAVA_BYTE, 63));
        ok.release();
    }

    @Test
    void peekAndWaitAnyReportCompletedRequests()
    {
        assertEquals(null, b.peek());
        final MemorySegment in1 = arena.allocate(8);
        final MemorySegment in2 = arena.allocate(8);
        final Request r1 = b.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, in1);
        final Request r2 = b.irecv(MatchInfo.ANY_SOURCE, 2, MatchInfo.MASK_ALL, in2);
        final Request[] both = {r1, r2};
        assertEquals(-1, b.waitAny(both, 2, Duration.ofMillis(50)), "nothing sent yet");
        a.send(aToB, 2, pattern(8, 2), TIMEOUT);
        assertEquals(1, b.waitAny(both, 2, TIMEOUT));
        org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> b.peek() == r2);
        assertEquals(r2, b.peek(), "peek leaves the request in place");
        r2.release();
        assertEquals(null, b.peek());
        a.send(aToB, 1, pattern(8, 1), TIMEOUT);
        r1.awaitOrThrow(TIMEOUT);
        assertEquals(r1, b.peek());
        r1.release();
    }

    @Test
    void aReopenedPeerRefusesTheOldSessionAndOnlyThatPartnerFails()
    {
        final Endpoint c = TestEndpoints.open(TestEndpoints.options(3, KEY, UserDriverOptions.defaults()).build());
        try
        {
            final Partner aToC = a.connect(c.address(), KEY, TIMEOUT);
            final int basePort = b.address().board().basePort();
            b.close();
            b = TestEndpoints.open(TestEndpoints.options(2, KEY,
                UserDriverOptions.defaults().withBind(java.net.InetAddress.getLoopbackAddress(), basePort)).build());
            // Closing b told a (its goodbye NACK): a gives the old connection up without sending to it.
            org.awaitility.Awaitility.await("a gives up its partner of the closed b").atMost(TIMEOUT)
                .until(() -> io.pinmx.mx.reliability.PartnerState.FAILED == aToB.state());
            assertTrue(aToB.failure().contains("BAD_SESSION"), aToB.failure());
            final MxException stale = org.junit.jupiter.api.Assertions.assertThrows(MxException.class,
                () -> a.isend(aToB, 1, pattern(8, 1)));
            assertTrue(stale.getMessage().contains("BAD_SESSION"), stale.getMessage());

            final MemorySegment in = arena.allocate(8);
            final Request other = c.irecv(MatchInfo.ANY_SOURCE, 2, MatchInfo.MASK_ALL, in);
            a.send(aToC, 2, pattern(8, 2), TIMEOUT);
            other.awaitOrThrow(TIMEOUT);
            other.release();
            assertPattern(in, 8, 2);

            final Partner again = a.connect(b.address(), KEY, TIMEOUT);
            final Request fresh = b.irecv(MatchInfo.ANY_SOURCE, 3, MatchInfo.MASK_ALL, in);
            a.send(again, 3, pattern(8, 3), TIMEOUT);
            fresh.awaitOrThrow(TIMEOUT);
            fresh.release();
            assertPattern(in, 8, 3);
        }
        finally
        {
            c.close();
        }
    }

    @Test
    void connectingToNobodyTimesOutNamingTheAddress()
    {
        final io.pinmx.pin.spi.EndpointAddress nobody =
            new io.pinmx.pin.spi.EndpointAddress(a.address().board(), 9, 0);
        final long start = System.nanoTime();
        final MxException e = assertThrows(MxException.class, () -> b.connect(nobody, KEY, Duration.ofMillis(300)));
        final long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        assertTrue(e.getMessage().contains(a.address().board() + "/9"), e.getMessage());
        assertTrue(tookMs >= 300 && tookMs < 10_000, "took " + tookMs + " ms");
        final MemorySegment in = arena.allocate(4);
        final Request still = b.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, in);
        a.send(aToB, 1, pattern(4, 1), TIMEOUT);
        still.awaitOrThrow(TIMEOUT);
        still.release();
    }
}
