package io.pinmx.pin.spi;

/**
 * An endpoint: its board, its index on the board and, for an open local endpoint or a connected
 * peer endpoint, its session id (0 when not known yet).
 *
 * @param board         where the board is.
 * @param endpointIndex index of the endpoint on the board, 0..{@link #MAX_ENDPOINT_INDEX}.
 * @param sessionId     the endpoint's session id, 0 when unknown.
 */
public record EndpointAddress(BoardAddress board, int endpointIndex, int sessionId)
{
    /** Endpoint indexes travel in one byte on the wire. */
    public static final int MAX_ENDPOINT_INDEX = 255;

    /**
     * @throws IllegalArgumentException for a null board or an endpoint index outside 0..255.
     */
    public EndpointAddress
    {
        if (null == board)
        {
            throw new IllegalArgumentException("endpoint address: board is null");
        }
        if (endpointIndex < 0 || endpointIndex > MAX_ENDPOINT_INDEX)
        {
            throw new IllegalArgumentException(
                "endpoint address: endpoint index " + endpointIndex + " not in 0.." + MAX_ENDPOINT_INDEX);
        }
    }

    @Override
    public String toString()
    {
        return board + "/" + endpointIndex + (sessionId != 0 ? "#" + Integer.toHexString(sessionId) : "");
    }
}
