package io.pinmx.pin.spi;

/**
 * Machine-readable kind of a driver failure, carried by {@link DriverException} and by
 * {@link EventType#PULL_FAILED} events.
 */
public enum DriverError
{
    /** An argument is out of range or malformed; nothing was changed. */
    BAD_ARGUMENT,
    /** A region id names no declared region of the endpoint (or of the peer, for a pull). */
    UNKNOWN_REGION,
    /** A peer index names no known peer. */
    UNKNOWN_PEER,
    /** A declared segment is not mapped (EFAULT) when a pull touched it. */
    SEGMENT_FAULT,
    /** An offset or length reaches past the end of a region. */
    OUT_OF_RANGE,
    /** The endpoint was closed. */
    ENDPOINT_CLOSED,
    /** A bounded table (regions, endpoints, pulls in flight) is full. */
    NO_RESOURCES,
    /** The peer did not answer within its retries, or refused the endpoint or session. */
    PEER_UNREACHABLE,
    /** A deadline passed. */
    TIMEOUT,
    /** A system call failed; the errno says why. */
    SYSTEM,
    /** The remote region refused the access: no key, another key, or a region not declared for remote access. */
    BAD_KEY,
    /** The provider lacks the {@link DriverFeature} the operation needs; nothing was done. */
    UNSUPPORTED
}
