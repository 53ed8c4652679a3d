package io.pinmx.mx;

/**
 * Outcome of a request, filled when it completes. Reused: read it before releasing the
 * request, or pass your own to the blocking forms.
 */
public final class Status
{
    int source = -1;
    long matchInfo;
    long messageLength;
    long bytesTransferred;
    long oldValue;
    boolean truncated;
    String error;

    /**
     * @return partner id of the sender (receives) or the destination (sends).
     */
    public int source()
    {
        return source;
    }

    /**
     * @return for a completed {@link Endpoint#iatomic}: the word's value before the operation (a 4-byte word's
     *         zero-extended; 0 for an accumulate); 0 for other requests.
     */
    public long oldValue()
    {
        return oldValue;
    }

    public long matchInfo()
    {
        return matchInfo;
    }

    /**
     * @return the true length of the message as sent, even when the receive truncated it.
     */
    public long messageLength()
    {
        return messageLength;
    }

    /**
     * @return bytes placed in the receive buffer, or sent.
     */
    public long bytesTransferred()
    {
        return bytesTransferred;
    }

    /**
     * @return true if the receive buffer was shorter than the message.
     */
    public boolean truncated()
    {
        return truncated;
    }

    /**
     * @return why the request failed, or null if it did not.
     */
    public String error()
    {
        return error;
    }

    public boolean isError()
    {
        return null != error;
    }

    void reset()
    {
        source = -1;
        matchInfo = 0;
        messageLength = 0;
        bytesTransferred = 0;
        truncated = false;
        error = null;
    }

    void copyFrom(final Status other)
    {
        source = other.source;
        matchInfo = other.matchInfo;
        messageLength = other.messageLength;
        bytesTransferred = other.bytesTransferred;
        truncated = other.truncated;
        error = other.error;
    }

    public String toString()
    {
        return "Status{source=" + source + ", matchInfo=0x" + Long.toHexString(matchInfo) + ", messageLength=" +
            messageLength + ", bytes=" + bytesTransferred + (truncated ? ", truncated" : "") +
            (null != error ? ", error=" + error : "") + '}';
    }
}
