package io.pinmx.pin.wire;

import static io.pinmx.pin.wire.FrameFlyweight.HEADER_BYTES;
import static io.pinmx.pin.wire.FrameFlyweight.MIN_ETHERNET_PAYLOAD_BYTES;
import static io.pinmx.pin.wire.FrameFlyweight.U16;
import static io.pinmx.pin.wire.FrameFlyweight.U32;
import static io.pinmx.pin.wire.FrameFlyweight.U64;
import static io.pinmx.pin.wire.FrameFlyweight.U8;

import java.lang.foreign.MemorySegment;

/**
 * Validates received frames: every check a receiver must make before trusting a field, in the
 * order docs/wire-protocol.md lists them. Malformed frames yield a {@link DropReason}; nothing
 * throws and nothing allocates, so drivers call it for every frame on the receive path.
 */
public final class FrameReader
{
    private static final long MAX_U32 = 0xFFFF_FFFFL;

    private FrameReader()
    {
    }

    /**
     * Check the frame's bytes alone: lengths, version, kind and kind-specific fields.
     *
     * @param buffer       buffer holding the received frame.
     * @param offset       offset of the frame's first byte.
     * @param receivedBytes bytes received (UDP datagram length, or Ethernet payload length,
     *                     which may include padding up to {@value FrameFlyweight#MIN_ETHERNET_PAYLOAD_BYTES}).
     * @return {@link DropReason#NONE} for a valid frame, else why to drop it.
     * @throws IndexOutOfBoundsException when {@code [offset, offset + receivedBytes)} is not inside
     *                                   the buffer: a caller bug, not a malformed frame.
     */
    public static DropReason check(final MemorySegment buffer, final long offset, final int receivedBytes)
    {
        if (receivedBytes < 0 || offset < 0 || offset + receivedBytes > buffer.byteSize())
        {
            throw new IndexOutOfBoundsException("frame [" + offset + ", " + offset + " + " + receivedBytes +
                ") not inside buffer of " + buffer.byteSize() + " bytes");
        }
        if (receivedBytes < HEADER_BYTES)
        {
            return DropReason.SHORT;
        }
        if ((buffer.get(U8, offset + FrameFlyweight.VERSION_OFFSET) & 0xFF) != FrameFlyweight.VERSION)
        {
            return DropReason.BAD_VERSION;
        }
        final FrameKind kind = FrameKind.fromCode(buffer.get(U8, offset + FrameFlyweight.KIND_OFFSET) & 0xFF);
        if (null == kind)
        {
            return DropReason.UNKNOWN_KIND;
        }
        final int headerBytes = kind.headerBytes();
        if (receivedBytes < headerBytes)
        {
            return DropReason.SHORT;
        }
        final long payloadBytes = buffer.get(U32, offset + FrameFlyweight.PAYLOAD_LENGTH_OFFSET) & MAX_U32;
        final long declaredBytes = headerBytes + payloadBytes;
        if (declaredBytes > receivedBytes ||
            (declaredBytes < receivedBytes && receivedBytes > MIN_ETHERNET_PAYLOAD_BYTES))
        {
            return DropReason.BAD_LENGTH;
        }
        if (payloadBytes > kind.maxPayloadBytes())
        {
            return DropReason.BAD_LENGTH;
        }
        return checkKindPart(kind, buffer, offset, payloadBytes);
    }

    private static DropReason checkKindPart(
        final FrameKind kind, final MemorySegment buffer, final long offset, final long payloadBytes)
    {
        return switch (kind)
        {
            case CONNECT_REQUEST, CONNECT_REPLY -> checkConnect(kind, buffer, offset);
            case TINY, SMALL -> (buffer.get(U32, offset + EagerFrame.MESSAGE_LENGTH_OFFSET) & MAX_U32) == payloadBytes ?
                DropReason.NONE : DropReason.BAD_LENGTH;
            case MEDIUM_FRAG -> checkMediumFrag(buffer, offset, payloadBytes);
            case RNDV -> inRange(buffer.get(U64, offset + RndvFrame.REGION_OFFSET_OFFSET),
                buffer.get(U64, offset + RndvFrame.MESSAGE_LENGTH_OFFSET)) ? DropReason.NONE : DropReason.OUT_OF_RANGE;
            case PULL -> payloadBytes != 0 && payloadBytes != PullFrame.KEY_PAYLOAD_BYTES ? DropReason.BAD_LENGTH :
                checkPull(buffer, offset);
            case PULL_REPLY -> checkPullReply(buffer, offset, payloadBytes);
            case NOTIFY -> checkNotify(buffer, offset);
            case ACK -> DropReason.NONE;
            case NACK -> checkNack(buffer, offset);
            case PUT -> checkPut(buffer, offset, payloadBytes);
            case ATOMIC -> checkAtomic(buffer, offset, payloadBytes);
            case PUT_ACK, ATOMIC_REPLY -> DropReason.NONE;
        };
    }

