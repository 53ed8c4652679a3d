package io.pinmx.kerneltests;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.spi.EndpointAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

import static io.pinmx.kerneltests.Patterns.assertPattern;
import static io.pinmx.kerneltests.Patterns.pattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint library (userlib) end to end on the kernel provider over {@code lo}: the scenarios of userlib's
 * loopback test that fit a TCG guest's budget. Eager paths run on any module with networking; rendezvous paths
 * need the module's pull engine and are skipped, saying so, without it.
 */
class KernelMessagingTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int KEY = 0x5EED;

    private final Arena arena = Arena.ofShared();
    private KernelDriver driver;
    private Endpoint a;
    private Endpoint b;
    private Partner aToB;

    @BeforeEach
    void open()
    {
        driver = KernelDevices.requireDevice();
        openPair(KernelDriverOptions.defaults());
    }

    private void openPair(final KernelDriverOptions options)
    {
        if (null != a)
        {
            a.close();
            b.close();
        }
        a = Endpoint.open(driver, EndpointOptions.builder().driverConfig(KernelDevices.config(1, options))
            .applicationKey(KEY).build());
        b = Endpoint.open(driver, EndpointOptions.builder().driverConfig(KernelDevices.config(2, options))
            .applicationKey(KEY).build());
        aToB = a.connect(b.address(), KEY, TIMEOUT);
    }

    private void requirePulls()
    {
        try (KernelEndpoint probe = (KernelEndpoint)driver.open(KernelDevices.config(3)))
        {
            KernelDevices.requirePulls(probe);
        }
    }

    @AfterEach
    void close()
    {
        if (null != a)
        {
            a.close();
            b.close();
        }
        arena.close();
    }

    private void exchange(final long size, final int seed)
    {
        final MemorySegment out = pattern(arena, size, seed);
        final MemorySegment in = arena.allocate(Math.max(1, size)).asSlice(0, size);
        final Request recv = b.irecv(MatchInfo.ANY_SOURCE, size, MatchInfo.MASK_ALL, in);
        final Request send = a.isend(aToB, size, out);
        final Status rs = recv.awaitOrThrow(TIMEOUT);
        send.awaitOrThrow(TIMEOUT);
        assertEquals(size, rs.messageLength(), "size " + size);
        assertEquals(size, rs.bytesTransferred(), "size " + size);
        assertFalse(rs.truncated());
        assertPattern(in, size, seed);
        recv.release();
        send.release();
    }

    @Test
    void everyEagerSizeClassArrivesIntact()
    {
        final long mediumFrag = 1500 - 56;
        final long[] sizes = {0, 1, 32, 33, 128, 129, mediumFrag, mediumFrag + 1, 32 * 1024 - 1, 32 * 1024};
        for (final long size : sizes)
        {
            exchange(size, (int)size);
        }
    }

    @ParameterizedTest(name = "pulls on the wire: {0}")
    @ValueSource(booleans = {false, true})
    void rendezvousSizesArriveIntactThroughTheModulesPullEngine(final boolean onWire)
    {
        requirePulls();
        openPair(KernelDriverOptions.defaults().withPullsOnWire(onWire));
        for (final long size : new long[]{32 * 1024 + 1, 200_000, 4 << 20})
        {
            exchange(size, (int)size);
        }
    }

    @Test
    void vectorsOf256SegmentsOnEitherSideArriveIntact()
    {
        requirePulls();
        final int segments = 256;
        final int segmentBytes = 4096;
        final MemorySegment whole = pattern(arena, (long)segments * segmentBytes, 9);
        final MemorySegment[] vector = new MemorySegment[segments];
        for (int i = 0; i < segments; i++)
        {
            vector[i] = arena.allocate(segmentBytes);
            vector[i].copyFrom(whole.asSlice((long)i * segmentBytes, segmentBytes));
        }
        final MemorySegment in = arena.allocate(whole.byteSize());
        final Request recv = b.irecv(MatchInfo.ANY_SOURCE, 5, MatchInfo.MASK_ALL, in);
        final Request send = a.isend(aToB, 5, vector, segments);
        recv.awaitOrThrow(TIMEOUT);
        send.awaitOrThrow(TIMEOUT);
        assertEquals(-1, whole.mismatch(in), "256-segment send into one buffer");
        recv.release();
        send.release();

        final MemorySegment[] into = new MemorySegment[segments];
        for (int i = 0; i < segments; i++)
        {
            into[i] = arena.allocate(segmentBytes);
        }
        final Request scatter = b.irecv(MatchInfo.ANY_SOURCE, 6, MatchInfo.MASK_ALL, into, segments);
        final Request gathered = a.isend(aToB, 6, whole);
        scatter.awaitOrThrow(TIMEOUT);
        gathered.awaitOrThrow(TIMEOUT);
        for (int i = 0; i < segments; i++)
        {
            assertEquals(-1, whole.asSlice((long)i * segmentBytes, segmentBytes).mismatch(into[i]), "segment " + i);
        }
        scatter.release();
        gathered.release();
    }

    @Test
    void aFailedPullFailsBothSidesNamingThePeerAndTheCause()
    {
        requirePulls();
        // a declared segment that is not mapped: the declaration succeeds, the pull faults
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(4096);
        final MemorySegment head = pattern(arena, 40_000, 7);
        final MemorySegment in = arena.allocate(head.byteSize() + unmapped.byteSize());
        final Request recv = b.irecv(MatchInfo.ANY_SOURCE, 9, MatchInfo.MASK_ALL, in);
        final Request send = a.isend(aToB, 9, new MemorySegment[]{head, unmapped}, 2);
        final MxException receiverError = assertThrows(MxException.class, () -> recv.awaitOrThrow(TIMEOUT));
        assertTrue(receiverError.getMessage().contains("SEGMENT_FAULT"), receiverError.getMessage());
        final MxException senderError = assertThrows(MxException.class, () -> send.awaitOrThrow(TIMEOUT));
        assertTrue(senderError.getMessage().contains("(" + b.address().board() + "/2 session ") &&
            senderError.getMessage().contains(" failed to pull the message: SEGMENT_FAULT"), senderError.getMessage());
        recv.release();
        send.release();

        // the partner carries on, and a truncated rendezvous is no error for the sender
        final MemorySegment shortIn = arena.allocate(50_000);
        final Request shortRecv = b.irecv(MatchInfo.ANY_SOURCE, 10, MatchInfo.MASK_ALL, shortIn);
        final Request shortSend = a.isend(aToB, 10, pattern(arena, 100_000, 3));
        assertTrue(shortRecv.awaitOrThrow(TIMEOUT).truncated());
        assertEquals(50_000, shortSend.awaitOrThrow(TIMEOUT).bytesTransferred(), "the sender learns the bytes pulled");
        assertPattern(shortIn, 50_000, 3);
        shortRecv.release();
        shortSend.release();
    }

    @Test
    void thousandsOfMixedEagerMessagesArriveInOrderAndIntact()
    {
        final int messages = 2_000;
        final int[] sizes = {0, 7, 32, 100, 128, 700, 1444, 3000, 20_000};
        final MemorySegment in = arena.allocate(20_000);
        for (int i = 0; i < messages; i++)
        {
            final int size = sizes[i % sizes.length];
            final Request recv = b.irecv(MatchInfo.ANY_SOURCE, 42, MatchInfo.MASK_ALL, in.asSlice(0, size));
            final Request send = a.isend(aToB, 42, pattern(arena, size, i));
            recv.awaitOrThrow(TIMEOUT);
            send.awaitOrThrow(TIMEOUT);
            assertPattern(in, size, i);
            recv.release();
            send.release();
        }
    }

    @Test
    void unexpectedEagerMessagesWaitForTheirReceive()
    {
        final Request s1 = a.isend(aToB, 1, pattern(arena, 100, 1));
        final Request s2 = a.isend(aToB, 2, pattern(arena, 20_000, 2));
        final Status probe = new Status();
        assertTrue(b.probe(MatchInfo.ANY_SOURCE, 2, MatchInfo.MASK_ALL, probe, TIMEOUT));
        assertEquals(20_000, probe.messageLength());
        final MemorySegment in2 = arena.allocate(20_000);
        final MemorySegment in1 = arena.allocate(100);
        final Request r2 = b.irecv(MatchInfo.ANY_SOURCE, 2, MatchInfo.MASK_ALL, in2);
        final Request r1 = b.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, in1);
        r1.awaitOrThrow(TIMEOUT);
        r2.awaitOrThrow(TIMEOUT);
        s1.awaitOrThrow(TIMEOUT);
        s2.awaitOrThrow(TIMEOUT);
        assertPattern(in1, 100, 1);
        assertPattern(in2, 20_000, 2);
    }

    @Test
    void aTruncatedEagerReceiveKeepsItsBufferBounds()
    {
        final MemorySegment in = arena.allocate(1000);
        in.fill((byte)0x5A);
        final Request recv = b.irecv(MatchInfo.ANY_SOURCE, 3, MatchInfo.MASK_ALL, in.asSlice(0, 600));
        a.send(aToB, 3, pattern(arena, 5000, 3), TIMEOUT);
        final Status st = recv.awaitOrThrow(TIMEOUT);
        assertTrue(st.truncated());
        assertEquals(5000, st.messageLength());
        assertEquals(600, st.bytesTransferred());
        assertPattern(in.asSlice(0, 600), 600, 3);
        assertEquals(-1, in.asSlice(600).mismatch(arena.allocate(400).fill((byte)0x5A)), "nothing past the buffer");
        recv.release();
    }

    @Test
    void wrongKeyIsRefusedClearly()
    {
        final MxException e = assertThrows(MxException.class, () -> b.connect(a.address(), KEY + 1, TIMEOUT));
        assertTrue(e.getMessage().contains("BAD_KEY"), e.getMessage());
        final Partner bToA = b.connect(a.address(), KEY, TIMEOUT);
        final MemorySegment in = arena.allocate(10);
        final Request recv = a.irecv(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, in);
        b.send(bToA, 7, pattern(arena, 10, 7), TIMEOUT);
        recv.awaitOrThrow(TIMEOUT);
        assertPattern(in, 10, 7);
        recv.release();
    }

    @Test
    void connectingToNobodyTimesOutNamingTheAddress()
    {
        final EndpointAddress nobody = new EndpointAddress(a.address().board(), 9, 0);
        final MxException e = assertThrows(MxException.class, () -> b.connect(nobody, KEY, Duration.ofMillis(500)));
        assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        assertTrue(e.getMessage().contains(a.address().board() + "/9"), e.getMessage());
        exchange(4, 4);
    }
}
