package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * PUT: the payload is written at {@code regionOffset} of the target's region exposed for remote writes, which must be
 * named with its key; the target answers PUT_ACK for the frame. The common header's seq is the put's number among
 * its origin endpoint's puts and its ack seq the number of the origin's oldest put still running, so a target drops
 * late duplicates of ended puts.
 */
public final class PutFrame extends FrameFlyweight
{
    /** u32 origin's put handle, echoed by PUT_ACK and NACK. */
    public static final int PUT_HANDLE_OFFSET = HEADER_BYTES;
    /** u32 target endpoint's region. */
    public static final int REGION_ID_OFFSET = HEADER_BYTES + 4;
    /** u64 region offset of the payload's first byte. */
    public static final int REGION_OFFSET_OFFSET = HEADER_BYTES + 8;
    /** u64 the region's key. */
    public static final int KEY_OFFSET = HEADER_BYTES + 16;
    /** u32 index of this frame in the put. */
    public static final int FRAME_INDEX_OFFSET = HEADER_BYTES + 24;
    /** u32 frames of the put, at least 1. */
    public static final int FRAME_COUNT_OFFSET = HEADER_BYTES + 28;
    /** u64 offset of the payload within the put's bytes (a vector put's pieces one after the other). */
    public static final int PUT_OFFSET_OFFSET = HEADER_BYTES + 32;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 40;

    @Override
    public PutFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @return this.
     */
    public PutFrame encode(
        final int putHandle, final int regionId, final long regionOffset, final long key, final int frameIndex,
        final int frameCount, final long putOffset)
    {
        buffer.set(U32, offset + PUT_HANDLE_OFFSET, putHandle);
        buffer.set(U32, offset + REGION_ID_OFFSET, regionId);
        buffer.set(U64, offset + REGION_OFFSET_OFFSET, regionOffset);
        buffer.set(U64, offset + KEY_OFFSET, key);
        buffer.set(U32, offset + FRAME_INDEX_OFFSET, frameIndex);
        buffer.set(U32, offset + FRAME_COUNT_OFFSET, frameCount);
        buffer.set(U64, offset + PUT_OFFSET_OFFSET, putOffset);
        return this;
    }

    public int putHandle()
    {
        return buffer.get(U32, offset + PUT_HANDLE_OFFSET);
    }

    public int regionId()
    {
        return buffer.get(U32, offset + REGION_ID_OFFSET);
    }

    public long regionOffset()
    {
        return buffer.get(U64, offset + REGION_OFFSET_OFFSET);
    }

    public long key()
    {
        return buffer.get(U64, offset + KEY_OFFSET);
    }

    public int frameIndex()
    {
        return buffer.get(U32, offset + FRAME_INDEX_OFFSET);
    }

    public int frameCount()
    {
        return buffer.get(U32, offset + FRAME_COUNT_OFFSET);
    }

    public long putOffset()
    {
        return buffer.get(U64, offset + PUT_OFFSET_OFFSET);
    }
}
