package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * CONNECT_REQUEST and CONNECT_REPLY: the application key, the connect sequence that pairs a
 * reply with its request, the first sequence number the sender will use, and the reply status.
 * The sender's session id is the common header's source session.
 */
public final class ConnectFrame extends FrameFlyweight
{
    /** u32 application key. */
    public static final int APP_KEY_OFFSET = HEADER_BYTES;
    /** u32 connect sequence chosen by the requester, echoed by the reply. */
    public static final int CONNECT_SEQ_OFFSET = HEADER_BYTES + 4;
    /** u32 first sequence number the sender of this frame will use towards the peer. */
    public static final int INITIAL_SEQ_OFFSET = HEADER_BYTES + 8;
    /** u8 {@link ConnectStatus} code (0 in a request). */
    public static final int STATUS_OFFSET = HEADER_BYTES + 12;
    /** u8[3] reserved. */
    public static final int RESERVED_PART_OFFSET = HEADER_BYTES + 13;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 16;

    @Override
    public ConnectFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @param appKey     application key.
     * @param connectSeq connect sequence.
     * @param initialSeq first sequence number the sender will use.
     * @param status     {@link ConnectStatus#OK} for a request.
     * @return this.
     */
    public ConnectFrame encode(final int appKey, final int connectSeq, final int initialSeq, final ConnectStatus status)
    {
        buffer.set(U32, offset + APP_KEY_OFFSET, appKey);
        buffer.set(U32, offset + CONNECT_SEQ_OFFSET, connectSeq);
        buffer.set(U32, offset + INITIAL_SEQ_OFFSET, initialSeq);
        statusCode(status.code());
        buffer.set(U8, offset + RESERVED_PART_OFFSET, (byte)0);
        buffer.set(U16, offset + RESERVED_PART_OFFSET + 1, (short)0);
        return this;
    }

    /**
     * @return application key.
     */
    public int appKey()
    {
        return buffer.get(U32, offset + APP_KEY_OFFSET);
    }

    /**
     * @return connect sequence.
     */
    public int connectSeq()
    {
        return buffer.get(U32, offset + CONNECT_SEQ_OFFSET);
    }

    /**
     * @return first sequence number the sender will use.
     */
    public int initialSeq()
    {
        return buffer.get(U32, offset + INITIAL_SEQ_OFFSET);
    }

    /**
     * @return raw status code, 0..255.
     */
    public int statusCode()
    {
        return buffer.get(U8, offset + STATUS_OFFSET) & 0xFF;
    }

    /**
     * @param code raw status code to write.
     * @return this.
     */
    public ConnectFrame statusCode(final int code)
    {
        buffer.set(U8, offset + STATUS_OFFSET, (byte)code);
        return this;
    }

    /**
     * @return the status, or null for an unknown code.
     */
    public ConnectStatus status()
    {
        return ConnectStatus.fromCode(statusCode());
    }
}
