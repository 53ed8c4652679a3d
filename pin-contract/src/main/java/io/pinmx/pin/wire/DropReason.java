package io.pinmx.pin.wire;

/**
 * Why a received frame is dropped. {@link #NONE} means the frame is valid. SHORT to OUT_OF_RANGE are
 * decided by {@link FrameReader#check} from the bytes alone; the last three by the receiving
 * endpoint from its own state.
 */
public enum DropReason
{
    /** Valid: not dropped. */
    NONE,
    /** Shorter than the common header, or than the common header plus the kind part. */
    SHORT,
    /** Kind code not defined by this protocol version. */
    UNKNOWN_KIND,
    /** Protocol version is not {@link FrameFlyweight#VERSION}. */
    BAD_VERSION,
    /** Payload length inconsistent with the frame length, the kind's limit or a message length. */
    BAD_LENGTH,
    /** A field holds a value its kind does not allow (status, reason, counts, zero session). */
    BAD_FIELD,
    /** An offset, index or offset + length lies outside the message, block or 63-bit range. */
    OUT_OF_RANGE,
    /** Addressed to an endpoint index not open here. */
    WRONG_ENDPOINT,
    /** Destination session id is not the endpoint's. */
    WRONG_SESSION,
    /** Names a region the endpoint has not declared. */
    UNKNOWN_REGION
}
