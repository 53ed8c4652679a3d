package io.pinmx.pin.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrameReaderTest
{
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final int MY_ENDPOINT = 3;
    private static final int MY_SESSION = 0x1234_5678;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer = arena.allocate(4096);

    @AfterEach
    void close()
    {
        arena.close();
    }

    private int header(final FrameFlyweight frame, final FrameKind kind, final int payload)
    {
        frame.wrap(buffer, 0).encodeHeader(kind, MY_ENDPOINT, 9, MY_SESSION, 0x0BAD_CAFE, 1, payload);
        return kind.headerBytes() + payload;
    }

    private int tiny(final int payload)
    {
        final int length = header(new EagerFrame(), FrameKind.TINY, payload);
        new EagerFrame().wrap(buffer, 0).encode(77, payload);
        return length;
    }

    private int medium(final int messageLength, final int fragOffset, final int payload, final int index, final int count)
    {
        final int length = header(new MediumFragFrame(), FrameKind.MEDIUM_FRAG, payload);
        new MediumFragFrame().wrap(buffer, 0).encode(1, messageLength, fragOffset, index, count, 5);
        return length;
    }

    private int pull(final long regionOffset, final long pullOffset, final int blockLength)
    {
        final int length = header(new PullFrame(), FrameKind.PULL, 0);
        new PullFrame().wrap(buffer, 0).encode(1, 2, regionOffset, pullOffset, blockLength, 0, 1452);
        return length;
    }

    private DropReason check(final int length)
    {
        return FrameReader.check(buffer, 0, length);
    }

    @Test
    void shorterThanTheCommonHeaderIsShort()
    {
        final int length = tiny(0);
        assertEquals(DropReason.NONE, check(length));
        assertEquals(DropReason.SHORT, check(0));
        assertEquals(DropReason.SHORT, check(FrameFlyweight.HEADER_BYTES - 1));
    }

    @Test
    void truncatedKindPartIsShort()
    {
        pull(0, 0, 100);
        assertEquals(DropReason.SHORT, check(FrameFlyweight.HEADER_BYTES));
        assertEquals(DropReason.SHORT, check(FrameKind.PULL.headerBytes() - 1));
        assertEquals(DropReason.NONE, check(FrameKind.PULL.headerBytes()));
    }

    @Test
    void unknownKindAndBadVersion()
    {
        final int length = tiny(4);
        buffer.set(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET, (byte)0);
        assertEquals(DropReason.UNKNOWN_KIND, check(length));
        buffer.set(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET, (byte)(FrameKind.MAX_CODE + 1));
        assertEquals(DropReason.UNKNOWN_KIND, check(length));
        buffer.set(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET, (byte)0xFF);
        assertEquals(DropReason.UNKNOWN_KIND, check(length));

        tiny(4);
        new EagerFrame().wrap(buffer, 0).version(2);
        assertEquals(DropReason.BAD_VERSION, check(length));
        new EagerFrame().wrap(buffer, 0).version(0);
        assertEquals(DropReason.BAD_VERSION, check(length));
    }

    @Test
    void payloadLengthMustMatchTheFrameLength()
    {
        final int length = tiny(20);
        assertEquals(DropReason.NONE, check(length));
        assertEquals(DropReason.BAD_LENGTH, check(length - 1));
        assertEquals(DropReason.BAD_LENGTH, check(length + 1));
        buffer.set(U32, FrameFlyweight.PAYLOAD_LENGTH_OFFSET, 0xFFFF_FFFF);
        assertEquals(DropReason.BAD_LENGTH, check(length));
    }

    @Test
    void ethernetPaddingUpToTheMinimumPayloadIsAccepted()
    {
        final int length = header(new AckFrame(), FrameKind.ACK, 0);
        new AckFrame().wrap(buffer, 0).encode(1);
        assertEquals(DropReason.NONE, check(FrameFlyweight.MIN_ETHERNET_PAYLOAD_BYTES));
        assertEquals(DropReason.BAD_LENGTH, check(FrameFlyweight.MIN_ETHERNET_PAYLOAD_BYTES + 1));
        assertEquals(DropReason.NONE, check(length));
    }

    @Test
    void tinyAndSmallPayloadLimits()
    {
        final int tooBigTiny = header(new EagerFrame(), FrameKind.SMALL, 33);
        new EagerFrame().wrap(buffer, 0).encode(1, 33);
        assertEquals(DropReason.NONE, check(tooBigTiny));
        buffer.set(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET, (byte)FrameKind.TINY.code());
        assertEquals(DropReason.BAD_LENGTH, check(tooBigTiny));

        final int tooBigSmall = header(new EagerFrame(), FrameKind.SMALL, 128);
        new EagerFrame().wrap(buffer, 0).encode(1, 128);
        assertEquals(DropReason.NONE, check(tooBigSmall));
        buffer.set(U32, FrameFlyweight.PAYLOAD_LENGTH_OFFSET, 129);
        buffer.set(U32, EagerFrame.MESSAGE_LENGTH_OFFSET, 129);
        assertEquals(DropReason.BAD_LENGTH, check(tooBigSmall + 1));
    }

    @Test
    void eagerMessageLengthMustEqualThePayload()
    {
        final int length = tiny(10);
        buffer.set(U32, EagerFrame.MESSAGE_LENGTH_OFFSET, 11);
        assertEquals(DropReason.BAD_LENGTH, check(length));
    }

    @Test
    void kindsWithoutPayloadRefuseOne()
    {
        final int length = header(new RndvFrame(), FrameKind.RNDV, 0);
        new RndvFrame().wrap(buffer, 0).encode(1, 100, 2, 0, 3);
        assertEquals(DropReason.NONE, check(length));
        buffer.set(U32, FrameFlyweight.PAYLOAD_LENGTH_OFFSET, 4);
        assertEquals(DropReason.BAD_LENGTH, check(length + 4));
    }

    @Test
    void mediumFragmentOffsetsAndIndexes()
    {
        assertEquals(DropReason.NONE, check(medium(3000, 1500, 1500, 1, 2)));
        assertEquals(DropReason.OUT_OF_RANGE, check(medium(3000, 1501, 1500, 1, 2)));
        assertEquals(DropReason.OUT_OF_RANGE, check(medium(3000, 4000, 1, 1, 2)));
        assertEquals(DropReason.OUT_OF_RANGE, check(medium(3000, 0, 1500, 2, 2)));
        assertEquals(DropReason.BAD_FIELD, check(medium(3000, 0, 1500, 0, 0)));
        assertEquals(DropReason.BAD_LENGTH, check(medium(3000, 0, 0, 0, 2)));
        assertEquals(DropReason.OUT_OF_RANGE, check(medium(0xFFFF_FFFF, 0xFFFF_FFFF, 1, 0, 1)));
    }

    @Test
    void rndvOffsetsBeyond63BitsAreOutOfRange()
    {
        final int length = header(new RndvFrame(), FrameKind.RNDV, 0);
        final RndvFrame frame = new RndvFrame().wrap(buffer, 0);
        frame.encode(1, Long.MAX_VALUE, 2, 0, 3);
        assertEquals(DropReason.NONE, check(length));
        frame.encode(1, Long.MAX_VALUE, 2, 1, 3);
        assertEquals(DropReason.OUT_OF_RANGE, check(length));
        frame.encode(1, -1L, 2, 0, 3);
        assertEquals(DropReason.OUT_OF_RANGE, check(length));
        frame.encode(1, 1, 2, -1L, 3);
        assertEquals(DropReason.OUT_OF_RANGE, check(length));
    }

    @Test
    void pullFieldsAreChecked()
    {
        assertEquals(DropReason.NONE, check(pull(Long.MAX_VALUE - 100, 0, 100)));
        assertEquals(DropReason.OUT_OF_RANGE, check(pull(Long.MAX_VALUE - 99, 0, 100)));
        assertEquals(DropReason.OUT_OF_RANGE, check(pull(0, -5L, 100)));
        final int length = pull(0, 0, 3000);
        new PullFrame().wrap(buffer, 0).frameCount(2);
        assertEquals(DropReason.BAD_FIELD, check(length));
        pull(0, 0, 3000);
        buffer.set(U32, PullFrame.BLOCK_LENGTH_OFFSET, 0);
        assertEquals(DropReason.BAD_FIELD, check(length));
        pull(0, 0, 3000);
        buffer.set(U32, PullFrame.REPLY_PAYLOAD_BYTES_OFFSET, 0);
        assertEquals(DropReason.BAD_FIELD, check(length));
        pull(0, 0, 3000);
        buffer.set(U16, PullFrame.FRAME_COUNT_OFFSET, (short)3);
        assertEquals(DropReason.NONE, check(length));
        final int keyed = header(new PullFrame(), FrameKind.PULL, PullFrame.KEY_PAYLOAD_BYTES);
        new PullFrame().wrap(buffer, 0).encode(1, 2, 0, 0, 100, 0, 1452).key(77);
        assertEquals(DropReason.NONE, check(keyed), "a PULL carrying a region key");
        buffer.set(U32, FrameFlyweight.PAYLOAD_LENGTH_OFFSET, 4);
        assertEquals(DropReason.BAD_LENGTH, check(keyed - 4), "a payload neither none nor a key");
    }

    @Test
    void putFieldsAreChecked()
    {
        final int length = header(new PutFrame(), FrameKind.PUT, 100);
        new PutFrame().wrap(buffer, 0).encode(1, 2, Long.MAX_VALUE - 100, 9, 3, 4, 0);
        assertEquals(DropReason.NONE, check(length));
        buffer.set(U64, PutFrame.REGION_OFFSET_OFFSET, Long.MAX_VALUE - 99);
        assertEquals(DropReason.OUT_OF_RANGE, check(length), "past 2^63");
        new PutFrame().wrap(buffer, 0).encode(1, 2, 0, 9, 4, 4, 0);
        assertEquals(DropReason.OUT_OF_RANGE, check(length), "frame index = frame count");
        new PutFrame().wrap(buffer, 0).encode(1, 2, 0, 9, 0, 0, 0);
        assertEquals(DropReason.BAD_FIELD, check(length), "no frames");
        new PutFrame().wrap(buffer, 0).encode(1, 2, 0, 9, 0, 1, -1);
        assertEquals(DropReason.OUT_OF_RANGE, check(length), "negative put offset");
        final int empty = header(new PutFrame(), FrameKind.PUT, 0);
        new PutFrame().wrap(buffer, 0).encode(1, 2, 0, 9, 0, 1, 0);
        assertEquals(DropReason.BAD_LENGTH, check(empty));
    }

    @Test
    void atomicFieldsAreChecked()
    {
        assertEquals(DropReason.NONE, check(atomic(AtomicFrame.OP_CAS, 8, 1, 2)));
        assertEquals(DropReason.BAD_LENGTH, check(atomic(AtomicFrame.OP_CAS, 8, 1, 1)), "CAS carries two operands");
        assertEquals(DropReason.NONE, check(atomic(AtomicFrame.OP_ACCUMULATE, 4, 179, 179)));
        assertEquals(DropReason.BAD_FIELD, check(atomic(AtomicFrame.OP_ACCUMULATE, 4, 0, 0)), "no words");
        assertEquals(DropReason.BAD_FIELD, check(atomic(AtomicFrame.OP_FETCH_ADD, 8, 2, 1)), "one word only");
        assertEquals(DropReason.BAD_FIELD, check(atomic(AtomicFrame.OP_SWAP, 2, 1, 1)), "width 2");
        assertEquals(DropReason.BAD_FIELD, check(atomic(5, 8, 1, 1)), "unknown op");
        final int length = atomic(AtomicFrame.OP_SWAP, 8, 1, 1);
        buffer.set(U64, AtomicFrame.REGION_OFFSET_OFFSET, Long.MAX_VALUE - 7);
        assertEquals(DropReason.OUT_OF_RANGE, check(length));
        final int most = atomic(AtomicFrame.OP_ACCUMULATE, 8, AtomicFrame.MAX_ACCUMULATE_WORDS,
            AtomicFrame.MAX_ACCUMULATE_WORDS);
        buffer.set(U32, FrameFlyweight.PAYLOAD_LENGTH_OFFSET, AtomicFrame.MAX_OPERAND_BYTES + 8);
        assertEquals(DropReason.BAD_LENGTH, check(most + 8), "more operands than any ATOMIC carries");
    }

    private int atomic(final int op, final int width, final int count, final int operands)
    {
        final int length = header(new AtomicFrame(), FrameKind.ATOMIC, operands * AtomicFrame.OPERAND_BYTES);
        new AtomicFrame().wrap(buffer, 0).encode(1, 2, 64, 9, op, width, count);
        return length;
    }

    @Test
    void pullReplyNeedsDataWithinRange()
    {
        final int length = header(new PullReplyFrame(), FrameKind.PULL_REPLY, 100);
        new PullReplyFrame().wrap(buffer, 0).encode(1, 0, Long.MAX_VALUE - 100);
        assertEquals(DropReason.NONE, check(length));
        buffer.set(U64, PullReplyFrame.PULL_OFFSET_OFFSET, Long.MAX_VALUE - 99);
        assertEquals(DropReason.OUT_OF_RANGE, check(length));
        final int empty = header(new PullReplyFrame(), FrameKind.PULL_REPLY, 0);
        new PullReplyFrame().wrap(buffer, 0).encode(1, 0, 0);
        assertEquals(DropReason.BAD_LENGTH, check(empty));
    }

    @Test
    void notifyBytesPulledMustFit63Bits()
    {
        final int length = header(new NotifyFrame(), FrameKind.NOTIFY, 0);
        new NotifyFrame().wrap(buffer, 0).encode(1, NotifyStatus.OK, -1L);
        assertEquals(DropReason.OUT_OF_RANGE, check(length));
    }

    @Test
    void notifyStatusMustBeKnown()
    {
        final int length = header(new NotifyFrame(), FrameKind.NOTIFY, 0);
        new NotifyFrame().wrap(buffer, 0).encode(1, NotifyStatus.NO_RESOURCES, 10);
        assertEquals(DropReason.NONE, check(length));
        buffer.set(U32, NotifyFrame.STATUS_OFFSET, NotifyStatus.values().length);
        assertEquals(DropReason.BAD_FIELD, check(length), "first status code past the known ones");
        buffer.set(U32, NotifyFrame.STATUS_OFFSET, -1);
        assertEquals(DropReason.BAD_FIELD, check(length), "status 0xffffffff (negative as an int)");
    }

    @Test
    void connectNeedsASourceSessionAndAKnownStatus()
    {
        final ConnectFrame frame = new ConnectFrame();
        final int length = header(frame, FrameKind.CONNECT_REQUEST, 0);
        frame.encode(1, 2, 3, ConnectStatus.BAD_KEY);
        assertEquals(DropReason.BAD_FIELD, check(length));
        frame.encode(1, 2, 3, ConnectStatus.OK);
        assertEquals(DropReason.NONE, check(length));
        buffer.set(U32, FrameFlyweight.SRC_SESSION_OFFSET, 0);
        assertEquals(DropReason.BAD_FIELD, check(length));

        header(frame, FrameKind.CONNECT_REPLY, 0);
        frame.encode(1, 2, 3, ConnectStatus.NO_RESOURCES);
        assertEquals(DropReason.NONE, check(length));
        frame.statusCode(3);
        assertEquals(DropReason.BAD_FIELD, check(length));
    }

    @Test
    void nackNeedsAKnownReasonAndRefusedKind()
    {
        final NackFrame frame = new NackFrame();
        final int length = header(frame, FrameKind.NACK, 0);
        frame.encode(NackReason.BAD_SESSION, FrameKind.TINY, 1, 0, 0, 0, 0, 0);
        assertEquals(DropReason.NONE, check(length));
        buffer.set(ValueLayout.JAVA_BYTE, NackFrame.REASON_OFFSET, (byte)0);
        assertEquals(DropReason.BAD_FIELD, check(length));
        frame.encode(NackReason.BAD_SESSION, FrameKind.TINY, 1, 0, 0, 0, 0, 0);
        buffer.set(ValueLayout.JAVA_BYTE, NackFrame.REFUSED_KIND_OFFSET, (byte)99);
        assertEquals(DropReason.BAD_FIELD, check(length));
    }

    @Test
    void addressingChecksEndpointThenSession()
    {
        tiny(1);
        assertEquals(DropReason.NONE, FrameReader.checkAddressedTo(buffer, 0, MY_ENDPOINT, MY_SESSION));
        assertEquals(DropReason.WRONG_ENDPOINT, FrameReader.checkAddressedTo(buffer, 0, MY_ENDPOINT + 1, MY_SESSION));
        assertEquals(DropReason.WRONG_SESSION, FrameReader.checkAddressedTo(buffer, 0, MY_ENDPOINT, MY_SESSION + 1));

        final ConnectFrame connect = new ConnectFrame();
        header(connect, FrameKind.CONNECT_REQUEST, 0);
        connect.dstSession(0);
        assertEquals(DropReason.NONE, FrameReader.checkAddressedTo(buffer, 0, MY_ENDPOINT, MY_SESSION));
        header(connect, FrameKind.CONNECT_REPLY, 0);
        connect.dstSession(0);
        assertEquals(DropReason.WRONG_SESSION, FrameReader.checkAddressedTo(buffer, 0, MY_ENDPOINT, MY_SESSION));
    }

    @Test
    void aFrameOutsideTheBufferIsACallerBug()
    {
        assertThrows(IndexOutOfBoundsException.class, () -> FrameReader.check(buffer, 4090, 32));
        assertThrows(IndexOutOfBoundsException.class, () -> FrameReader.check(buffer, 0, -1));
    }

    @Test
    void randomBytesNeverThrowAndOnlyPassWhenConsistent()
    {
        final SplittableRandom random = new SplittableRandom(20261122);
        final byte[] bytes = new byte[256];
        int valid = 0;
        for (int i = 0; i < 200_000; i++)
        {
            random.nextBytes(bytes);
            bytes[FrameFlyweight.VERSION_OFFSET] = (byte)(random.nextInt(8) == 0 ? 2 : FrameFlyweight.VERSION);
            bytes[FrameFlyweight.KIND_OFFSET] = (byte)random.nextInt(FrameKind.MAX_CODE + 3);
            final int length = random.nextInt(bytes.length + 1);
            final int payload = random.nextInt(160);
            MemorySegment.copy(bytes, 0, buffer, ValueLayout.JAVA_BYTE, 0, bytes.length);
            buffer.set(U32, FrameFlyweight.PAYLOAD_LENGTH_OFFSET, payload);
            final DropReason reason = check(length);
            if (reason == DropReason.NONE)
            {
                valid++;
                final FrameFlyweight frame = new FrameFlyweight().wrap(buffer, 0);
                final int declared = frame.frameLength();
                assertEquals(true, declared == length ||
                    (declared < length && length <= FrameFlyweight.MIN_ETHERNET_PAYLOAD_BYTES), "frame " + i);
            }
        }
        assertEquals(true, valid > 0, "some random frames should be consistent by chance");
    }
}
