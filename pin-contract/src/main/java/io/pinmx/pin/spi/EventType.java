package io.pinmx.pin.spi;

import io.pinmx.pin.wire.FrameKind;

/**
 * What a {@link DriverEvent} reports.
 */
public enum EventType
{
    /** A TINY frame arrived; the frame is in the event. */
    RECV_TINY,
    /** A SMALL frame arrived. */
    RECV_SMALL,
    /** A MEDIUM_FRAG frame arrived. */
    RECV_MEDIUM_FRAG,
    /** A RNDV frame arrived. */
    RECV_RNDV,
    /** A NOTIFY frame arrived. */
    RECV_NOTIFY,
    /** A CONNECT_REQUEST frame arrived. */
    RECV_CONNECT_REQUEST,
    /** A CONNECT_REPLY frame arrived. */
    RECV_CONNECT_REPLY,
    /** An ACK frame arrived. */
    RECV_ACK,
    /** A NACK frame arrived that refuses a frame the library sent (not a pull). */
    RECV_NACK,
    /** A pull completed: all its bytes are in the local region. */
    PULL_DONE,
    /** A pull failed; the event's error kind and message say why. */
    PULL_FAILED,
    /** A send completed. */
    SEND_DONE,
    /** A put completed remotely: every byte is in the target's memory. */
    PUT_DONE,
    /** A put failed; the event's error kind and message say why (bytes acknowledged before it are written). */
    PUT_FAILED,
    /** An atomic was applied; the event carries the old value. */
    ATOMIC_DONE,
    /** An atomic failed; the event's error kind and message say why. */
    ATOMIC_FAILED;

    private static final EventType[] BY_FRAME_KIND = new EventType[FrameKind.MAX_CODE + 1];

    static
    {
        BY_FRAME_KIND[FrameKind.TINY.code()] = RECV_TINY;
        BY_FRAME_KIND[FrameKind.SMALL.code()] = RECV_SMALL;
        BY_FRAME_KIND[FrameKind.MEDIUM_FRAG.code()] = RECV_MEDIUM_FRAG;
        BY_FRAME_KIND[FrameKind.RNDV.code()] = RECV_RNDV;
        BY_FRAME_KIND[FrameKind.NOTIFY.code()] = RECV_NOTIFY;
        BY_FRAME_KIND[FrameKind.CONNECT_REQUEST.code()] = RECV_CONNECT_REQUEST;
        BY_FRAME_KIND[FrameKind.CONNECT_REPLY.code()] = RECV_CONNECT_REPLY;
        BY_FRAME_KIND[FrameKind.ACK.code()] = RECV_ACK;
        BY_FRAME_KIND[FrameKind.NACK.code()] = RECV_NACK;
    }

    /**
     * @param kind kind of a received frame.
     * @return the receive event for it, or null for the kinds the driver consumes (PULL, PULL_REPLY and the
     *         one-sided PUT, PUT_ACK, ATOMIC, ATOMIC_REPLY).
     */
    public static EventType received(final FrameKind kind)
    {
        return BY_FRAME_KIND[kind.code()];
    }
}
