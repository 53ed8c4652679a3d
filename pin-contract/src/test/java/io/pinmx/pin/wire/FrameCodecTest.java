package io.pinmx.pin.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrameCodecTest
{
    private static final long FRAME_OFFSET = 7;
    private static final long SIXTY_FOUR_MIB_PLUS_ONE = (64L << 20) + 1;
    private static final long BEYOND_4_GIB = (5L << 30) + 3;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer = arena.allocate(2048);

    @AfterEach
    void close()
    {
        arena.close();
    }

    private int encodeHeader(final FrameFlyweight frame, final FrameKind kind, final int payloadLength)
    {
        frame.wrap(buffer, FRAME_OFFSET);
        frame.encodeHeader(kind, 255, 254, 0xDEADBEEF, 0xCAFEBABE, 0xFFFF_FFFF, payloadLength);
        return kind.headerBytes() + payloadLength;
    }

    private void assertValid(final int frameLength)
    {
        assertEquals(DropReason.NONE, FrameReader.check(buffer, FRAME_OFFSET, frameLength));
    }

    private void assertCommonHeader(final FrameFlyweight frame, final FrameKind kind, final int payloadLength)
    {
        assertSame(kind, frame.kind());
        assertEquals(FrameFlyweight.VERSION, frame.version());
        assertEquals(255, frame.dstEndpoint());
        assertEquals(254, frame.srcEndpoint());
        assertEquals(0xDEADBEEF, frame.dstSession());
        assertEquals(0xCAFEBABE, frame.srcSession());
        assertEquals(0xFFFF_FFFF, frame.seq());
        assertEquals(payloadLength, frame.payloadLength());
        assertEquals(kind.headerBytes() + payloadLength, frame.frameLength());
        assertEquals(FRAME_OFFSET + kind.headerBytes(), frame.payloadOffset());
    }

    @Test
    void commonHeaderIsBigEndianAtTheDocumentedOffsets()
    {
        final AckFrame frame = new AckFrame();
        encodeHeader(frame, FrameKind.ACK, 0);
        frame.encode(0x01020304);
        frame.ackSeq(0x0A0B0C0D);
        final byte[] bytes = buffer.asSlice(FRAME_OFFSET, FrameKind.ACK.headerBytes()).toArray(ValueLayout.JAVA_BYTE);
        final byte[] expected = {
            10, 1, 0, 1, (byte)255, (byte)254, 0, 0,
            (byte)0xDE, (byte)0xAD, (byte)0xBE, (byte)0xEF, (byte)0xCA, (byte)0xFE, (byte)0xBA, (byte)0xBE,
            (byte)0xFF, (byte)0xFF, (byte)0xFF, (byte)0xFF, 0x0A, 0x0B, 0x0C, 0x0D,
            0, 0, 0, 0, 0, 0, 0, 0,
            1, 2, 3, 4, 0, 0, 0, 0 };
        assertArrayEquals(expected, bytes);
        assertTrue(frame.hasAck());
        assertEquals(0x0A0B0C0D, frame.ackSeq());
        assertEquals(0x01020304, frame.ackUpTo());
        assertValid(FrameKind.ACK.headerBytes());
    }

    @Test
    void flagsRoundTripAndAckIsInvalidUntilSet()
    {
        final AckFrame frame = new AckFrame();
        encodeHeader(frame, FrameKind.ACK, 0);
        assertFalse(frame.hasAck());
        frame.flags(FrameFlyweight.FLAG_RESENT | FrameFlyweight.FLAG_ACK_REQUESTED);
        frame.ackSeq(5);
        assertEquals(FrameFlyweight.FLAG_RESENT | FrameFlyweight.FLAG_ACK_REQUESTED | FrameFlyweight.FLAG_ACK_VALID,
            frame.flags());
    }

    @Test
    void connectRequestAndReplyRoundTrip()
    {
        final ConnectFrame frame = new ConnectFrame();
        final int length = encodeHeader(frame, FrameKind.CONNECT_REQUEST, 0);
        frame.encode(0xFFFF_FFFF, 0x80000000, 42, ConnectStatus.OK);
        assertCommonHeader(frame, FrameKind.CONNECT_REQUEST, 0);
        assertEquals(0xFFFF_FFFF, frame.appKey());
        assertEquals(0x80000000, frame.connectSeq());
        assertEquals(42, frame.initialSeq());
        assertSame(ConnectStatus.OK, frame.status());
        assertValid(length);

        encodeHeader(frame, FrameKind.CONNECT_REPLY, 0);
        frame.encode(7, 8, 9, ConnectStatus.BAD_KEY);
        assertSame(ConnectStatus.BAD_KEY, frame.status());
        assertEquals(ConnectStatus.BAD_KEY.code(), frame.statusCode());
        assertValid(length);
    }

    @Test
    void tinyAndSmallRoundTripAtTheirLimits()
    {
        final EagerFrame frame = new EagerFrame();
        for (final FrameKind kind : new FrameKind[]{ FrameKind.TINY, FrameKind.SMALL })
        {
            for (final int payload : new int[]{ 0, 1, kind.maxPayloadBytes() })
            {
                final int length = encodeHeader(frame, kind, payload);
                frame.encode(Long.MIN_VALUE | 0x1234, payload);
                assertCommonHeader(frame, kind, payload);
                assertEquals(Long.MIN_VALUE | 0x1234, frame.matchInfo());
                assertEquals(payload, frame.messageLength());
                assertValid(length);
            }
        }
        assertEquals(32, FrameKind.TINY.maxPayloadBytes());
        assertEquals(128, FrameKind.SMALL.maxPayloadBytes());
    }

    @Test
    void encodeHeaderRefusesPayloadsAndEndpointsOutOfRange()
    {
        final EagerFrame frame = new EagerFrame().wrap(buffer, 0);
        final IllegalArgumentException tiny = assertThrows(IllegalArgumentException.class,
            () -> frame.encodeHeader(FrameKind.TINY, 0, 0, 1, 1, 0, 33));
        assertTrue(tiny.getMessage().contains("TINY payload length 33"), tiny.getMessage());
        final IllegalArgumentException endpoint = assertThrows(IllegalArgumentException.class,
            () -> frame.encodeHeader(FrameKind.TINY, 256, 0, 1, 1, 0, 0));
        assertTrue(endpoint.getMessage().contains("dst=256"), endpoint.getMessage());
        assertThrows(IllegalArgumentException.class, () -> frame.encodeHeader(FrameKind.RNDV, 0, 0, 1, 1, 0, 1));
    }

    @Test
    void mediumFragmentRoundTripAtFieldEdges()
    {
        final MediumFragFrame frame = new MediumFragFrame();
        final int payload = 1444;
        final int length = encodeHeader(frame, FrameKind.MEDIUM_FRAG, payload);
        frame.encode(-1L, 0xFFFF_FFFF, 0xFFFF_FFFF - payload, 65534, 65535, 0x7654_3210);
        assertCommonHeader(frame, FrameKind.MEDIUM_FRAG, payload);
        assertEquals(-1L, frame.matchInfo());
        assertEquals(0xFFFF_FFFFL, frame.messageLength());
        assertEquals(0xFFFF_FFFFL - payload, frame.fragOffset());
        assertEquals(65534, frame.fragIndex());
        assertEquals(65535, frame.fragCount());
        assertEquals(0x7654_3210, frame.messageSeq());
        assertValid(length);
    }

    @Test
    void rndvCarries64BitLengthsAndOffsets()
    {
        final RndvFrame frame = new RndvFrame();
        final int length = encodeHeader(frame, FrameKind.RNDV, 0);
        frame.encode(0x0102_0304_0506_0708L, BEYOND_4_GIB, 0xFFFF_FFFE, SIXTY_FOUR_MIB_PLUS_ONE, 0x8000_0001);
        assertCommonHeader(frame, FrameKind.RNDV, 0);
        assertEquals(0x0102_0304_0506_0708L, frame.matchInfo());
        assertEquals(BEYOND_4_GIB, frame.messageLength());
        assertEquals(0xFFFF_FFFE, frame.regionId());
        assertEquals(SIXTY_FOUR_MIB_PLUS_ONE, frame.regionOffset());
        assertEquals(0x8000_0001, frame.sendHandle());
        assertValid(length);

        frame.encode(0, Long.MAX_VALUE, 1, 0, 1);
        assertEquals(Long.MAX_VALUE, frame.messageLength());
        assertValid(length);
    }

    @Test
    void pullRoundTripDerivesTheFrameCount()
    {
        final PullFrame frame = new PullFrame();
        final int length = encodeHeader(frame, FrameKind.PULL, 0);
        frame.encode(0xFFFF_FFFF, 0x7FFF_FFFF, BEYOND_4_GIB, SIXTY_FOUR_MIB_PLUS_ONE, 32 * 1452 + 1, 0x10000, 1452);
        assertCommonHeader(frame, FrameKind.PULL, 0);
        assertEquals(0xFFFF_FFFF, frame.pullHandle());
        assertEquals(0x7FFF_FFFF, frame.regionId());
        assertEquals(BEYOND_4_GIB, frame.regionOffset());
        assertEquals(SIXTY_FOUR_MIB_PLUS_ONE, frame.pullOffset());
        assertEquals(32 * 1452 + 1, frame.blockLength());
        assertEquals(0x10000, frame.firstFrameIndex());
        assertEquals(33, frame.frameCount());
        assertEquals(1452, frame.replyPayloadBytes());
        assertValid(length);
    }

    @Test
    void pullEncodeRefusesEmptyBlocksAndTooManyFrames()
    {
        final PullFrame frame = new PullFrame().wrap(buffer, 0);
        assertThrows(IllegalArgumentException.class, () -> frame.encode(1, 1, 0, 0, 0, 0, 1452));
        assertThrows(IllegalArgumentException.class, () -> frame.encode(1, 1, 0, 0, 100, 0, 0));
        final IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
            () -> frame.encode(1, 1, 0, 0, 65536, 0, 1));
        assertTrue(tooMany.getMessage().contains("65536 reply frames"), tooMany.getMessage());
    }

    @Test
    void pullReplyRoundTrip()
    {
        final PullReplyFrame frame = new PullReplyFrame();
        final int payload = 1452;
        final int length = encodeHeader(frame, FrameKind.PULL_REPLY, payload);
        frame.encode(0x8000_0000, 46_222, SIXTY_FOUR_MIB_PLUS_ONE - payload);
        assertCommonHeader(frame, FrameKind.PULL_REPLY, payload);
        assertEquals(0x8000_0000, frame.pullHandle());
        assertEquals(46_222, frame.frameIndex());
        assertEquals(SIXTY_FOUR_MIB_PLUS_ONE - payload, frame.pullOffset());
        assertValid(length);
    }

    @Test
    void notifyRoundTripForEveryStatus()
    {
        final NotifyFrame frame = new NotifyFrame();
        for (final NotifyStatus status : NotifyStatus.values())
        {
            final int length = encodeHeader(frame, FrameKind.NOTIFY, 0);
            frame.encode(0xABCD_EF01, status, BEYOND_4_GIB);
            assertCommonHeader(frame, FrameKind.NOTIFY, 0);
            assertEquals(0xABCD_EF01, frame.sendHandle());
            assertSame(status, frame.status());
            assertEquals(BEYOND_4_GIB, frame.bytesPulled());
            assertValid(length);
        }
        assertEquals(List.of(NotifyStatus.OK, NotifyStatus.TRUNCATED),
            Arrays.stream(NotifyStatus.values()).filter(NotifyStatus::isSuccess).toList(),
            "only OK and TRUNCATED complete the sender successfully");
    }

    @Test
    void nackRoundTripForEveryReason()
    {
        final NackFrame frame = new NackFrame();
        for (final NackReason reason : NackReason.values())
        {
            final int length = encodeHeader(frame, FrameKind.NACK, 0);
            frame.encode(reason, FrameKind.PULL, 0x1111_2222, 0xFFFF_FFFF, 0x8000_0003, 255, 0x7F12_3456_7000L, 14);
            assertCommonHeader(frame, FrameKind.NACK, 0);
            assertSame(reason, frame.reason());
            assertEquals(reason.code(), frame.reasonCode());
            assertSame(FrameKind.PULL, frame.refusedKind());
            assertEquals(0x1111_2222, frame.refusedSeq());
            assertEquals(0xFFFF_FFFF, frame.refusedHandle());
            assertEquals(0x8000_0003, frame.regionId());
            assertEquals(255, frame.segmentIndex());
            assertEquals(0x7F12_3456_7000L, frame.address());
            assertEquals(14, frame.errno());
            assertValid(length);
        }
    }

    @Test
    void everyKindHasADistinctCodeAndCodesOutsideTheTableAreUnknown()
    {
        final boolean[] seen = new boolean[256];
        for (final FrameKind kind : FrameKind.values())
        {
            assertFalse(seen[kind.code()], kind.name());
            seen[kind.code()] = true;
            assertSame(kind, FrameKind.fromCode(kind.code()));
            assertEquals(FrameFlyweight.HEADER_BYTES + kind.kindPartBytes(), kind.headerBytes());
        }
        assertNull(FrameKind.fromCode(0));
        assertNull(FrameKind.fromCode(FrameKind.MAX_CODE + 1));
        assertNull(FrameKind.fromCode(255));
        assertNull(FrameKind.fromCode(-1));
        assertNull(FrameKind.fromCode(256));
    }

    @Test
    void encodingLeavesBytesOutsideTheFrameUntouched()
    {
        buffer.fill((byte)0x5A);
        final RndvFrame frame = new RndvFrame();
        final int length = encodeHeader(frame, FrameKind.RNDV, 0);
        frame.encode(1, 2, 3, 4, 5);
        final byte[] before = buffer.asSlice(0, FRAME_OFFSET).toArray(ValueLayout.JAVA_BYTE);
        final byte[] after = buffer.asSlice(FRAME_OFFSET + length, 64).toArray(ValueLayout.JAVA_BYTE);
        final byte[] filler = new byte[64];
        Arrays.fill(filler, (byte)0x5A);
        assertArrayEquals(Arrays.copyOf(filler, (int)FRAME_OFFSET), before);
        assertArrayEquals(filler, after);
    }
}
