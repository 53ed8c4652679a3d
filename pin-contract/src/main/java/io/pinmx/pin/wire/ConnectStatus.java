package io.pinmx.pin.wire;

/**
 * Status of a CONNECT_REPLY; a CONNECT_REQUEST carries {@link #OK}.
 */
public enum ConnectStatus
{
    /** Accepted (and the only value a request may carry). */
    OK(0),
    /** The application key does not match the endpoint's. */
    BAD_KEY(1),
    /** The endpoint cannot take another peer. */
    NO_RESOURCES(2);

    private static final ConnectStatus[] BY_CODE = new ConnectStatus[256];

    static
    {
        for (final ConnectStatus status : values())
        {
            BY_CODE[status.code] = status;
        }
    }

    private final int code;

    ConnectStatus(final int code)
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
     * @return the status, or null for an unknown code.
     */
    public static ConnectStatus fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
