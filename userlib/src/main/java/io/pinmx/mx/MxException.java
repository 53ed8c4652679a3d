package io.pinmx.mx;

/**
 * A failure of the endpoint library: a refused connect, an unreachable or restarted peer, a
 * failed request. The message names the peer, the request and the cause.
 */
public class MxException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public MxException(final String message)
    {
        super(message);
    }

    public MxException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
