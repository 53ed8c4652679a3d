package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * PULL: the puller asks the serving endpoint for one block of a pull. The block is bytes
 * {@code [pullOffset, pullOffset + blockLength)} of the pull, read from {@code regionOffset} of
 * the serving endpoint's region {@code regionId}; the server answers with {@code frameCount}
 * PULL_REPLY frames of {@code replyPayloadBytes} each (the last one may be shorter), numbered
 * from {@code firstFrameIndex}. The puller is the common header's source endpoint and session.
 * No payload.
 */
public final class PullFrame extends FrameFlyweight
{
    /** u32 puller's pull handle (opaque). */
    public static final int PULL_HANDLE_OFFSET = HEADER_BYTES;
    /** u32 serving endpoint's region id (opaque). */
    public static final int REGION_ID_OFFSET = HEADER_BYTES + 4;
    /** u64 offset in the serving region of the block's first byte, 0..2^63-1. */
    public static final int REGION_OFFSET_OFFSET = HEADER_BYTES + 8;
    /** u64 offset within the pull of the block's first byte, 0..2^63-1. */
    public static final int PULL_OFFSET_OFFSET = HEADER_BYTES + 16;
    /** u32 block length, at least 1. */
    public static final int BLOCK_LENGTH_OFFSET = HEADER_BYTES + 24;
    /** u32 frame index within the pull of the block's first reply frame. */
    public static final int FIRST_FRAME_INDEX_OFFSET = HEADER_BYTES + 28;
    /** u16 reply frames in the block = ceil(blockLength / replyPayloadBytes). */
    public static final int FRAME_COUNT_OFFSET = HEADER_BYTES + 32;
    /** u16 reserved. */
    public static final int RESERVED_PART_OFFSET = HEADER_BYTES + 34;
    /** u32 payload bytes of each reply frame but the last, at least 1. */
    public static final int REPLY_PAYLOAD_BYTES_OFFSET = HEADER_BYTES + 36;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 40;
    /** Payload of a PULL naming the serving region's key (a region exposed for remote writes): one u64. */
    public static final int KEY_PAYLOAD_BYTES = 8;
    /** Most reply frames one block may ask for. */
    public static final int MAX_FRAME_COUNT = 0xFFFF;

    @Override
    public PullFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part; the frame count is derived from the block and reply lengths.
     *
     * @param pullHandle        puller's handle.
     * @param regionId          serving region id.
     * @param regionOffset      offset of the block in the serving region.
     * @param pullOffset        offset of the block in the pull.
     * @param blockLength       block length, at least 1.
     * @param firstFrameIndex   index of the block's first reply frame.
     * @param replyPayloadBytes bytes per reply frame, at least 1.
     * @return this.
     */
    public PullFrame encode(
        final int pullHandle,
        final int regionId,
        final long regionOffset,
        final long pullOffset,
        final int blockLength,
        final int firstFrameIndex,
        final int replyPayloadBytes)
    {
        if (blockLength < 1 || replyPayloadBytes < 1)
        {
            throw new IllegalArgumentException(
                "PULL block length " + blockLength + " and reply payload bytes " + replyPayloadBytes + " must be >= 1");
        }
        final int frameCount = frameCount(blockLength, replyPayloadBytes);
        if (frameCount > MAX_FRAME_COUNT)
        {
            throw new IllegalArgumentException("PULL block of " + blockLength + " bytes needs " + frameCount +
                " reply frames of " + replyPayloadBytes + " bytes, more than " + MAX_FRAME_COUNT);
        }
        buffer.set(U32, offset + PULL_HANDLE_OFFSET, pullHandle);
        buffer.set(U32, offset + REGION_ID_OFFSET, regionId);
        buffer.set(U64, offset + REGION_OFFSET_OFFSET, regionOffset);
        buffer.set(U64, offset + PULL_OFFSET_OFFSET, pullOffset);
        buffer.set(U32, offset + BLOCK_LENGTH_OFFSET, blockLength);
        buffer.set(U32, offset + FIRST_FRAME_INDEX_OFFSET, firstFrameIndex);
        buffer.set(U16, offset + FRAME_COUNT_OFFSET, (short)frameCount);
        buffer.set(U16, offset + RESERVED_PART_OFFSET, (short)0);
        buffer.set(U32, offset + REPLY_PAYLOAD_BYTES_OFFSET, replyPayloadBytes);
        return this;
    }

    /**
     * @param blockLength       block bytes, positive.
     * @param replyPayloadBytes bytes per reply frame, positive.
     * @return reply frames needed for the block.
     */
    public static int frameCount(final long blockLength, final long replyPayloadBytes)
    {
        return (int)((blockLength + replyPayloadBytes - 1) / replyPayloadBytes);
    }

    /**
     * @return puller's handle.
     */
    public int pullHandle()
    {
        return buffer.get(U32, offset + PULL_HANDLE_OFFSET);
    }

    /**
     * @return serving region id.
     */
    public int regionId()
    {
        return buffer.get(U32, offset + REGION_ID_OFFSET);
    }

    /**
     * @return offset of the block in the serving region.
     */
    public long regionOffset()
    {
        return buffer.get(U64, offset + REGION_OFFSET_OFFSET);
    }

    /**
     * @return offset of the block in the pull.
     */
    public long pullOffset()
    {
        return buffer.get(U64, offset + PULL_OFFSET_OFFSET);
    }

    /**
     * @return block length (unsigned 32-bit).
     */
    public long blockLength()
    {
        return buffer.get(U32, offset + BLOCK_LENGTH_OFFSET) & 0xFFFF_FFFFL;
    }

    /**
     * @return index of the block's first reply frame.
     */
    public int firstFrameIndex()
    {
        return buffer.get(U32, offset + FIRST_FRAME_INDEX_OFFSET);
    }

    /**
     * @return reply frames in the block, 0..65535.
     */
    public int frameCount()
    {
        return buffer.get(U16, offset + FRAME_COUNT_OFFSET) & 0xFFFF;
    }

    /**
     * @param frameCount raw frame count to write (tests write inconsistent ones).
     * @return this.
     */
    public PullFrame frameCount(final int frameCount)
    {
        buffer.set(U16, offset + FRAME_COUNT_OFFSET, (short)frameCount);
        return this;
    }

    /**
     * @return payload bytes per reply frame (unsigned 32-bit).
     */
    public long replyPayloadBytes()
    {
        return buffer.get(U32, offset + REPLY_PAYLOAD_BYTES_OFFSET) & 0xFFFF_FFFFL;
    }

    /**
     * Write the serving region's key as the payload (the header's payload length is {@link #KEY_PAYLOAD_BYTES}).
     *
     * @return this.
     */
    public PullFrame key(final long key)
    {
        buffer.set(U64, offset + HEADER_BYTES + KIND_PART_BYTES, key);
        return this;
    }

    /**
     * @return the key the payload carries; valid when the payload length is {@link #KEY_PAYLOAD_BYTES}.
     */
    public long key()
    {
        return buffer.get(U64, offset + HEADER_BYTES + KIND_PART_BYTES);
    }
}
