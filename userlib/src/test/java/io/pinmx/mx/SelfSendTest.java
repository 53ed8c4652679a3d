package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.user.UserDriverOptions;
import io.pinmx.pin.wire.FrameKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An endpoint that sends to itself (an MPI rank sending to its own rank) over the user-space driver: every frame
 * takes its own shared-memory ring, never UDP; a rendezvous is one copy in the process, no driver pull, unless a
 * buffer is at a raw address (then the driver pulls, and reports a fault); every message arrives intact.
 */
class SelfSendTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int KEY = 0x5E1F;
    private static final long[] SIZES = {0, 1, 32, 33, 128, 129, 8192, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1,
        1 << 20, 4 << 20};

    private final Arena arena = Arena.ofShared();
    private Endpoint endpoint;

    @AfterEach
    void close()
    {
        if (endpoint != null)
        {
            endpoint.close();
        }
        arena.close();
    }

    private Partner openSelf(final ProgressMode mode)
    {
        final UserDriverOptions driver = UserDriverOptions.defaults().withProgressThread(ProgressMode.THREAD == mode);
        endpoint = TestEndpoints.open(TestEndpoints.options(1, KEY, driver).progressMode(mode).ackDelayNs(0).build());
        return endpoint.connect(endpoint.address(), KEY, TIMEOUT);
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void everySizeClassReachesItselfByteExactOverSharedMemory(final ProgressMode mode)
    {
        final Partner self = openSelf(mode);
        for (final long size : SIZES)
        {
            for (final boolean receiveFirst : new boolean[] {true, false})
            {
                final long tag = size * 2 + (receiveFirst ? 1 : 0);
                final MemorySegment out = arena.allocate(Math.max(1, size)).asSlice(0, size);
                Patterns.fill(out, tag);
                final MemorySegment in = arena.allocate(Math.max(1, size)).asSlice(0, size);
                final Request recv;
                final Request send;
                if (receiveFirst)
                {
                    recv = endpoint.irecv(MatchInfo.ANY_SOURCE, tag, MatchInfo.MASK_ALL, in);
                    send = endpoint.isend(self, tag, out);
                }
                else
                {
                    send = endpoint.isend(self, tag, out);
                    recv = endpoint.irecv(MatchInfo.ANY_SOURCE, tag, MatchInfo.MASK_ALL, in);
                }
                final Status status = recv.awaitOrThrow(TIMEOUT);
                send.awaitOrThrow(TIMEOUT);
                assertEquals(size, status.bytesTransferred(), "size " + size);
                assertEquals(self.id(), status.source(), "size " + size);
                assertEquals(-1, Patterns.firstMismatch(in, size, tag), "size " + size);
                recv.release();
                send.release();
            }
        }
        final DriverCounters counters = endpoint.counters().driver();
        assertEquals(0, counters.get(Counter.PULLS_STARTED), "every rendezvous a copy in the process, no pull");
        assertEquals(0, counters.get(Counter.FRAMES_SENT_PULL), "no pull by frames");
        assertEquals(frames(counters, true), counters.get(Counter.SHM_FRAMES_SENT), "every frame into the own ring");
        assertEquals(frames(counters, false), counters.get(Counter.SHM_FRAMES_RECEIVED), "every frame from it");
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void selfSendsBeyondTheRingsCapacityWaitAndArriveInOrder(final ProgressMode mode)
    {
        // 160 unexpected 32 KiB messages (5 MiB) into a 1 MiB ring before any receive is posted
        final Partner self = openSelf(mode);
        final int messages = 160;
        final long size = 32 * 1024;
        final MemorySegment out = arena.allocate(size * messages);
        final Request[] sends = new Request[messages];
        for (int i = 0; i < messages; i++)
        {
            final MemorySegment piece = out.asSlice(i * size, size);
            Patterns.fill(piece, i);
            sends[i] = endpoint.isend(self, 7, piece);
        }
        final MemorySegment in = arena.allocate(size);
        for (int i = 0; i < messages; i++)
        {
            endpoint.recv(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, in, new Status(), TIMEOUT);
            assertEquals(-1, Patterns.firstMismatch(in, size, i), "message " + i + " in order and intact");
        }
        for (final Request send : sends)
        {
            send.awaitOrThrow(TIMEOUT);
            send.release();
        }
        assertEquals(0, endpoint.counters().failedSends());
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void rendezvousVectorsAndTruncationCopyLikeAPull(final ProgressMode mode)
    {
        final Partner self = openSelf(mode);
        // three native pieces into two heap pieces
        final MemorySegment out = filled(300_000, 11);
        final MemorySegment[] outVector = {out.asSlice(0, 70_000), out.asSlice(70_000, 0), out.asSlice(70_000, 230_000)};
        final byte[] first = new byte[123_457];
        final byte[] second = new byte[300_000 - first.length];
        final Request recv = endpoint.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL,
            new MemorySegment[] {MemorySegment.ofArray(first), MemorySegment.ofArray(second)}, 2);
        final Request send = endpoint.isend(self, 1, outVector, 3);
        assertEquals(300_000, recv.awaitOrThrow(TIMEOUT).bytesTransferred());
        assertEquals(300_000, send.awaitOrThrow(TIMEOUT).bytesTransferred());
        final MemorySegment joined = arena.allocate(300_000);
        MemorySegment.copy(MemorySegment.ofArray(first), 0, joined, 0, first.length);
        MemorySegment.copy(MemorySegment.ofArray(second), 0, joined, first.length, second.length);
        assertEquals(-1, Patterns.firstMismatch(joined, 300_000, 11));
        recv.release();
        send.release();

        // a heap send (the library stages it) into a short native receive with guard bytes after it
        final byte[] heapOut = new byte[200_000];
        Patterns.fill(MemorySegment.ofArray(heapOut), 12);
        final MemorySegment space = arena.allocate(120_000);
        final Request shortRecv = endpoint.irecv(MatchInfo.ANY_SOURCE, 2, MatchInfo.MASK_ALL, space.asSlice(0, 100_000));
        final Request heapSend = endpoint.isend(self, 2, MemorySegment.ofArray(heapOut));
        final Status status = shortRecv.awaitOrThrow(TIMEOUT);
        assertTrue(status.truncated());
        assertEquals(200_000, status.messageLength());
        assertEquals(100_000, status.bytesTransferred());
        assertEquals(100_000, heapSend.awaitOrThrow(TIMEOUT).bytesTransferred(), "the sender learns the bytes copied");
        assertEquals(-1, Patterns.firstMismatch(space, 100_000, 12));
        assertEquals(-1, space.asSlice(100_000).asByteBuffer().mismatch(ByteBuffer.allocate(20_000)), "guard bytes");
        shortRecv.release();
        heapSend.release();
        assertEquals(0, endpoint.counters().driver().get(Counter.PULLS_STARTED));
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void aRawAddressIsPulledByTheDriverWhichReportsAnUnmappedOne(final ProgressMode mode)
    {
        final Partner self = openSelf(mode);
        final MemorySegment out = filled(100_000, 13);
        final MemorySegment rawOut = MemorySegment.ofAddress(out.address()).reinterpret(out.byteSize());
        final MemorySegment in = arena.allocate(100_000);
        final Request recv = endpoint.irecv(MatchInfo.ANY_SOURCE, 3, MatchInfo.MASK_ALL, in);
        final Request send = endpoint.isend(self, 3, rawOut);
        assertEquals(100_000, recv.awaitOrThrow(TIMEOUT).bytesTransferred());
        send.awaitOrThrow(TIMEOUT);
        assertEquals(-1, Patterns.firstMismatch(in, 100_000, 13));
        assertEquals(1, endpoint.counters().driver().get(Counter.PULLS_STARTED), "a raw address is pulled");
        recv.release();
        send.release();

        // declared but not mapped: the pull faults, both requests fail naming it, the JVM goes on
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(4096);
        final MemorySegment faultIn = arena.allocate(40_000 + 4096);
        final Request faultRecv = endpoint.irecv(MatchInfo.ANY_SOURCE, 4, MatchInfo.MASK_ALL, faultIn);
        final Request faultSend = endpoint.isend(self, 4, new MemorySegment[] {out.asSlice(0, 40_000), unmapped}, 2);
        final MxException receiverError = assertThrows(MxException.class, () -> faultRecv.awaitOrThrow(TIMEOUT));
        assertTrue(receiverError.getMessage().contains("SEGMENT_FAULT"), receiverError.getMessage());
        final MxException senderError = assertThrows(MxException.class, () -> faultSend.awaitOrThrow(TIMEOUT));
        assertTrue(senderError.getMessage().contains("SEGMENT_FAULT"), senderError.getMessage());
        faultRecv.release();
        faultSend.release();
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void aReceiveBufferClosedInFlightFailsBothRequestsNamingTheCopy(final ProgressMode mode)
    {
        final Partner self = openSelf(mode);
        final Arena closing = Arena.ofShared();
        final Request recv = endpoint.irecv(MatchInfo.ANY_SOURCE, 5, MatchInfo.MASK_ALL, closing.allocate(100_000));
        closing.close();
        final MemorySegment out = arena.allocate(100_000);
        final Request send = endpoint.isend(self, 5, out);
        final MxException receiverError = assertThrows(MxException.class, () -> recv.awaitOrThrow(TIMEOUT));
        assertTrue(receiverError.getMessage().contains("copy of 100000 bytes from this endpoint's own send failed") &&
            receiverError.getMessage().contains("closed"), receiverError.getMessage());
        final MxException senderError = assertThrows(MxException.class, () -> send.awaitOrThrow(TIMEOUT));
        assertTrue(senderError.getMessage().contains("PULL_FAILED"), senderError.getMessage());
        recv.release();
        send.release();

        // the endpoint goes on
        final MemorySegment in = arena.allocate(100_000);
        Patterns.fill(out, 14);
        final Request next = endpoint.irecv(MatchInfo.ANY_SOURCE, 6, MatchInfo.MASK_ALL, in);
        final Request nextSend = endpoint.isend(self, 6, out);
        assertEquals(100_000, next.awaitOrThrow(TIMEOUT).bytesTransferred());
        nextSend.awaitOrThrow(TIMEOUT);
        assertEquals(-1, Patterns.firstMismatch(in, 100_000, 14));
        next.release();
        nextSend.release();
    }

    private MemorySegment filled(final long bytes, final long seed)
    {
        final MemorySegment segment = arena.allocate(bytes);
        Patterns.fill(segment, seed);
        return segment;
    }

    private static long frames(final DriverCounters counters, final boolean sent)
    {
        long frames = 0;
        for (final FrameKind kind : FrameKind.values())
        {
            frames += counters.get(sent ? Counter.sent(kind) : Counter.received(kind));
        }
        return frames;
    }
}
