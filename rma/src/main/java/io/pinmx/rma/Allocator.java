package io.pinmx.rma;

import io.pinmx.job.Job;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.ExposedRegion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Collective allocation and free of remotely accessible memory: each rank's slice is a page-aligned file in the
 * shared-file directory, mapped by every rank on the same host and removed as soon as they have (the mappings stay),
 * so a killed job leaves nothing behind. When ranks go through the driver, each slice is also exposed once on this
 * rank's endpoint (declared for read and write) and the region ids are exchanged with the sizes, so that gets are
 * pulls the driver serves; on a driver with one-sided writes and atomics (the kernel module) each slice is exposed
 * for them too and its region id and key travel with the rest ({@link ExposedWrites}). An allocation is collective over a group ({@link RmaGroup}): only its members take part
 * and have slices. Checks that every member is in the same collective call on the same allocation and says which is
 * not.
 */
final class Allocator
{
    private static final long PAGE_BYTES = 4096;
    /** Opens every rank's part of an allocator collective, so that another collective's payload is told apart. */
    private static final long MAGIC = 0x706d_7872_616c_6c63L;
    private static final int HEADER_BYTES = 7 * Long.BYTES;
    /** The region id of a slice that is not exposed (empty, or no rank uses the driver). */
    static final int NO_REGION = -1;

    private final Job job;
    private final Ranks ranks;
    private final Path directory;
    /** This rank's endpoint, or null when no rank of the job uses the driver. */
    private final Endpoint endpoint;
    /** Whether this rank's slices are exposed for its driver's one-sided writes ({@link DriverWrites#takes}). */
    private final boolean driverWrites;
    /** Live allocations by id, for the data server's thread. */
    private final ConcurrentHashMap<Long, RmaAllocation> live = new ConcurrentHashMap<>();

    Allocator(final Job job, final Ranks ranks, final Path directory, final Endpoint endpoint,
        final boolean driverWrites)
    {
        this.driverWrites = driverWrites;
        this.job = job;
        this.ranks = ranks;
        this.directory = directory;
        this.endpoint = endpoint;
    }

    /**
     * Collective over the group's members: each gives its slice's size; ranks outside the group have none.
     *
     * @throws RmaException on every member alike, naming the rank and why, when a member could not make its slice
     *                      (its directory has no room for it, or its exposure failed): every member then removes its
     *                      own.
     */
    RmaAllocation alloc(final RmaGroup group, final long bytes)
    {
        final long id = group.nextAllocationId();
        final Arena slices = Arena.ofShared();
        MemorySegment mine = null;
        ExposedRegion exposed = null;
        ExposedRegion forWrites = null;
        String refusal = null;
        try
        {
            mine = bytes > 0 ? SharedFile.create(ranks.sliceFile(id, job.rank()), pages(bytes), slices) : null;
            exposed = null != mine && null != endpoint ? endpoint.regions().expose(mine.asSlice(0, bytes)) : null;
            forWrites = null != exposed && driverWrites ?
                endpoint.regions().exposeForWrites(mine.asSlice(0, bytes)) : null;
        }
        catch (final RuntimeException ex)
        {
            // The others are on their way into the collective: they learn of it there instead of waiting for us.
            refusal = "rank " + job.rank() + " could not make its slice of " + bytes + " bytes: " + ex.getMessage();
        }
        final long[][] agreed;
        try
        {
            agreed = collective(group, Collective.ALLOC, id, bytes, null == exposed ? NO_REGION : exposed.id(),
                forWrites, refusal);
            group.allocationAgreed();
        }
        catch (final RuntimeException ex)
        {
            close(exposed, forWrites);
            removeOwnFile(id, bytes, slices);
            throw ex;
        }
        final long[] sizes = agreed[0];
        try
        {
            for (final int r : group.worldRanks())
            {
                if (sizes[r] < 0)
                {
                    throw new IllegalArgumentException("rank " + r + " asked for a slice of " + sizes[r] + " bytes");
                }
            }
            final MemorySegment[] mapped = new MemorySegment[job.size()];
            final int[] regionIds = new int[job.size()];
            final int[] writeRegionIds = new int[job.size()];
            for (int r = 0; r < job.size(); r++)
            {
                mapped[r] = r == job.rank() ? (null == mine ? MemorySegment.NULL : mine.asSlice(0, bytes)) :
                    mapPeerSlice(id, r, sizes[r], slices);
                regionIds[r] = (int)agreed[1][r];
                writeRegionIds[r] = (int)agreed[2][r];
            }
            final RmaAllocation allocation = new RmaAllocation(id, job.rank(), group, sizes, mapped, regionIds,
                new ExposedWrites(writeRegionIds, agreed[3], forWrites), exposed, slices);
            live.put(id, allocation);
            group.barrier();
            return allocation;
        }
        catch (final RuntimeException ex)
        {
            live.remove(id);
            close(exposed, forWrites);
            slices.close();
            throw ex;
        }
        finally
        {
            if (bytes > 0)
            {
                SharedFile.remove(ranks.sliceFile(id, job.rank()));
            }
        }
    }

