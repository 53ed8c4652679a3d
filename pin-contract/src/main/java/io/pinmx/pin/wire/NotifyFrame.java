package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * NOTIFY: the receiver of a RNDV pulled the message (or failed to, see {@link NotifyStatus});
 * the sender completes the send named by its handle. No payload.
 */
public final class NotifyFrame extends FrameFlyweight
{
    /** u32 sender's send handle, from the RNDV. */
    public static final int SEND_HANDLE_OFFSET = HEADER_BYTES;
    /** u32 {@link NotifyStatus} code. */
    public static final int STATUS_OFFSET = HEADER_BYTES + 4;
    /** u64 bytes the receiver pulled (may be less than the message when truncated), 0..2^63-1. */
    public static final int BYTES_PULLED_OFFSET = HEADER_BYTES + 8;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 16;

    @Override
    public NotifyFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @param sendHandle  sender's handle.
     * @param status      outcome of the receive.
     * @param bytesPulled bytes pulled.
     * @return this.
     */
    public NotifyFrame encode(final int sendHandle, final NotifyStatus status, final long bytesPulled)
    {
        buffer.set(U32, offset + SEND_HANDLE_OFFSET, sendHandle);
        buffer.set(U32, offset + STATUS_OFFSET, status.code());
        buffer.set(U64, offset + BYTES_PULLED_OFFSET, bytesPulled);
        return this;
    }

    /**
     * @return sender's handle.
     */
    public int sendHandle()
    {
        return buffer.get(U32, offset + SEND_HANDLE_OFFSET);
    }

    /**
     * @return the status, or null for an unknown code (dropped by {@link FrameReader#check}).
     */
    public NotifyStatus status()
    {
        return NotifyStatus.fromCode(buffer.get(U32, offset + STATUS_OFFSET));
    }

    /**
     * @return bytes pulled.
     */
    public long bytesPulled()
    {
        return buffer.get(U64, offset + BYTES_PULLED_OFFSET);
    }
}
