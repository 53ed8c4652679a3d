package io.pinmx.pin.user;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.PullReplyFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs of PULL_REPLY frames sent over loopback as one offloaded datagram, peeked at, planned and read with the plan:
 * payloads land in the pull's local region only at places of the peeked block not yet filled, a frame that is not
 * what its place expected is told apart, and a local page not mapped loses the run and stops placing that pull.
 */
class ReplyPlacementTest
{
    private static final int PAYLOAD_BYTES = 1400;
    private static final int HEADER_BYTES = FrameKind.PULL_REPLY.headerBytes();
    private static final int SEGMENT_BYTES = HEADER_BYTES + PAYLOAD_BYTES;
    /** Block 0 holds frames 0..4 of the pull, block 1 frames 5..9. */
    private static final int BLOCK_FRAMES = 5;
    private static final byte UNTOUCHED = (byte)0xEE;

    private final Arena arena = Arena.ofConfined();
    private final RegionTable regions = new RegionTable(arena.allocate(RegionTable.areaBytes(4), 64));
    private final PullSlots slots = new PullSlots(2);
    private final ReplyPlacement placement = new ReplyPlacement(arena, slots, regions, PAYLOAD_BYTES);
    /** The local region: two segments, so frame 3's payload straddles them. */
    private final MemorySegment first = arena.allocate(3 * PAYLOAD_BYTES + 300);
    private final MemorySegment second = arena.allocate(20 * PAYLOAD_BYTES);
    private UdpTransport sender;
    private UdpTransport receiver;
    private PullSlot slot;

    @BeforeEach
    void open() throws IOException
    {
        sender = UdpTransport.open(InetAddress.getLoopbackAddress(), 0, 65000, new LossInjector(0, 1),
            new LossInjector(0, 1));
        receiver = UdpTransport.open(InetAddress.getLoopbackAddress(), 0, 65000, new LossInjector(0, 1),
            new LossInjector(0, 1));
        first.fill(UNTOUCHED);
        second.fill(UNTOUCHED);
        slot = activePull(regions.declare(new MemorySegment[] {first, second}, 2, RegionTable.ACCESS_WRITE));
    }

    @AfterEach
    void close()
    {
        sender.close();
        receiver.close();
        arena.close();
    }

    private PullSlot activePull(final int localRegion)
    {
        slots.claim(new PullSpec().peerIndex(1).remoteEndpointIndex(0).remoteSessionId(5).remoteRegionId(2)
            .localRegionId(localRegion).localOffset(0).length(2L * BLOCK_FRAMES * PAYLOAD_BYTES).pullHandle(9),
            new UdpPeer(1, BoardAddress.udp(InetAddress.getLoopbackAddress(), 7000)));
        final PullSlot s = slots.takeSubmitted();
        slots.activate(s);
        s.blocks()[0].request(0, BLOCK_FRAMES * PAYLOAD_BYTES, System.nanoTime());
        s.blocks()[1].request((long)BLOCK_FRAMES * PAYLOAD_BYTES, BLOCK_FRAMES * PAYLOAD_BYTES, System.nanoTime());
        return s;
    }

    private static byte payloadByte(final int frameIndex, final int i)
    {
        return (byte)(frameIndex * 7 + i);
    }

    /** Sends replies of the pull with these frame indexes as one run, and waits until the receiver sees it. */
    private int sendRun(final int... frameIndexes) throws IOException
    {
        final MemorySegment run = arena.allocate((long)frameIndexes.length * SEGMENT_BYTES);
        final PullReplyFrame reply = new PullReplyFrame();
        for (int k = 0; k < frameIndexes.length; k++)
        {
            final int f = frameIndexes[k];
            reply.wrap(run, (long)k * SEGMENT_BYTES).encodeHeader(FrameKind.PULL_REPLY, 0, 0, 1, 5, 0, PAYLOAD_BYTES);
            reply.encode(slot.wireHandle(), f, (long)f * PAYLOAD_BYTES);
            for (int i = 0; i < PAYLOAD_BYTES; i++)
            {
                run.set(ValueLayout.JAVA_BYTE, (long)k * SEGMENT_BYTES + HEADER_BYTES + i, payloadByte(f, i));
            }
        }
        assertEquals(frameIndexes.length, sender.sendSegments(new FrameIovecs(arena).backToBack(run.address(),
            frameIndexes.length, SEGMENT_BYTES, SEGMENT_BYTES), SEGMENT_BYTES,
            new InetSocketAddress(InetAddress.getLoopbackAddress(), receiver.port())));
        final int[] runBytes = new int[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> (runBytes[0] = receiver.receiver().peek()) >= 0);
        assertEquals(frameIndexes.length * SEGMENT_BYTES, runBytes[0], "one offloaded datagram");
        assertEquals(SEGMENT_BYTES, receiver.receiver().receivedSegmentBytes(), "the peek tells where frames start");
        return runBytes[0];
    }

