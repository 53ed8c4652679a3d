package io.pinmx.pin.spi;

/**
 * Where a put or an atomic goes: a peer endpoint's remote-writable region and the key it was declared with. A
 * mutable part of {@link PutSpec} and {@link AtomicSpec}, refilled per operation.
 */
public final class RemoteTarget
{
    private int peerIndex;
    private int endpointIndex;
    private int sessionId;
    private int regionId;
    private long key;

    /**
     * @param peerIndex     the peer board.
     * @param endpointIndex the target endpoint's index on that board.
     * @param sessionId     the target endpoint's session id.
     * @param regionId      the region the target declared with {@link DriverEndpoint#declareRemoteRegion}.
     * @param key           that declaration's {@link RemoteRegion#key()}.
     * @return this.
     */
    public RemoteTarget set(
        final int peerIndex, final int endpointIndex, final int sessionId, final int regionId, final long key)
    {
        this.peerIndex = peerIndex;
        this.endpointIndex = endpointIndex;
        this.sessionId = sessionId;
        this.regionId = regionId;
        this.key = key;
        return this;
    }

    public int peerIndex()
    {
        return peerIndex;
    }

    public int endpointIndex()
    {
        return endpointIndex;
    }

    public int sessionId()
    {
        return sessionId;
    }

    public int regionId()
    {
        return regionId;
    }

    public long key()
    {
        return key;
    }

    @Override
    public String toString()
    {
        return "region " + regionId + " of endpoint " + endpointIndex + " (session " + Integer.toUnsignedString(sessionId) +
            ") at peer " + peerIndex;
    }
}
