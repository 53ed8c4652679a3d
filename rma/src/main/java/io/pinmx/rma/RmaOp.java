package io.pinmx.rma;

/**
 * What a request to a target's data server asks for; the code travels in the request header.
 */
enum RmaOp
{
    PUT,
    ACC,
    FETCH_ADD_INT,
    FETCH_ADD_LONG,
    SWAP_INT,
    SWAP_LONG,
    FENCE,
    LOCK,
    TRY_LOCK,
    UNLOCK,
    /** Pack pieces of the server's slice for the origin to pull, or send them back in chunks (a get's pack protocol). */
    GET_PACKED,
    /**
     * Nothing to do beyond what every request header may carry (a pack-area part to free): sent while an origin waits
     * for a reply, so that a dead target is noticed by the endpoint, and to free a part no other request carries.
     */
    PING,
    /** A small contiguous get the server answers with the bytes (offset; value: the length). */
    GET_SERVED;

    private static final RmaOp[] BY_CODE = values();

    int code()
    {
        return ordinal();
    }

    /** @return the op, or null for an unknown code. */
    static RmaOp fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