    /** The byte at {@code offset} of the local region. */
    private byte local(final long offset)
    {
        return offset < first.byteSize() ? first.get(ValueLayout.JAVA_BYTE, offset) :
            second.get(ValueLayout.JAVA_BYTE, offset - first.byteSize());
    }

    private void assertFrameLanded(final int f)
    {
        for (int i = 0; i < PAYLOAD_BYTES; i++)
        {
            assertEquals(payloadByte(f, i), local((long)f * PAYLOAD_BYTES + i), "frame " + f + " byte " + i);
        }
    }

    private void assertUntouched(final int f)
    {
        for (int i = 0; i < PAYLOAD_BYTES; i++)
        {
            assertEquals(UNTOUCHED, local((long)f * PAYLOAD_BYTES + i), "frame " + f + " byte " + i);
        }
    }

    @Test
    void aRunEndingItsBlockIsPlacedUpToTheBlocksEndAndTheRestReadIntoTheBuffer() throws IOException
    {
        final int runBytes = sendRun(2, 3, 4, 5, 6);
        assertEquals(3, placement.plan(receiver.receiver().receivedBuffer(), runBytes, SEGMENT_BYTES),
            "frames 2..4 end block 0; a coalesced run's frames after them are not placed on a guess");
        assertNotNull(receiver.receiver().receive(placement.iovecs()));
        assertEquals(runBytes, receiver.receiver().receivedBytes());
        for (int f = 2; f <= 4; f++)
        {
            assertFrameLanded(f);
            assertTrue(placement.landedRight(f - 2, slot, (long)f * PAYLOAD_BYTES));
        }
        assertFalse(placement.placed(3));
        final MemorySegment buffer = receiver.receiver().receivedBuffer();
        final PullReplyFrame reply = new PullReplyFrame();
        for (int k = 0; k < 5; k++)
        {
            assertEquals(2 + k, reply.wrap(buffer, (long)k * SEGMENT_BYTES).frameIndex(), "header " + k + " in place");
        }
        assertEquals(payloadByte(5, 17), buffer.get(ValueLayout.JAVA_BYTE, 3L * SEGMENT_BYTES + HEADER_BYTES + 17));
        assertUntouched(5);
        assertUntouched(1);
    }

    @Test
    void aFrameAlreadyReceivedIsNeverOverwrittenAndAFrameOutOfPlaceIsToldApart() throws IOException
    {
        slot.blocks()[0].frameArrived(3, System.nanoTime());
        int runBytes = sendRun(1, 2, 3);
        assertEquals(2, placement.plan(receiver.receiver().receivedBuffer(), runBytes, SEGMENT_BYTES));
        assertNotNull(receiver.receiver().receive(placement.iovecs()));
        assertFrameLanded(1);
        assertFrameLanded(2);
        assertUntouched(3);
        placement.forget();
        slot.blocks()[0].frameArrived(1, System.nanoTime());
        slot.blocks()[0].frameArrived(2, System.nanoTime());

        runBytes = sendRun(1, 2);
        assertEquals(0, placement.plan(receiver.receiver().receivedBuffer(), runBytes, SEGMENT_BYTES), "duplicates");
        assertNotNull(receiver.receiver().receive());

        runBytes = sendRun(5, 8);
        assertEquals(2, placement.plan(receiver.receiver().receivedBuffer(), runBytes, SEGMENT_BYTES));
        assertNotNull(receiver.receiver().receive(placement.iovecs()));
        assertTrue(placement.landedRight(0, slot, 5L * PAYLOAD_BYTES));
        assertFalse(placement.landedRight(1, slot, 8L * PAYLOAD_BYTES), "frame 8 was read into frame 6's place");
        assertFrameLanded(5);
        assertUntouched(8);
    }

    @Test
    void aLocalPageNotMappedLosesTheRunAndThePullIsPlacedNoMore() throws IOException
    {
        slots.free(slot);
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(20 * PAYLOAD_BYTES);
        slot = activePull(regions.declare(new MemorySegment[] {first, unmapped}, 2, RegionTable.ACCESS_WRITE));
        int runBytes = sendRun(1, 2, 3, 4);
        assertEquals(4, placement.plan(receiver.receiver().receivedBuffer(), runBytes, SEGMENT_BYTES));
        assertNull(receiver.receiver().receive(placement.iovecs()));
        assertTrue(receiver.receiver().receiveFaulted());
        placement.faulted();
        assertFalse(slot.placeable);
        assertEquals(-1, receiver.receiver().peek(), "the run is gone");

        runBytes = sendRun(1, 2);
        assertEquals(0, placement.plan(receiver.receiver().receivedBuffer(), runBytes, SEGMENT_BYTES));
        assertNotNull(receiver.receiver().receive());
        assertEquals(2 * SEGMENT_BYTES, receiver.receiver().receivedBytes());
        assertEquals(payloadByte(2, 5), receiver.receiver().receivedBuffer().get(ValueLayout.JAVA_BYTE,
            SEGMENT_BYTES + HEADER_BYTES + 5), "read into the buffer, for the checked copy");
    }
}
