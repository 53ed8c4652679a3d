package io.pinmx.rma;

import io.pinmx.mx.ExposedRegion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One collective allocation: every rank's slice (sizes may differ, 0 included), each native and page aligned.
 * Slices of ranks on this host are mapped here; {@link #local()} is this rank's own. Ranks reached through the
 * driver read a slice by pulling from the region its owner exposed. Valid until the collective
 * {@link Rma#free(RmaAllocation)}; any use after it fails naming the allocation.
 */
public final class RmaAllocation
{
    private final long id;
    private final int self;
    private final long[] sizes;
    private final MemorySegment[] slices;
    private final int[] regionIds;
    private final ExposedRegion exposed;
    private final Arena arena;
    private volatile boolean freed;

    RmaAllocation(final long id, final int self, final long[] sizes, final MemorySegment[] slices,
        final int[] regionIds, final ExposedRegion exposed, final Arena arena)
    {
        this.id = id;
        this.self = self;
        this.sizes = sizes;
        this.slices = slices;
        this.regionIds = regionIds;
        this.exposed = exposed;
        this.arena = arena;
    }

    /** @return the allocation's number within the job (the same on every rank). */
    public long id()
    {
        return id;
    }

    /** @return this rank's slice. */
    public MemorySegment local()
    {
        checkLive();
        return slices[self];
    }

    /** @return the bytes of a rank's slice. */
    public long size(final int rank)
    {
        checkLive();
        if (rank < 0 || rank >= sizes.length)
        {
            throw new IllegalArgumentException("rank " + rank + " is not a rank of this job (0.." + (sizes.length - 1) + ")");
        }
        return sizes[rank];
    }

    /** The mapped slice of a rank on this host (this rank included), or null for one reached through the driver. */
    MemorySegment slice(final int rank)
    {
        return slices[rank];
    }

    /** The region id a rank exposed its slice as on its endpoint (what a get pulls from), or -1 if none. */
    int regionId(final int rank)
    {
        return regionIds[rank];
    }

    boolean isFreed()
    {
        return freed;
    }

    /**
     * @throws IllegalStateException naming the allocation if it was freed.
     */
    void checkLive()
    {
        if (freed)
        {
            throw new IllegalStateException("allocation " + id + " was freed");
        }
    }

    /**
     * @throws IllegalArgumentException naming the rank, offset and length if [offset, offset + bytes) is not inside
     *                                  the rank's slice.
     */
    void checkRange(final int rank, final long offset, final long bytes, final String what)
    {
        final long size = sizes[rank];
        if (offset < 0 || bytes < 0 || offset > size || bytes > size - offset)
        {
            throw new IllegalArgumentException(what + " [" + offset + ", " + offset + " + " + bytes + ") is outside rank " +
                rank + "'s slice of allocation " + id + " (" + size + " bytes)");
        }
    }

    void free()
    {
        freed = true;
        if (null != exposed)
        {
            exposed.close();
        }
        arena.close();
    }

    @Override
    public String toString()
    {
        return "RmaAllocation{" + id + (freed ? ", freed" : "") + '}';
    }
}
