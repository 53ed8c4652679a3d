package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * TINY and SMALL: a whole eager message in one frame, with its 64-bit match info. The message
 * length must equal the payload length.
 */
public final class EagerFrame extends FrameFlyweight
{
    /** Largest TINY payload. */
    public static final int TINY_MAX_PAYLOAD_BYTES = 32;
    /** Largest SMALL payload. */
    public static final int SMALL_MAX_PAYLOAD_BYTES = 128;

    /** u64 match info. */
    public static final int MATCH_INFO_OFFSET = HEADER_BYTES;
    /** u32 message length (= payload length). */
    public static final int MESSAGE_LENGTH_OFFSET = HEADER_BYTES + 8;
    /** u32 reserved. */
    public static final int RESERVED_PART_OFFSET = HEADER_BYTES + 12;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 16;

    @Override
    public EagerFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @param matchInfo     match info.
     * @param messageLength message length, equal to the payload length.
     * @return this.
     */
    public EagerFrame encode(final long matchInfo, final int messageLength)
    {
        buffer.set(U64, offset + MATCH_INFO_OFFSET, matchInfo);
        buffer.set(U32, offset + MESSAGE_LENGTH_OFFSET, messageLength);
        buffer.set(U32, offset + RESERVED_PART_OFFSET, 0);
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
     * @return message length (unsigned 32-bit).
     */
    public long messageLength()
    {
        return buffer.get(U32, offset + MESSAGE_LENGTH_OFFSET) & 0xFFFF_FFFFL;
    }
}
