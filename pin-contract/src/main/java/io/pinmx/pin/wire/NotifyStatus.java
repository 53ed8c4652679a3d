package io.pinmx.pin.wire;

/**
 * Outcome of a rendezvous receive, carried by NOTIFY (u32). {@link #OK} and {@link #TRUNCATED}
 * complete the send successfully (as in MX, truncation is the receiver's business); every other
 * status says why the receiver's pull failed and fails the send.
 */
public enum NotifyStatus
{
    /** The whole message was pulled. */
    OK(0),
    /** The receive buffer was smaller than the message: bytes pulled is what fitted. */
    TRUNCATED(1),
    /** The pull failed for a reason no other status names. */
    PULL_FAILED(2),
    /** Serving the pull hit an unmapped page of the sender's region. */
    SEGMENT_FAULT(3),
    /** The sender's endpoint no longer knew the region named by the RNDV. */
    UNKNOWN_REGION(4),
    /** The pull reached past the end of the sender's region, or the region was not readable. */
    OUT_OF_RANGE(5),
    /** The pull did not finish in time. */
    TIMEOUT(6),
    /** The receiver lacked the resources (buffer, region) to start the pull. */
    NO_RESOURCES(7);

    private static final NotifyStatus[] BY_CODE = new NotifyStatus[8];

    static
    {
        for (final NotifyStatus status : values())
        {
            BY_CODE[status.code] = status;
        }
    }

    private final int code;

    NotifyStatus(final int code)
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
     * @return true when the sender's request completes successfully.
     */
    public boolean isSuccess()
    {
        return this == OK || this == TRUNCATED;
    }

    /**
     * @param code a wire code (u32 read as int).
     * @return the status, or null for an unknown code.
     */
    public static NotifyStatus fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
