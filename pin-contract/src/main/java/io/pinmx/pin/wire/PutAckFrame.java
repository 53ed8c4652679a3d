package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * PUT_ACK: the target wrote one PUT frame.
 */
public final class PutAckFrame extends FrameFlyweight
{
    /** u32 the put handle from the PUT. */
    public static final int PUT_HANDLE_OFFSET = HEADER_BYTES;
    /** u32 the frame written. */
    public static final int FRAME_INDEX_OFFSET = HEADER_BYTES + 4;
    /** u64 reserved, 0. */
    public static final int RESERVED_PART_OFFSET = HEADER_BYTES + 8;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 16;

    @Override
    public PutAckFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @return this.
     */
    public PutAckFrame encode(final int putHandle, final int frameIndex)
    {
        buffer.set(U32, offset + PUT_HANDLE_OFFSET, putHandle);
        buffer.set(U32, offset + FRAME_INDEX_OFFSET, frameIndex);
        buffer.set(U64, offset + RESERVED_PART_OFFSET, 0L);
        return this;
    }

    public int putHandle()
    {
        return buffer.get(U32, offset + PUT_HANDLE_OFFSET);
    }

    public int frameIndex()
    {
        return buffer.get(U32, offset + FRAME_INDEX_OFFSET);
    }
}
