package io.pinmx.rma;

import io.pinmx.mx.ExposedRegion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One collective allocation over a group ({@link #group()}, the world group unless given): every member's slice
 * (sizes may differ, 0 included), each native and page aligned; ranks are world ranks and a rank outside the group
 * has no slice.
 * Slices of ranks on this host are mapped here; {@link #local()} is this rank's own. Ranks reached through the
 * driver read a slice by pulling from the region its owner exposed, and on a driver with one-sided writes write it
 * through the region its owner exposed for writes ({@link ExposedWrites}). Valid until the collective
 * {@link Rma#free(RmaAllocation)}; any use after it fails naming the allocation.
 */
public final class RmaAllocation
{
    private final long id;
    private final int self;
    private final RmaGroup group;
    private final long[] sizes;
    private final MemorySegment[] slices;
    private final int[] regionIds;
    private final ExposedWrites writes;
    private final ExposedRegion exposed;
    private final Arena arena;
    private volatile boolean freed;

    RmaAllocation(final long id, final int self, final RmaGroup group, final long[] sizes, final MemorySegment[] slices,
        final int[] regionIds, final ExposedWrites writes, final ExposedRegion exposed, final Arena arena)
    {
        this.writes = writes;
        this.id = id;
        this.self = self;
        this.group = group;
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

    /** @return the group whose members took part in the allocation and hold its slices. */
    public RmaGroup group()
    {
        return group;
    }

    /**
     * @return the bytes of a rank's slice (by world rank).
     * @throws IllegalArgumentException naming the rank if it is not in the job or not in the allocation's group.
     */
    public long size(final int rank)
    {
        checkLive();
        if (rank < 0 || rank >= sizes.length)
        {
            throw new IllegalArgumentException("rank " + rank + " is not a rank of this job (0.." + (sizes.length - 1) + ")");
        }
        checkMember(rank, "slice size of allocation " + id);
        return sizes[rank];
    }

    /**
     * @throws IllegalArgumentException naming the world rank, the allocation and its group if the rank has no slice
     *                                  here (it is not a member of the group).
     */
    void checkMember(final int rank, final String what)
    {
        group.checkMember(rank, what + " (allocation " + id + ")");
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

    /** Every rank's slice as exposed for the module's one-sided writes and atomics, and this rank's exposure. */
    ExposedWrites writes()
    {
        return writes;
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
        writes.close();
        arena.close();
    }

    @Override
    public String toString()
    {
        return "RmaAllocation{" + id + (freed ? ", freed" : "") + '}';
    }
}
