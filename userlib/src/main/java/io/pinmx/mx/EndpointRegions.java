package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.RemoteRegion;
import io.pinmx.regioncache.RegionCache;

import java.lang.foreign.MemorySegment;

/**
 * An endpoint's one-sided side: memory it exposes to partners (for their reads, or their writes and atomics), whether
 * memory is declared already, and one-sided reads of regions partners exposed. Reached through
 * {@link Endpoint#regions()}; any thread may call it. Declares run outside the endpoint lock, through the region
 * cache; reads are posted by {@link RemoteReads}, which owns their state.
 */
public final class EndpointRegions
{
    private final Endpoint endpoint;
    private final DriverEndpoint driver;
    private final RegionCache regionCache;
    private final RemoteReads reads;

    EndpointRegions(final Endpoint endpoint, final DriverEndpoint driver, final RegionCache regionCache,
        final RemoteReads reads)
    {
        this.endpoint = endpoint;
        this.driver = driver;
        this.regionCache = regionCache;
        this.reads = reads;
    }

    /**
     * Declares native memory once so that partners may read it with {@link #iget}; the driver serves their reads
     * without this process (see {@link ExposedRegion}).
     *
     * @throws IllegalArgumentException if the segment is not native.
     * @throws io.pinmx.regioncache.RegionTableFullException if the driver's table is full and no region of the
     *                                  endpoint's region cache is idle (idle ones are undeclared to make room).
     * @throws io.pinmx.pin.spi.DriverException if the driver refuses the declaration otherwise (the message says why).
     */
    public ExposedRegion expose(final MemorySegment memory)
    {
        endpoint.checkOpen();
        if (!memory.isNative() || 0 == memory.byteSize())
        {
            throw new IllegalArgumentException("only non-empty native memory can be exposed, not " + memory);
        }
        return new ExposedRegion(driver, regionCache.declareOutside(new MemorySegment[] {memory}, 1),
            memory.byteSize(), 0);
    }

    /**
     * Declares native memory for partners' one-sided writes and atomics ({@link RemoteWrites}) and reads: give
     * partners the region's {@link ExposedRegion#id()} and {@link ExposedRegion#key()}. The driver applies them
     * without this process. Needs a driver with {@link DriverFeature#REMOTE_WRITE} ({@link Endpoint#driverInfo()}).
     *
     * @throws IllegalArgumentException if the segment is not native or empty.
     * @throws io.pinmx.pin.spi.DriverException {@link io.pinmx.pin.spi.DriverError#UNSUPPORTED} naming the driver
     *                                  and the capability it lacks, or the driver's refusal.
     */
    public ExposedRegion exposeForWrites(final MemorySegment memory)
    {
        endpoint.checkOpen();
        if (!memory.isNative() || 0 == memory.byteSize())
        {
            throw new IllegalArgumentException("only non-empty native memory can be exposed, not " + memory);
        }
        final RemoteRegion region = driver.declareRemoteRegion(new MemorySegment[] {memory}, 1);
        return new ExposedRegion(driver, region.regionId(), memory.byteSize(), region.key());
    }

    /**
     * Whether the endpoint's region cache holds this memory declared already, so that sending it, or reading into
     * it, declares nothing: a layer choosing between moving memory in place and copying it through buffers of its
     * own asks this. A query: it changes nothing in the cache.
     *
     * @return false for heap or empty memory.
     * @throws IllegalArgumentException if the segment is null.
     */
    public boolean isDeclared(final MemorySegment memory)
    {
        endpoint.checkOpen();
        return regionCache.covers(memory);
    }

    /**
     * One-sided read of {@code destination.byteSize()} bytes at {@code remoteOffset} of a partner's exposed region
     * (its {@link ExposedRegion#id()}): the drivers move the bytes; the partner's process does nothing. The request
     * completes when the bytes are in {@code destination}, or fails naming the partner and the driver's cause (an
     * unknown region, a range past its end, the partner gone). Requests of one endpoint are not ordered against each
     * other.
     */
    public Request iget(final Partner source, final int remoteRegionId, final long remoteOffset,
        final MemorySegment destination)
    {
        endpoint.checkOpen();
        return reads.post(source, remoteRegionId, 0, new long[] {remoteOffset}, new long[] {destination.byteSize()},
            1, new MemorySegment[] {destination}, 1);
    }

    /**
     * As {@link #iget(Partner, int, long, MemorySegment)} from a region the partner exposed for writes
     * ({@link #exposeForWrites}), which its driver lets be read only with the region's {@code key}: a read without it
     * or with another fails naming BAD_KEY.
     */
    public Request iget(final Partner source, final int remoteRegionId, final long key, final long remoteOffset,
        final MemorySegment destination)
    {
        endpoint.checkOpen();
        return reads.post(source, remoteRegionId, key, new long[] {remoteOffset},
            new long[] {destination.byteSize()}, 1, new MemorySegment[] {destination}, 1);
    }

    /**
     * One-sided read of {@code pieces} pieces of a partner's exposed region, piece {@code i} being
     * {@code lengths[i]} bytes at {@code remoteOffsets[i]}, into a vector of 1..256 segments that they fill in
     * order (its total length is the pieces' total). Pieces contiguous in the remote region are pulled together.
     * The arrays must stay unchanged until the request is done.
     *
     * @throws IllegalArgumentException naming a negative or overflowing piece, or sizes that do not agree.
     */
    public Request iget(final Partner source, final int remoteRegionId, final long[] remoteOffsets,
        final long[] lengths, final int pieces, final MemorySegment[] destination, final int count)
    {
        endpoint.checkOpen();
        return reads.post(source, remoteRegionId, 0, remoteOffsets, lengths, pieces, destination, count);
    }
}
