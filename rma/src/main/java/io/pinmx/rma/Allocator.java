package io.pinmx.rma;

import io.pinmx.job.Job;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.ExposedRegion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Collective allocation and free of remotely accessible memory: each rank's slice is a page-aligned file in the
 * shared-file directory, mapped by every rank on the same host and removed as soon as they have (the mappings stay),
 * so a killed job leaves nothing behind. When ranks go through the driver, each slice is also exposed once on this
 * rank's endpoint (declared for read and write) and the region ids are exchanged with the sizes, so that gets are
 * pulls the driver serves. Checks that every rank is in the same collective call on the same allocation and says
 * which is not.
 */
final class Allocator
{
    private static final long PAGE_BYTES = 4096;
    /** Opens every rank's part of an allocator collective, so that another collective's payload is told apart. */
    private static final long MAGIC = 0x706d_7872_616c_6c63L;
    private static final int HEADER_BYTES = 5 * Long.BYTES;
    /** The region id of a slice that is not exposed (empty, or no rank uses the driver). */
    static final int NO_REGION = -1;

    private final Job job;
    private final Ranks ranks;
    private final Path directory;
    /** This rank's endpoint, or null when no rank of the job uses the driver. */
    private final Endpoint endpoint;
    /** Live allocations by id, for the data server's thread. */
    private final ConcurrentHashMap<Long, RmaAllocation> live = new ConcurrentHashMap<>();
    private long nextAllocationId;

    Allocator(final Job job, final Ranks ranks, final Path directory, final Endpoint endpoint)
    {
        this.job = job;
        this.ranks = ranks;
        this.directory = directory;
        this.endpoint = endpoint;
    }

    /**
     * @throws RmaException on every rank alike, naming the rank and why, when a rank could not make its slice (its
     *                      directory has no room for it, or its exposure failed): every rank then removes its own.
     */
    RmaAllocation alloc(final long bytes)
    {
        final long id = nextAllocationId++;
        final Arena slices = Arena.ofShared();
        MemorySegment mine = null;
        ExposedRegion exposed = null;
        String refusal = null;
        try
        {
            mine = bytes > 0 ? SharedFile.create(ranks.sliceFile(id, job.rank()), pages(bytes), slices) : null;
            exposed = null != mine && null != endpoint ? endpoint.expose(mine.asSlice(0, bytes)) : null;
        }
        catch (final RuntimeException ex)
        {
            // The others are on their way into the collective: they learn of it there instead of waiting for us.
            refusal = "rank " + job.rank() + " could not make its slice of " + bytes + " bytes: " + ex.getMessage();
        }
        final long[][] agreed;
        try
        {
            agreed = collective(Collective.ALLOC, id, bytes, null == exposed ? NO_REGION : exposed.id(), refusal);
        }
        catch (final RuntimeException ex)
        {
            if (null != exposed)
            {
                exposed.close();
            }
            removeOwnFile(id, bytes, slices);
            throw ex;
        }
        final long[] sizes = agreed[0];
        try
        {
            for (int r = 0; r < job.size(); r++)
            {
                if (sizes[r] < 0)
                {
                    throw new IllegalArgumentException("rank " + r + " asked for a slice of " + sizes[r] + " bytes");
                }
            }
            final MemorySegment[] mapped = new MemorySegment[job.size()];
            final int[] regionIds = new int[job.size()];
            for (int r = 0; r < job.size(); r++)
            {
                mapped[r] = r == job.rank() ? (null == mine ? MemorySegment.NULL : mine.asSlice(0, bytes)) :
                    mapPeerSlice(id, r, sizes[r], slices);
                regionIds[r] = (int)agreed[1][r];
            }
            final RmaAllocation allocation = new RmaAllocation(id, job.rank(), sizes, mapped, regionIds, exposed,
                slices);
            live.put(id, allocation);
            job.barrier();
            return allocation;
        }
        catch (final RuntimeException ex)
        {
            live.remove(id);
            if (null != exposed)
            {
                exposed.close();
            }
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
     * Every rank sends a magic word, its kind, allocation id, value and region id, then what refused its part, if
     * anything (UTF-8, empty when nothing did).
     *
     * @param refusal why this rank could not do its part, or null.
     * @return every rank's value and region id, indexed by rank.
     * @throws RmaException on every rank, naming the ranks that disagree, if the ranks are not all in the same
     *                      collective call on the same allocation; on every rank, with every refusal in rank order,
     *                      if a rank could not do its part.
     */
    private long[][] collective(final Collective kind, final long id, final long value, final int regionId,
        final String refusal)
    {
        final byte[] why = null == refusal ? new byte[0] : refusal.getBytes(StandardCharsets.UTF_8);
        final List<byte[]> all = job.allGather(ByteBuffer.allocate(HEADER_BYTES + why.length).putLong(MAGIC)
            .putLong(kind.ordinal()).putLong(id).putLong(value).putLong(regionId).put(why).array());
        final long[] values = new long[job.size()];
        final long[] regionIds = new long[job.size()];
        final StringBuilder refusals = new StringBuilder();
        for (int r = 0; r < job.size(); r++)
        {
            final ByteBuffer b = ByteBuffer.wrap(all.get(r));
            final long theirKind = b.remaining() < HEADER_BYTES || MAGIC != b.getLong() ? -1 : b.getLong();
            if (theirKind < 0 || theirKind >= Collective.values().length)
            {
                throw new RmaException("collective mismatch: rank " + r + " is in another collective call while rank " +
                    job.rank() + " is in " + kind + " of allocation " + id);
            }
            final long theirId = b.getLong();
            values[r] = b.getLong();
            regionIds[r] = b.getLong();
            if (Collective.values()[(int)theirKind] != kind || theirId != id)
            {
                throw new RmaException("collective mismatch: rank " + r + " is in " +
                    Collective.values()[(int)theirKind] + " of allocation " + theirId + " while rank " + job.rank() +
                    " is in " + kind + " of allocation " + id);
            }
            if (b.hasRemaining())
            {
                refusals.append(refusals.isEmpty() ? "" : "; ")
                    .append(new String(all.get(r), HEADER_BYTES, b.remaining(), StandardCharsets.UTF_8));
            }
        }
        if (!refusals.isEmpty())
        {
            throw new RmaException(kind + " of allocation " + id + " refused on every rank: " + refusals);
        }
        return new long[][] {values, regionIds};
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

    /** Collective; the caller has completed every operation. */
    void free(final RmaAllocation allocation)
    {
        collective(Collective.FREE, allocation.id(), 0, NO_REGION, null);
        live.remove(allocation.id());
        allocation.free();
    }
}
