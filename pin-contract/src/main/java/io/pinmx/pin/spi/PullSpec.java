package io.pinmx.pin.spi;

/**
 * Reusable, mutable description of one pull: {@code length} bytes from a peer endpoint's region
 * at an offset into a local region at an offset. The driver copies what it needs in
 * {@link DriverEndpoint#startPull(PullSpec)}, so the caller may refill it at once.
 */
public final class PullSpec
{
    private int peerIndex;
    private int remoteEndpointIndex;
    private int remoteSessionId;
    private int remoteRegionId;
    private long remoteOffset;
    private int localRegionId;
    private long localOffset;
    private long length;
    private int pullHandle;
    private long remoteKey;

    /**
     * @return peer board to pull from.
     */
    public int peerIndex()
    {
        return peerIndex;
    }

    /**
     * @param peerIndex peer board to pull from.
     * @return this.
     */
    public PullSpec peerIndex(final int peerIndex)
    {
        this.peerIndex = peerIndex;
        return this;
    }

    /**
     * @return endpoint index on the peer board.
     */
    public int remoteEndpointIndex()
    {
        return remoteEndpointIndex;
    }

    /**
     * @param remoteEndpointIndex endpoint index on the peer board.
     * @return this.
     */
    public PullSpec remoteEndpointIndex(final int remoteEndpointIndex)
    {
        this.remoteEndpointIndex = remoteEndpointIndex;
        return this;
    }

    /**
     * @return session id of the remote endpoint.
     */
    public int remoteSessionId()
    {
        return remoteSessionId;
    }

    /**
     * @param remoteSessionId session id of the remote endpoint.
     * @return this.
     */
    public PullSpec remoteSessionId(final int remoteSessionId)
    {
        this.remoteSessionId = remoteSessionId;
        return this;
    }

    /**
     * @return region id declared by the remote endpoint (from its RNDV).
     */
    public int remoteRegionId()
    {
        return remoteRegionId;
    }

    /**
     * @param remoteRegionId region id declared by the remote endpoint.
     * @return this.
     */
    public PullSpec remoteRegionId(final int remoteRegionId)
    {
        this.remoteRegionId = remoteRegionId;
        return this;
    }

    /**
     * @return byte offset in the remote region.
     */
    public long remoteOffset()
    {
        return remoteOffset;
    }

    /**
     * @param remoteOffset byte offset in the remote region.
     * @return this.
     */
    public PullSpec remoteOffset(final long remoteOffset)
    {
        this.remoteOffset = remoteOffset;
        return this;
    }

    /**
     * @return local region id to write into.
     */
    public int localRegionId()
    {
        return localRegionId;
    }

    /**
     * @param localRegionId local region id to write into.
     * @return this.
     */
    public PullSpec localRegionId(final int localRegionId)
    {
        this.localRegionId = localRegionId;
        return this;
    }

    /**
     * @return byte offset in the local region.
     */
    public long localOffset()
    {
        return localOffset;
    }

    /**
     * @param localOffset byte offset in the local region.
     * @return this.
     */
    public PullSpec localOffset(final long localOffset)
    {
        this.localOffset = localOffset;
        return this;
    }

    /**
     * @return bytes to pull.
     */
    public long length()
    {
        return length;
    }

    /**
     * @param length bytes to pull.
     * @return this.
     */
    public PullSpec length(final long length)
    {
        this.length = length;
        return this;
    }

    /**
     * @return the caller's handle, echoed in the completion event.
     */
    public int pullHandle()
    {
        return pullHandle;
    }

    /**
     * @return the key of a remote region declared for remote writes ({@link DriverEndpoint#declareRemoteRegion}),
     *         or 0 for one declared with {@link DriverEndpoint#declareRegion}.
     */
    public long remoteKey()
    {
        return remoteKey;
    }

    /**
     * @param remoteKey the remote region's key: a region declared for remote writes is read only with its key; 0
     *                  for other regions. Providers without {@link DriverFeature#REMOTE_WRITE} have no keyed regions
     *                  and ignore it.
     * @return this.
     */
    public PullSpec remoteKey(final long remoteKey)
    {
        this.remoteKey = remoteKey;
        return this;
    }

    /**
     * @param pullHandle the caller's handle, echoed in the completion event.
     * @return this.
     */
    public PullSpec pullHandle(final int pullHandle)
    {
        this.pullHandle = pullHandle;
        return this;
    }

    /**
     * Checks that need no region table: non-negative offsets and length, an endpoint index that
     * fits the wire, no offset overflow. Providers call it before their own region checks.
     *
     * @throws DriverException {@link DriverError#BAD_ARGUMENT} naming the bad field.
     */
    public void validate()
    {
        if (remoteEndpointIndex < 0 || remoteEndpointIndex > EndpointAddress.MAX_ENDPOINT_INDEX)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "pull " + this + ": remote endpoint index " +
                remoteEndpointIndex + " not in 0.." + EndpointAddress.MAX_ENDPOINT_INDEX);
        }
        if (length < 0 || remoteOffset < 0 || localOffset < 0)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "pull " + this + ": negative length or offset");
        }
        if (remoteOffset + length < 0 || localOffset + length < 0)
        {
            throw new DriverException(DriverError.OUT_OF_RANGE, "pull " + this + ": offset + length overflows");
        }
    }

    @Override
    public String toString()
    {
        return "PullSpec{handle=" + pullHandle + ", peer=" + peerIndex + ", endpoint=" + remoteEndpointIndex +
            ", session=" + Integer.toHexString(remoteSessionId) + ", remote region " + remoteRegionId + " @" +
            remoteOffset + " -> local region " + localRegionId + " @" + localOffset + ", length=" + length + "}";
    }
}
