package io.pinmx.pin.spi;

/**
 * Reusable description of one put ({@link DriverEndpoint#startPut}): bytes of a local region written into a peer's
 * remote-writable region, either one contiguous range or a list of pieces, each {@code lengths[i]} bytes from
 * {@code localOffsets[i]} to {@code remoteOffsets[i]} (strided and vector puts in one completion). The driver takes
 * what it needs before {@code startPut} returns, so the spec and its arrays may be refilled at once.
 */
public final class PutSpec
{
    private final RemoteTarget target = new RemoteTarget();
    private int localRegionId;
    private int handle;
    private long remoteOffset;
    private long localOffset;
    private long length;
    private long[] remoteOffsets;
    private long[] localOffsets;
    private long[] lengths;
    private int pieces;

    /**
     * @return the target region, to fill.
     */
    public RemoteTarget target()
    {
        return target;
    }

    /**
     * @param localRegionId the source: a region of this endpoint.
     * @param handle        the caller's handle, carried by the PUT_DONE / PUT_FAILED event.
     * @return this.
     */
    public PutSpec source(final int localRegionId, final int handle)
    {
        this.localRegionId = localRegionId;
        this.handle = handle;
        return this;
    }

    /**
     * One contiguous put.
     *
     * @return this.
     */
    public PutSpec contiguous(final long remoteOffset, final long localOffset, final long length)
    {
        this.remoteOffset = remoteOffset;
        this.localOffset = localOffset;
        this.length = length;
        this.remoteOffsets = null;
        this.localOffsets = null;
        this.lengths = null;
        this.pieces = 0;
        return this;
    }

    /**
     * A put of the first {@code pieces} entries of the arrays.
     *
     * @return this.
     */
    public PutSpec pieces(
        final long[] remoteOffsets, final long[] localOffsets, final long[] lengths, final int pieces)
    {
        this.remoteOffsets = remoteOffsets;
        this.localOffsets = localOffsets;
        this.lengths = lengths;
        this.pieces = pieces;
        this.remoteOffset = 0;
        this.localOffset = 0;
        this.length = 0;
        return this;
    }

    public int localRegionId()
    {
        return localRegionId;
    }

    public int handle()
    {
        return handle;
    }

    /**
     * @return true when the put is a list of pieces ({@link #pieces(long[], long[], long[], int)}).
     */
    public boolean isVector()
    {
        return null != lengths;
    }

    public long remoteOffset()
    {
        return remoteOffset;
    }

    public long localOffset()
    {
        return localOffset;
    }

    public long length()
    {
        return length;
    }

    public long[] remoteOffsets()
    {
        return remoteOffsets;
    }

    public long[] localOffsets()
    {
        return localOffsets;
    }

    public long[] lengths()
    {
        return lengths;
    }

    public int pieceCount()
    {
        return pieces;
    }

    @Override
    public String toString()
    {
        return "put " + (isVector() ? pieces + " pieces" : length + " bytes at remote offset " + remoteOffset +
            " from local offset " + localOffset) + " of local region " + localRegionId + " into " + target +
            ", handle " + handle;
    }
}
