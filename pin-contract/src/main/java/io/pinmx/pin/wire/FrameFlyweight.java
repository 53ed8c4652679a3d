package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Flyweight over the 32-byte common header every MXoE frame starts with. Wrap it over a buffer
 * at an offset, then read or write fields in place; nothing is copied or allocated. Multi-byte
 * fields are big-endian and need no alignment. 32-bit ids, sessions, sequences and handles are
 * opaque and returned as {@code int}.
 */
public class FrameFlyweight
{
    /** EtherType of MXoE frames on Ethernet. */
    public static final int ETHER_TYPE = 0x86DF;
    /** Protocol version this codec reads and writes. */
    public static final int VERSION = 1;
    /** Ethernet pads shorter payloads up to this many bytes; receivers accept that padding. */
    public static final int MIN_ETHERNET_PAYLOAD_BYTES = 46;

    /** u8 frame kind code. */
    public static final int KIND_OFFSET = 0;
    /** u8 protocol version. */
    public static final int VERSION_OFFSET = 1;
    /** u16 flags. */
    public static final int FLAGS_OFFSET = 2;
    /** u8 destination endpoint index. */
    public static final int DST_ENDPOINT_OFFSET = 4;
    /** u8 source endpoint index. */
    public static final int SRC_ENDPOINT_OFFSET = 5;
    /** u16 reserved, written as 0. */
    public static final int RESERVED_OFFSET = 6;
    /** u32 destination session id. */
    public static final int DST_SESSION_OFFSET = 8;
    /** u32 source session id. */
    public static final int SRC_SESSION_OFFSET = 12;
    /** u32 sequence number. */
    public static final int SEQ_OFFSET = 16;
    /** u32 piggy-backed ack: every sequence before it was received (valid with FLAG_ACK_VALID). */
    public static final int ACK_SEQ_OFFSET = 20;
    /** u32 payload bytes after the kind part. */
    public static final int PAYLOAD_LENGTH_OFFSET = 24;
    /**
     * u32 frame check: the UDP carrier's CRC32C of the frame (the user driver writes and checks it); written as 0 by
     * the codec and on Ethernet, where receivers ignore it.
     */
    public static final int FRAME_CHECK_OFFSET = 28;
    /** Length of the common header. */
    public static final int HEADER_BYTES = 32;

    /** The ack sequence field is valid. */
    public static final int FLAG_ACK_VALID = 0x1;
    /** The sender asks for an ACK now instead of a delayed one. */
    public static final int FLAG_ACK_REQUESTED = 0x2;
    /** This frame is a retransmission. */
    public static final int FLAG_RESENT = 0x4;

    static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Buffer wrapped. */
    protected MemorySegment buffer = MemorySegment.NULL;
    /** Offset of the frame in the buffer. */
    protected long offset;