    private static DropReason checkPut(final MemorySegment buffer, final long offset, final long payloadBytes)
    {
        if (payloadBytes == 0)
        {
            return DropReason.BAD_LENGTH;
        }
        final long frameCount = buffer.get(U32, offset + PutFrame.FRAME_COUNT_OFFSET) & MAX_U32;
        if (frameCount == 0)
        {
            return DropReason.BAD_FIELD;
        }
        if ((buffer.get(U32, offset + PutFrame.FRAME_INDEX_OFFSET) & MAX_U32) >= frameCount ||
            !inRange(buffer.get(U64, offset + PutFrame.REGION_OFFSET_OFFSET), payloadBytes) ||
            !inRange(buffer.get(U64, offset + PutFrame.PUT_OFFSET_OFFSET), payloadBytes))
        {
            return DropReason.OUT_OF_RANGE;
        }
        return DropReason.NONE;
    }

    private static DropReason checkAtomic(final MemorySegment buffer, final long offset, final long payloadBytes)
    {
        final int op = buffer.get(U8, offset + AtomicFrame.OP_OFFSET) & 0xFF;
        final int width = buffer.get(U8, offset + AtomicFrame.WIDTH_OFFSET) & 0xFF;
        final int count = buffer.get(U16, offset + AtomicFrame.COUNT_OFFSET) & 0xFFFF;
        final int operands = AtomicFrame.operandCount(op, count);
        if (operands < 1 || (width != 4 && width != 8) || count < 1 ||
            (op != AtomicFrame.OP_ACCUMULATE && count != 1) || count > AtomicFrame.MAX_ACCUMULATE_WORDS)
        {
            return DropReason.BAD_FIELD;
        }
        if (payloadBytes != (long)operands * AtomicFrame.OPERAND_BYTES)
        {
            return DropReason.BAD_LENGTH;
        }
        return inRange(buffer.get(U64, offset + AtomicFrame.REGION_OFFSET_OFFSET), (long)count * width) ?
            DropReason.NONE : DropReason.OUT_OF_RANGE;
    }

    private static DropReason checkNotify(final MemorySegment buffer, final long offset)
    {
        if (null == NotifyStatus.fromCode(buffer.get(U32, offset + NotifyFrame.STATUS_OFFSET)))
        {
            return DropReason.BAD_FIELD;
        }
        return buffer.get(U64, offset + NotifyFrame.BYTES_PULLED_OFFSET) >= 0 ? DropReason.NONE : DropReason.OUT_OF_RANGE;
    }

    private static DropReason checkConnect(final FrameKind kind, final MemorySegment buffer, final long offset)
    {
        if (buffer.get(U32, offset + FrameFlyweight.SRC_SESSION_OFFSET) == 0)
        {
            return DropReason.BAD_FIELD;
        }
        final ConnectStatus status = ConnectStatus.fromCode(buffer.get(U8, offset + ConnectFrame.STATUS_OFFSET) & 0xFF);
        if (null == status || (kind == FrameKind.CONNECT_REQUEST && status != ConnectStatus.OK))
        {
            return DropReason.BAD_FIELD;
        }
        return DropReason.NONE;
    }

