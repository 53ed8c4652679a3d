package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * RNDV: a large message is ready in the sender's declared region; the receiver pulls
 * {@code messageLength} bytes from {@code regionOffset} of region {@code regionId} and then
 * sends NOTIFY with the send handle. No payload.
 */
public final class RndvFrame extends FrameFlyweight
{
    /** u64 match info. */
    public static final int MATCH_INFO_OFFSET = HEADER_BYTES;
    /** u64 message length, 0..2^63-1. */
    public static final int MESSAGE_LENGTH_OFFSET = HEADER_BYTES + 8;
    /** u64 offset of the message in the sender's region, 0..2^63-1. */
    public static final int REGION_OFFSET_OFFSET = HEADER_BYTES + 16;
    /** u32 sender's region id (opaque). */
    public static final int REGION_ID_OFFSET = HEADER_BYTES + 24;
    /** u32 sender's send handle (opaque), echoed by NOTIFY. */
    public static final int SEND_HANDLE_OFFSET = HEADER_BYTES + 28;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 32;

    @Override
    public RndvFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @param matchInfo     match info.
     * @param messageLength message length.
     * @param regionId      sender's region id.
     * @param regionOffset  offset of the message in the region.
     * @param sendHandle    sender's send handle.
     * @return this.
     */
    public RndvFrame encode(
        final long matchInfo, final long messageLength, final int regionId, final long regionOffset, final int sendHandle)
    {
        buffer.set(U64, offset + MATCH_INFO_OFFSET, matchInfo);
        buffer.set(U64, offset + MESSAGE_LENGTH_OFFSET, messageLength);
        buffer.set(U64, offset + REGION_OFFSET_OFFSET, regionOffset);
        buffer.set(U32, offset + REGION_ID_OFFSET, regionId);
        buffer.set(U32, offset + SEND_HANDLE_OFFSET, sendHandle);
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
     * @return message length.
     */
    public long messageLength()
    {
        return buffer.get(U64, offset + MESSAGE_LENGTH_OFFSET);
    }

    /**
     * @return offset of the message in the sender's region.
     */
    public long regionOffset()
    {
        return buffer.get(U64, offset + REGION_OFFSET_OFFSET);
    }

    /**
     * @return sender's region id.
     */
    public int regionId()
    {
        return buffer.get(U32, offset + REGION_ID_OFFSET);
    }

    /**
     * @return sender's send handle.
     */
    public int sendHandle()
    {
        return buffer.get(U32, offset + SEND_HANDLE_OFFSET);
    }
}
