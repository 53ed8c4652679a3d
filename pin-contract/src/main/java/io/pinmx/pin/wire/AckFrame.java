package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * ACK: explicit acknowledgement when no data frame goes back to piggy-back it on. No payload.
 */
public final class AckFrame extends FrameFlyweight
{
    /** u32 every sequence number before this one was received. */
    public static final int ACK_UP_TO_OFFSET = HEADER_BYTES;
    /** u32 reserved. */
    public static final int RESERVED_PART_OFFSET = HEADER_BYTES + 4;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 8;

    @Override
    public AckFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @param ackUpTo every sequence before this one was received.
     * @return this.
     */
    public AckFrame encode(final int ackUpTo)
    {
        buffer.set(U32, offset + ACK_UP_TO_OFFSET, ackUpTo);
        buffer.set(U32, offset + RESERVED_PART_OFFSET, 0);
        return this;
    }

    /**
     * @return every sequence before this one was received.
     */
    public int ackUpTo()
    {
        return buffer.get(U32, offset + ACK_UP_TO_OFFSET);
    }
}