    /**
     * @param buffer buffer holding the frame.
     * @param offset offset of the frame's first byte.
     * @return this.
     */
    public FrameFlyweight wrap(final MemorySegment buffer, final long offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * @return the wrapped buffer.
     */
    public MemorySegment buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the frame in the buffer.
     */
    public long offset()
    {
        return offset;
    }

    /**
     * Write the whole common header: version, kind, no flags, ack 0, reserved 0.
     *
     * @param kind          frame kind.
     * @param dstEndpoint   destination endpoint index, 0..255.
     * @param srcEndpoint   source endpoint index, 0..255.
     * @param dstSession    destination session id (0 in a CONNECT_REQUEST).
     * @param srcSession    the sender's session id.
     * @param seq           sequence number (0 for frames outside the sequenced stream).
     * @param payloadLength payload bytes after the kind part.
     */
    public void encodeHeader(
        final FrameKind kind,
        final int dstEndpoint,
        final int srcEndpoint,
        final int dstSession,
        final int srcSession,
        final int seq,
        final int payloadLength)
    {
        if ((dstEndpoint & ~0xFF) != 0 || (srcEndpoint & ~0xFF) != 0)
        {
            throw new IllegalArgumentException(
                "endpoint index out of 0..255: dst=" + dstEndpoint + " src=" + srcEndpoint);
        }
        if (payloadLength < 0 || payloadLength > kind.maxPayloadBytes())
        {
            throw new IllegalArgumentException(
                kind + " payload length " + payloadLength + " not in 0.." + kind.maxPayloadBytes());
        }
        buffer.set(U8, offset + KIND_OFFSET, (byte)kind.code());
        buffer.set(U8, offset + VERSION_OFFSET, (byte)VERSION);
        buffer.set(U16, offset + FLAGS_OFFSET, (short)0);
        buffer.set(U8, offset + DST_ENDPOINT_OFFSET, (byte)dstEndpoint);
        buffer.set(U8, offset + SRC_ENDPOINT_OFFSET, (byte)srcEndpoint);
        buffer.set(U16, offset + RESERVED_OFFSET, (short)0);
        buffer.set(U32, offset + DST_SESSION_OFFSET, dstSession);
        buffer.set(U32, offset + SRC_SESSION_OFFSET, srcSession);
        buffer.set(U32, offset + SEQ_OFFSET, seq);
        buffer.set(U32, offset + ACK_SEQ_OFFSET, 0);
        buffer.set(U32, offset + PAYLOAD_LENGTH_OFFSET, payloadLength);
        buffer.set(U32, offset + FRAME_CHECK_OFFSET, 0);
    }

    /**
     * @return raw kind code, 0..255.
     */
    public int kindCode()
    {
        return buffer.get(U8, offset + KIND_OFFSET) & 0xFF;
    }

    /**
     * @return the kind, or null for an unknown code.
     */
    public FrameKind kind()
    {
        return FrameKind.fromCode(kindCode());
    }

    /**
     * @return protocol version, 0..255.
     */
    public int version()
    {
        return buffer.get(U8, offset + VERSION_OFFSET) & 0xFF;
    }

    /**
     * @param version protocol version to write (tests write bad ones).
     */
    public void version(final int version)
    {
        buffer.set(U8, offset + VERSION_OFFSET, (byte)version);
    }

    /**
     * @return flags, 0..65535.
     */
    public int flags()
    {
        return buffer.get(U16, offset + FLAGS_OFFSET) & 0xFFFF;
    }

    /**
     * @param flags flags to write.
     */
    public void flags(final int flags)
    {
        buffer.set(U16, offset + FLAGS_OFFSET, (short)flags);
    }

    /**
     * @return destination endpoint index, 0..255.
     */
    public int dstEndpoint()
    {
        return buffer.get(U8, offset + DST_ENDPOINT_OFFSET) & 0xFF;
    }

    /**
     * @return source endpoint index, 0..255.
     */
    public int srcEndpoint()
    {
        return buffer.get(U8, offset + SRC_ENDPOINT_OFFSET) & 0xFF;
    }

    /**
     * @return destination session id.
     */
    public int dstSession()
    {
        return buffer.get(U32, offset + DST_SESSION_OFFSET);
    }

    /**
     * @param session destination session id to write.
     */
    public void dstSession(final int session)
    {
        buffer.set(U32, offset + DST_SESSION_OFFSET, session);
    }

    /**
     * @return the sender's session id.
     */
    public int srcSession()
    {
        return buffer.get(U32, offset + SRC_SESSION_OFFSET);
    }

    /**
     * @return sequence number.
     */
    public int seq()
    {
        return buffer.get(U32, offset + SEQ_OFFSET);
    }

    /**
     * @param seq sequence number to write (resends rewrite it in place).
     */
    public void seq(final int seq)
    {
        buffer.set(U32, offset + SEQ_OFFSET, seq);
    }

    /**
     * @return piggy-backed ack; meaningful only when {@link #FLAG_ACK_VALID} is set.
     */
    public int ackSeq()
    {
        return buffer.get(U32, offset + ACK_SEQ_OFFSET);
    }

    /**
     * Piggy-back an ack and set {@link #FLAG_ACK_VALID}.
     *
     * @param ackSeq every sequence before this one was received.
     */
    public void ackSeq(final int ackSeq)
    {
        buffer.set(U32, offset + ACK_SEQ_OFFSET, ackSeq);
        flags(flags() | FLAG_ACK_VALID);
    }

    /**
     * @return true when the ack sequence field is valid.
     */
    public boolean hasAck()
    {
        return (flags() & FLAG_ACK_VALID) != 0;
    }

    /**
     * @return payload length as written (unsigned 32-bit; valid frames keep it below 2^31).
     */
    public int payloadLength()
    {
        return buffer.get(U32, offset + PAYLOAD_LENGTH_OFFSET);
    }

    /**
     * @param payloadLength payload length to write.
     */
    public void payloadLength(final int payloadLength)
    {
        buffer.set(U32, offset + PAYLOAD_LENGTH_OFFSET, payloadLength);
    }

    /**
     * @return offset in the buffer of the payload's first byte, for a known kind.
     */
    public long payloadOffset()
    {
        return offset + kind().headerBytes();
    }

    /**
     * @return header, kind part and payload bytes as declared by the frame, for a known kind.
     */
    public int frameLength()
    {
        return kind().headerBytes() + payloadLength();
    }
}
