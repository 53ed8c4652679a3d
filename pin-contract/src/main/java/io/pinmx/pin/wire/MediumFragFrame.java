package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * MEDIUM_FRAG: one fragment of an eager message too big for one frame. The payload is bytes
 * {@code [fragOffset, fragOffset + payloadLength)} of a {@code messageLength}-byte message.
 */
public final class MediumFragFrame extends FrameFlyweight
{
    /** u64 match info. */
    public static final int MATCH_INFO_OFFSET = HEADER_BYTES;
    /** u32 total message length. */
    public static final int MESSAGE_LENGTH_OFFSET = HEADER_BYTES + 8;
    /** u32 offset of this fragment's first byte in the message. */
    public static final int FRAG_OFFSET_OFFSET = HEADER_BYTES + 12;
    /** u16 index of this fragment. */
    public static final int FRAG_INDEX_OFFSET = HEADER_BYTES + 16;
    /** u16 number of fragments in the message. */
    public static final int FRAG_COUNT_OFFSET = HEADER_BYTES + 18;
    /** u32 sequence number of the message (that of its first fragment). */
    public static final int MESSAGE_SEQ_OFFSET = HEADER_BYTES + 20;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 24;
    /** Most fragments a message may have. */
    public static final int MAX_FRAG_COUNT = 0xFFFF;

    @Override
    public MediumFragFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @param matchInfo     match info.
     * @param messageLength total message length.
     * @param fragOffset    offset of the fragment in the message.
     * @param fragIndex     fragment index, below fragCount.
     * @param fragCount     fragments in the message, 1..65535.
     * @param messageSeq    sequence number of the message.
     * @return this.
     */
    public MediumFragFrame encode(
        final long matchInfo,
        final int messageLength,
        final int fragOffset,
        final int fragIndex,
        final int fragCount,
        final int messageSeq)
    {
        buffer.set(U64, offset + MATCH_INFO_OFFSET, matchInfo);
        buffer.set(U32, offset + MESSAGE_LENGTH_OFFSET, messageLength);
        buffer.set(U32, offset + FRAG_OFFSET_OFFSET, fragOffset);
        buffer.set(U16, offset + FRAG_INDEX_OFFSET, (short)fragIndex);
        buffer.set(U16, offset + FRAG_COUNT_OFFSET, (short)fragCount);
        buffer.set(U32, offset + MESSAGE_SEQ_OFFSET, messageSeq);
        return this;
    }

    /**
     * @return match info.
     */
    public long matchInfo()
    {
        return buffer.get(U64, offset + MATCH_INFO_OFFSET);
    }

    /**
     * @return total message length (unsigned 32-bit).
     */
    public long messageLength()
    {
        return buffer.get(U32, offset + MESSAGE_LENGTH_OFFSET) & 0xFFFF_FFFFL;
    }

    /**
     * @return offset of this fragment in the message (unsigned 32-bit).
     */
    public long fragOffset()
    {
        return buffer.get(U32, offset + FRAG_OFFSET_OFFSET) & 0xFFFF_FFFFL;
    }

    /**
     * @return fragment index, 0..65535.
     */
    public int fragIndex()
    {
        return buffer.get(U16, offset + FRAG_INDEX_OFFSET) & 0xFFFF;
    }

    /**
     * @return fragment count, 0..65535.
     */
    public int fragCount()
    {
        return buffer.get(U16, offset + FRAG_COUNT_OFFSET) & 0xFFFF;
    }

    /**
     * @return sequence number of the message.
     */
    public int messageSeq()
    {
        return buffer.get(U32, offset + MESSAGE_SEQ_OFFSET);
    }
}
