package io.pinmx.pin.wire;

/**
 * Why a NACK refuses a frame; carried in one byte.
 */
public enum NackReason
{
    /** No endpoint with the destination index is open. */
    BAD_ENDPOINT(1),
    /** The destination session id is not the endpoint's. */
    BAD_SESSION(2),
    /** A PULL named a region the serving endpoint has not declared (or no longer has). */
    UNKNOWN_REGION(3),
    /** A PULL reached past the end of the region, or the region lacks READ access. */
    OUT_OF_RANGE(4),
    /** Serving a PULL hit an unmapped page of a declared segment (EFAULT). */
    SEGMENT_FAULT(5),
    /**
     * A PULL asked for replies larger than the serving driver's link limit (carried in the address field), or an
     * ATOMIC's word is not naturally aligned in the target's memory.
     */
    BAD_FIELD(6),
    /** A PUT, ATOMIC or PULL on an exposed region carried no key or another key; nothing was touched. */
    BAD_KEY(7),
    /**
     * The region's owner holds PUTs and ATOMICs back (an access epoch): nothing was touched; the origin resends
     * later, without counting it against its retry limit.
     */
    HELD(8);

    private static final NackReason[] BY_CODE = new NackReason[256];

    static
    {
        for (final NackReason reason : values())
        {
            BY_CODE[reason.code] = reason;
        }
    }

    private final int code;

    NackReason(final int code)
    {
        this.code = code;
    }

    /**
     * @return the wire code.
     */
    public int code()
    {
        return code;
    }

    /**
     * @param code a wire code.
     * @return the reason, or null for an unknown code.
     */
    public static NackReason fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
