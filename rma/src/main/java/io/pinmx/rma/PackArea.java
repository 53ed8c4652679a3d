package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.ExposedRegion;
import io.pinmx.mx.MxException;
import io.pinmx.mx.reliability.PartnerState;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.regioncache.RegionTableFullException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Where a data server packs the pieces of a get for the origin to pull: one buffer of {@link #AREA_BYTES} exposed on
 * the endpoint (declared once, like the slices, on first use), handed out in parts ({@link PackParts}) that stay
 * reserved until the origin says it has pulled its part. A get that finds no room is sent in chunks instead. Owned by
 * the data server's thread.
 */
final class PackArea implements AutoCloseable
{
    /** Most bytes of packed gets waiting to be pulled from one data server at once. */
    static final long AREA_BYTES = 4L << 20;
    /** The answer to a packed get that found no room: its chunks follow. */
    static final long NO_PLACE = -1;

    private final Endpoint endpoint;
    private final PackParts parts = new PackParts(AREA_BYTES);
    private MemorySegment memory;
    private ExposedRegion exposed;

    PackArea(final Endpoint endpoint)
    {
        this.endpoint = endpoint;
    }

    /**
     * Reserves {@code bytes} for the partner's pull (see {@link PackParts#reserve}; partners the endpoint failed free
     * theirs when room runs out).
     *
     * @return the part's offset, or -1 if there is no room or the driver could not take the area's region now.
     */
    long reserve(final long bytes, final int partner)
    {
        if (null == exposed && !expose())
        {
            return -1;
        }
        return parts.reserve(bytes, partner, p -> PartnerState.FAILED == endpoint.partner(p).state());
    }

    /** @return false if the driver could not take one more region now (the get goes in chunks; tried again later). */
    private boolean expose()
    {
        final MemorySegment fresh = Arena.ofAuto().allocate(AREA_BYTES, 4096);
        try
        {
            exposed = endpoint.regions().expose(fresh);
        }
        catch (final RegionTableFullException | DriverException | MxException ex)
        {
            return false;
        }
        memory = fresh;
        return true;
    }

    /** @return the reserved part at {@code offset} (from {@link #reserve}). */
    MemorySegment part(final long offset, final long bytes)
    {
        return memory.asSlice(offset, bytes);
    }

    /** @return the answer naming a part: the area's region id in the high half, the offset in the low half. */
    long place(final long offset)
    {
        return ((long)exposed.id() << Integer.SIZE) | offset;
    }

    static int placeRegion(final long place)
    {
        return (int)(place >>> Integer.SIZE);
    }

    static long placeOffset(final long place)
    {
        return place & 0xFFFF_FFFFL;
    }

    /** The partner pulled its part at {@code offset}: it is free again (a part it does not hold is left alone). */
    void release(final long offset, final int partner)
    {
        parts.release(offset, partner);
    }

    /** @return the bytes held for pulls not yet released. */
    long reservedBytes()
    {
        return parts.reservedBytes();
    }

    @Override
    public void close()
    {
        if (null != exposed)
        {
            exposed.close();
            exposed = null;
        }
    }
}
