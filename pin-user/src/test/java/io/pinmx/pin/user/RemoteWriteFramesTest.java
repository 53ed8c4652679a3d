package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.RemoteRegion;
import io.pinmx.pin.wire.AtomicFrame;
import io.pinmx.pin.wire.AtomicReplyFrame;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.PutAckFrame;
import io.pinmx.pin.wire.PutFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The target side of the user driver's puts and atomics, frame by frame from a raw UDP socket standing in for an
 * origin that resends, duplicates and replays: a duplicated ATOMIC is applied once and answered twice with the same
 * old value; a late duplicate of a put that ended is dropped unwritten, so the later put's bytes stay; a wrong key, a
 * word past the region and a word not naturally aligned in memory are refused with the NACK naming the cause and
 * counted, and the memory is untouched; an unmapped segment fails a PUT and an ATOMIC with NACK SEGMENT_FAULT. The library cannot send these frames itself.
 */
class RemoteWriteFramesTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int REGION_BYTES = 4096;
    private static final int ORIGIN_SESSION = 0x0C0FFEE;

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();
    private final FrameChecksum checksum = new FrameChecksum();
    private final MemorySegment frame = Arena.ofAuto().allocate(2048, 8);
    private final ByteBuffer received = ByteBuffer.allocateDirect(2048);
    private DriverEndpoint target;
    private MemorySegment memory;
    private RemoteRegion region;
    private DatagramChannel origin;
    private InetSocketAddress to;

    @BeforeEach
    void open() throws IOException
    {
        target = resources.open(UserDriverOptions.defaults().withSameHost(false));
        memory = arena.allocate(REGION_BYTES + 8, 8).asSlice(8, REGION_BYTES);
        region = target.declareRemoteRegion(new MemorySegment[] {memory}, 1);
        origin = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        origin.configureBlocking(false);
        to = target.address().board().endpointSocketAddress(0);
    }

    @AfterEach
    void close() throws IOException
    {
        origin.close();
        resources.close();
        arena.close();
    }

    @Test
    void aDuplicatedAtomicIsAppliedOnceAndAnsweredWithTheSameOldValue() throws IOException
    {
        memory.set(ValueLayout.JAVA_LONG, 64, 100);
        sendAtomic(7, region.key(), AtomicFrame.OP_FETCH_ADD, 8, 64, 5);
        assertEquals(100, awaitReply(FrameKind.ATOMIC_REPLY).old());
        sendAtomic(7, region.key(), AtomicFrame.OP_FETCH_ADD, 8, 64, 5);
        assertEquals(100, awaitReply(FrameKind.ATOMIC_REPLY).old(), "the resent request's answer");
        assertEquals(105, memory.get(ValueLayout.JAVA_LONG, 64), "added once");
        assertEquals(1, target.counters().get(Counter.ATOMIC_DUPLICATES));
        sendAtomic(8, region.key(), AtomicFrame.OP_FETCH_ADD, 8, 64, 5);
        assertEquals(105, awaitReply(FrameKind.ATOMIC_REPLY).old());
        assertEquals(110, memory.get(ValueLayout.JAVA_LONG, 64));
        assertEquals(2, target.counters().get(Counter.ATOMICS_APPLIED));
    }

    @Test
    void aLateDuplicateOfAnEndedPutIsDroppedAndTheLaterBytesKept() throws IOException
    {
        final byte[] first = putFrame(1, 1, (byte)0x11);
        origin.send(ByteBuffer.wrap(first), to);
        awaitAck();
        origin.send(ByteBuffer.wrap(putFrame(2, 2, (byte)0x22)), to);
        awaitAck();
        origin.send(ByteBuffer.wrap(first), to);
        await().atMost(TIMEOUT).until(() -> target.counters().get(Counter.PUT_STALE) == 1);
        for (int i = 0; i < 100; i++)
        {
            assertEquals(0x22, memory.get(ValueLayout.JAVA_BYTE, 300 + i), "byte " + i + " of the later put");
        }
        assertEquals(200, target.counters().get(Counter.PUT_BYTES_WRITTEN));
    }

    @Test
    void aWrongKeyAWordPastTheEndAndAMisalignedWordAreRefusedAndTouchNothing() throws IOException
    {
        sendAtomic(1, region.key() ^ 1, AtomicFrame.OP_SWAP, 8, 0, -1);
        assertNack(NackReason.BAD_KEY, 0);
        origin.send(ByteBuffer.wrap(putFrame(1, 1, (byte)0x33, region.key() + 1)), to);
        assertNack(NackReason.BAD_KEY, 300);
        sendAtomic(2, region.key(), AtomicFrame.OP_SWAP, 8, REGION_BYTES - 4, -1);
        assertNack(NackReason.OUT_OF_RANGE, REGION_BYTES - 4);
        sendAtomic(3, region.key(), AtomicFrame.OP_SWAP, 8, 4, -1);
        assertNack(NackReason.BAD_FIELD, 4);
        assertEquals(2, target.counters().get(Counter.REMOTE_BAD_KEY));
        assertEquals(2, target.counters().get(Counter.REMOTE_BAD_RANGE));
        assertEquals(0, target.counters().get(Counter.ATOMICS_APPLIED));
        assertEquals(-1, MemorySegment.mismatch(memory, 0, REGION_BYTES, arena.allocate(REGION_BYTES), 0, REGION_BYTES),
            "the region is untouched");
    }

    @Test
    void anUnmappedSegmentFailsAPutAndAnAtomicWithASegmentFaultNotACrash() throws IOException
    {
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(REGION_BYTES);
        final RemoteRegion holed = target.declareRemoteRegion(new MemorySegment[] {memory, unmapped}, 2);
        final AtomicFrame atomic = new AtomicFrame().wrap(frame, 0);
        atomic.encodeHeader(FrameKind.ATOMIC, 0, 0, target.address().sessionId(), ORIGIN_SESSION, 0,
            AtomicFrame.OPERAND_BYTES);
        atomic.encode(1, holed.regionId(), REGION_BYTES + 64, holed.key(), AtomicFrame.OP_FETCH_ADD, 8, 1).operand(0, 1);
        send(atomic.frameLength());
        NackFrame nack = new NackFrame().wrap(awaitFrame(FrameKind.NACK), 0);
        assertEquals(NackReason.SEGMENT_FAULT, nack.reason());
        assertEquals(REGION_BYTES + 64, nack.address(), "the NACK names the region offset");
        final PutFrame put = new PutFrame().wrap(frame, 0);
        put.encodeHeader(FrameKind.PUT, 0, 0, target.address().sessionId(), ORIGIN_SESSION, 1, 100);
        put.ackSeq(1);
        put.encode(1, holed.regionId(), REGION_BYTES + 300, holed.key(), 0, 1, 0);
        send(put.frameLength());
        nack = new NackFrame().wrap(awaitFrame(FrameKind.NACK), 0);
        assertEquals(NackReason.SEGMENT_FAULT, nack.reason());
        assertEquals(1, nack.segmentIndex(), "the unmapped segment");
        assertEquals(0, target.counters().get(Counter.ATOMICS_APPLIED));
        sendAtomic(2, region.key(), AtomicFrame.OP_FETCH_ADD, 8, 0, 1);
        assertEquals(0, awaitReply(FrameKind.ATOMIC_REPLY).old(), "the endpoint still serves its mapped memory");
    }

    @Test
    void theDriversOneSidedFramesAreNotTheLibrarysToSend()
    {
        final int peer = target.acquirePeer(target.address().board());
        for (final FrameKind kind : new FrameKind[] {FrameKind.PUT, FrameKind.PUT_ACK, FrameKind.ATOMIC,
            FrameKind.ATOMIC_REPLY})
        {
            new FrameFlyweight().wrap(frame, 0).encodeHeader(kind, 0, 0, target.address().sessionId(),
                target.address().sessionId(), 0, 0);
            final DriverException refused = assertThrows(DriverException.class,
                () -> target.send(peer, frame.asSlice(0, kind.headerBytes()), MemorySegment.NULL));
            assertEquals(DriverError.BAD_ARGUMENT, refused.kind());
            assertTrue(refused.getMessage().contains(kind + " is the driver's own"), refused.getMessage());
        }
        assertEquals(0, target.counters().get(Counter.FRAMES_RECEIVED_PUT) + target.counters().get(
            Counter.FRAMES_RECEIVED_ATOMIC), "nothing reached the agent");
    }

    private void sendAtomic(
        final int requestSeq, final long key, final int op, final int width, final long offset, final long operand)
        throws IOException
    {
        final AtomicFrame atomic = new AtomicFrame().wrap(frame, 0);
        atomic.encodeHeader(FrameKind.ATOMIC, 0, 0, target.address().sessionId(), ORIGIN_SESSION, 0,
            AtomicFrame.OPERAND_BYTES);
        atomic.encode(requestSeq, region.regionId(), offset, key, op, width, 1).operand(0, operand);
        send(atomic.frameLength());
    }

    private byte[] putFrame(final int putNumber, final int oldestRunning, final byte value)
    {
        return putFrame(putNumber, oldestRunning, value, region.key());
    }

    /** A one-frame put of 100 bytes of {@code value} at region offset 300. */
    private byte[] putFrame(final int putNumber, final int oldestRunning, final byte value, final long key)
    {
        final PutFrame put = new PutFrame().wrap(frame, 0);
        put.encodeHeader(FrameKind.PUT, 0, 0, target.address().sessionId(), ORIGIN_SESSION, putNumber, 100);
        put.ackSeq(oldestRunning);
        put.encode(putNumber, region.regionId(), 300, key, 0, 1, 0);
        frame.asSlice(FrameKind.PUT.headerBytes(), 100).fill(value);
        checksum.stamp(frame.address(), put.frameLength());
        return frame.asSlice(0, put.frameLength()).toArray(ValueLayout.JAVA_BYTE);
    }

    private void send(final int bytes) throws IOException
    {
        checksum.stamp(frame.address(), bytes);
        origin.send(frame.asSlice(0, bytes).asByteBuffer(), to);
    }

    private AtomicReplyFrame awaitReply(final FrameKind kind)
    {
        return new AtomicReplyFrame().wrap(awaitFrame(kind), 0);
    }

    private void awaitAck()
    {
        new PutAckFrame().wrap(awaitFrame(FrameKind.PUT_ACK), 0);
    }

    private void assertNack(final NackReason reason, final long regionOffset)
    {
        final NackFrame nack = new NackFrame().wrap(awaitFrame(FrameKind.NACK), 0);
        assertEquals(reason, nack.reason());
        assertEquals(regionOffset, nack.address(), "the NACK names the region offset");
        assertEquals(region.regionId(), nack.regionId());
    }

    /** The next frame the target sends the raw origin, which must be of {@code kind}. */
    private MemorySegment awaitFrame(final FrameKind kind)
    {
        final AtomicReference<MemorySegment> got = new AtomicReference<>();
        await().atMost(TIMEOUT).until(() ->
        {
            received.clear();
            if (origin.receive(received) == null)
            {
                return false;
            }
            received.flip();
            got.set(MemorySegment.ofArray(new byte[received.remaining()]).copyFrom(MemorySegment.ofBuffer(received)));
            return true;
        });
        final MemorySegment answer = got.get();
        assertEquals(kind, new FrameFlyweight().wrap(answer, 0).kind(), "the target's answer");
        return answer;
    }
}
