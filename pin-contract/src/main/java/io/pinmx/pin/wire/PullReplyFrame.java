package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * PULL_REPLY: one frame of pulled data; the payload is bytes
 * {@code [pullOffset, pullOffset + payloadLength)} of the pull named by the puller's handle.
 */
public final class PullReplyFrame extends FrameFlyweight
{
    /** u32 puller's pull handle, from the PULL. */
    public static final int PULL_HANDLE_OFFSET = HEADER_BYTES;
    /** u32 frame index within the pull. */
    public static final int FRAME_INDEX_OFFSET = HEADER_BYTES + 4;
    /** u64 offset within the pull of the payload's first byte, 0..2^63-1. */
    public static final int PULL_OFFSET_OFFSET = HEADER_BYTES + 8;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 16;

    @Override
    public PullReplyFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @param pullHandle puller's handle.
     * @param frameIndex frame index within the pull.
     * @param pullOffset offset within the pull of the payload.
     * @return this.
     */
    public PullReplyFrame encode(final int pullHandle, final int frameIndex, final long pullOffset)
    {
        buffer.set(U32, offset + PULL_HANDLE_OFFSET, pullHandle);
        buffer.set(U32, offset + FRAME_INDEX_OFFSET, frameIndex);
        buffer.set(U64, offset + PULL_OFFSET_OFFSET, pullOffset);
        return this;
    }

    /**
     * @return puller's handle.
     */
    public int pullHandle()
    {
        return buffer.get(U32, offset + PULL_HANDLE_OFFSET);
    }

    /**
     * @return frame index within the pull.
     */
    public int frameIndex()
    {
        return buffer.get(U32, offset + FRAME_INDEX_OFFSET);
    }

    /**
     * @return offset within the pull of the payload.
     */
    public long pullOffset()
    {
        return buffer.get(U64, offset + PULL_OFFSET_OFFSET);
    }
}