    private static void close(final ExposedRegion exposed, final ExposedRegion forWrites)
    {
        if (null != forWrites)
        {
            forWrites.close();
        }
        if (null != exposed)
        {
            exposed.close();
        }
    }

    private MemorySegment mapPeerSlice(final long id, final int r, final long bytes, final Arena slices)
    {
        if (0 == bytes)
        {
            return MemorySegment.NULL;
        }
        if (RankTier.DRIVER == ranks.tier(r))
        {
            return null;
        }
        final MemorySegment theirs = SharedFile.openIfPresent(ranks.sliceFile(id, r), pages(bytes), slices);
        if (null == theirs)
        {
            throw new RmaException("rank " + r + "'s slice of allocation " + id + " is not in " + directory +
                " although its control file was");
        }
        return theirs.asSlice(0, bytes);
    }

    private void removeOwnFile(final long id, final long bytes, final Arena slices)
    {
        if (bytes > 0)
        {
            SharedFile.remove(ranks.sliceFile(id, job.rank()));
        }
        slices.close();
    }

    /** The collective calls whose agreement is checked: all ranks must be in the same call on the same allocation. */
    private enum Collective
    {
        ALLOC, FREE
    }

    /**
     * Every member sends a magic word, its kind, allocation id, value, region id, and the region id and key of its
     * exposure for writes, then what refused its part, if anything (UTF-8, empty when nothing did).
     *
     * @param forWrites this rank's exposure for one-sided writes, or null.
     * @param refusal   why this rank could not do its part, or null.
     * @return every rank's value, region id, region id for writes and key, indexed by world rank (0 and
     *         {@link #NO_REGION} outside the group or where a slice is not exposed).
     * @throws RmaException on every member, naming the members that disagree, if the group's members are not all in
     *                      the same collective call on the same allocation; on every member, with every refusal in
     *                      rank order, if a member could not do its part.
     */
    private long[][] collective(final RmaGroup group, final Collective kind, final long id, final long value,
        final int regionId, final ExposedRegion forWrites, final String refusal)
    {
        final byte[] why = null == refusal ? new byte[0] : refusal.getBytes(StandardCharsets.UTF_8);
        final List<byte[]> all = group.allGather(ByteBuffer.allocate(HEADER_BYTES + why.length).putLong(MAGIC)
            .putLong(kind.ordinal()).putLong(id).putLong(value).putLong(regionId)
            .putLong(null == forWrites ? NO_REGION : forWrites.id()).putLong(null == forWrites ? 0 : forWrites.key())
            .put(why).array());
        final long[] values = new long[job.size()];
        final long[] regionIds = new long[job.size()];
        final long[] writeRegionIds = new long[job.size()];
        final long[] keys = new long[job.size()];
        Arrays.fill(regionIds, NO_REGION);
        Arrays.fill(writeRegionIds, NO_REGION);
        final StringBuilder refusals = new StringBuilder();
        for (int g = 0; g < all.size(); g++)
        {
            final int r = group.worldRank(g);
            final ByteBuffer b = ByteBuffer.wrap(all.get(g));
            final long theirKind = b.remaining() < HEADER_BYTES || MAGIC != b.getLong() ? -1 : b.getLong();
            if (theirKind < 0 || theirKind >= Collective.values().length)
            {
                throw new RmaException("collective mismatch: rank " + r + " is in another collective call while rank " +
                    job.rank() + " is in " + kind + " of allocation " + id);
            }
            final long theirId = b.getLong();
            values[r] = b.getLong();
            regionIds[r] = b.getLong();
            writeRegionIds[r] = b.getLong();
            keys[r] = b.getLong();
            if (Collective.values()[(int)theirKind] != kind || theirId != id)
            {
                throw new RmaException("collective mismatch: rank " + r + " is in " +
                    Collective.values()[(int)theirKind] + " of allocation " + theirId + " while rank " + job.rank() +
                    " is in " + kind + " of allocation " + id);
            }
            if (b.hasRemaining())
            {
                refusals.append(refusals.isEmpty() ? "" : "; ")
                    .append(new String(all.get(g), HEADER_BYTES, b.remaining(), StandardCharsets.UTF_8));
            }
        }
        if (!refusals.isEmpty())
        {
            throw new RmaException(kind + " of allocation " + id + " refused on every rank: " + refusals);
        }
        return new long[][] {values, regionIds, writeRegionIds, keys};
    }

    private static long pages(final long bytes)
    {
        return (bytes + PAGE_BYTES - 1) & -PAGE_BYTES;
    }

    /** @return the live allocation with that id, or null. */
    RmaAllocation lookup(final long id)
    {
        return live.get(id);
    }

    /** @return the id of a live allocation over the group, or -1. */
    long liveIn(final RmaGroup group)
    {
        for (final RmaAllocation a : live.values())
        {
            if (a.group() == group)
            {
                return a.id();
            }
        }
        return -1;
    }

    /** Collective over the allocation's group; the caller has completed every operation. */
    void free(final RmaAllocation allocation)
    {
        collective(allocation.group(), Collective.FREE, allocation.id(), 0, NO_REGION, null, null);
        live.remove(allocation.id());
        allocation.free();
    }
}