    private static DropReason checkMediumFrag(final MemorySegment buffer, final long offset, final long payloadBytes)
    {
        if (payloadBytes == 0)
        {
            return DropReason.BAD_LENGTH;
        }
        final int fragIndex = buffer.get(U16, offset + MediumFragFrame.FRAG_INDEX_OFFSET) & 0xFFFF;
        final int fragCount = buffer.get(U16, offset + MediumFragFrame.FRAG_COUNT_OFFSET) & 0xFFFF;
        if (fragCount == 0)
        {
            return DropReason.BAD_FIELD;
        }
        if (fragIndex >= fragCount)
        {
            return DropReason.OUT_OF_RANGE;
        }
        final long messageBytes = buffer.get(U32, offset + MediumFragFrame.MESSAGE_LENGTH_OFFSET) & MAX_U32;
        final long fragOffset = buffer.get(U32, offset + MediumFragFrame.FRAG_OFFSET_OFFSET) & MAX_U32;
        return fragOffset + payloadBytes <= messageBytes ? DropReason.NONE : DropReason.OUT_OF_RANGE;
    }

    private static DropReason checkPull(final MemorySegment buffer, final long offset)
    {
        final long blockBytes = buffer.get(U32, offset + PullFrame.BLOCK_LENGTH_OFFSET) & MAX_U32;
        final long replyPayloadBytes = buffer.get(U32, offset + PullFrame.REPLY_PAYLOAD_BYTES_OFFSET) & MAX_U32;
        if (blockBytes == 0 || replyPayloadBytes == 0)
        {
            return DropReason.BAD_FIELD;
        }
        final int frameCount = buffer.get(U16, offset + PullFrame.FRAME_COUNT_OFFSET) & 0xFFFF;
        if (frameCount != PullFrame.frameCount(blockBytes, replyPayloadBytes))
        {
            return DropReason.BAD_FIELD;
        }
        if (!inRange(buffer.get(U64, offset + PullFrame.REGION_OFFSET_OFFSET), blockBytes) ||
            !inRange(buffer.get(U64, offset + PullFrame.PULL_OFFSET_OFFSET), blockBytes))
        {
            return DropReason.OUT_OF_RANGE;
        }
        return DropReason.NONE;
    }

    private static DropReason checkPullReply(final MemorySegment buffer, final long offset, final long payloadBytes)
    {
        if (payloadBytes == 0)
        {
            return DropReason.BAD_LENGTH;
        }
        return inRange(buffer.get(U64, offset + PullReplyFrame.PULL_OFFSET_OFFSET), payloadBytes) ?
            DropReason.NONE : DropReason.OUT_OF_RANGE;
    }

    private static DropReason checkNack(final MemorySegment buffer, final long offset)
    {
        if (null == NackReason.fromCode(buffer.get(U8, offset + NackFrame.REASON_OFFSET) & 0xFF) ||
            null == FrameKind.fromCode(buffer.get(U8, offset + NackFrame.REFUSED_KIND_OFFSET) & 0xFF))
        {
            return DropReason.BAD_FIELD;
        }
        return DropReason.NONE;
    }

    private static boolean inRange(final long start, final long length)
    {
        return start >= 0 && length >= 0 && start + length >= 0;
    }

    /**
     * Check that a frame {@link #check valid} by its bytes is addressed to this endpoint: the
     * destination endpoint index must match, and the destination session too, except in a
     * CONNECT_REQUEST, whose sender cannot know the session yet.
     *
     * @param buffer        buffer holding the frame.
     * @param offset        offset of the frame.
     * @param endpointIndex the receiving endpoint's index.
     * @param sessionId     the receiving endpoint's session id.
     * @return {@link DropReason#NONE}, {@link DropReason#WRONG_ENDPOINT} or {@link DropReason#WRONG_SESSION}.
     */
    public static DropReason checkAddressedTo(
        final MemorySegment buffer, final long offset, final int endpointIndex, final int sessionId)
    {
        if ((buffer.get(U8, offset + FrameFlyweight.DST_ENDPOINT_OFFSET) & 0xFF) != endpointIndex)
        {
            return DropReason.WRONG_ENDPOINT;
        }
        if ((buffer.get(U8, offset + FrameFlyweight.KIND_OFFSET) & 0xFF) != FrameKind.CONNECT_REQUEST.code() &&
            buffer.get(U32, offset + FrameFlyweight.DST_SESSION_OFFSET) != sessionId)
        {
            return DropReason.WRONG_SESSION;
        }
        return DropReason.NONE;
    }
}
