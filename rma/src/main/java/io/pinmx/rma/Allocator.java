package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Collective allocation and free of remotely accessible memory: each rank's slice is a page-aligned file in the
 * shared-file directory, mapped by every rank on the same host and removed as soon as they have (the mappings stay),
 * so a killed job leaves nothing behind. Checks that every rank is in the same collective call on the same
 * allocation and says which is not.
 */
final class Allocator
{
    private static final long PAGE_BYTES = 4096;
    private static final int WORD = Long.BYTES;

    private final Job job;
    private final Ranks ranks;
    private final Path directory;
    /** Live allocations by id, for the data server's thread. */
    private final ConcurrentHashMap<Long, RmaAllocation> live = new ConcurrentHashMap<>();
    private long nextAllocationId;

    Allocator(final Job job, final Ranks ranks, final Path directory)
    {
        this.job = job;
        this.ranks = ranks;
        this.directory = directory;
    }

    RmaAllocation alloc(final long bytes)
    {
        final long id = nextAllocationId++;
        final Arena slices = Arena.ofShared();
        final MemorySegment mine = bytes > 0 ? SharedFile.create(ranks.sliceFile(id, job.rank()), pages(bytes), slices) : null;
        final long[] sizes;
        try
        {
            sizes = collective(Collective.ALLOC, id, bytes);
        }
        catch (final RuntimeException ex)
        {
            removeOwnFile(id, bytes, slices);
            throw ex;
        }
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
            for (int r = 0; r < job.size(); r++)
            {
                mapped[r] = r == job.rank() ? (null == mine ? MemorySegment.NULL : mine.asSlice(0, bytes)) :
                    mapPeerSlice(id, r, sizes[r], slices);
            }
            final RmaAllocation allocation = new RmaAllocation(id, job.rank(), sizes, mapped, slices);
            live.put(id, allocation);
            job.barrier();
            return allocation;
        }
        catch (final RuntimeException ex)
        {
            live.remove(id);
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
     * @return every rank's value, indexed by rank.
     * @throws RmaException on every rank, naming the ranks that disagree, if the ranks are not all in the same
     *                      collective call on the same allocation.
     */
    private long[] collective(final Collective kind, final long id, final long value)
    {
        final List<byte[]> all = job.allGather(ByteBuffer.allocate(3 * WORD).putLong(kind.ordinal()).putLong(id)
            .putLong(value).array());
        final long[] values = new long[job.size()];
        for (int r = 0; r < job.size(); r++)
        {
            if (all.get(r).length != 3 * WORD)
            {
                throw new RmaException("collective mismatch: rank " + r + " is in another collective call while rank " +
                    job.rank() + " is in " + kind + " of allocation " + id);
            }
            final ByteBuffer b = ByteBuffer.wrap(all.get(r));
            final Collective theirKind = Collective.values()[(int)b.getLong()];
            final long theirId = b.getLong();
            values[r] = b.getLong();
            if (theirKind != kind || theirId != id)
            {
                throw new RmaException("collective mismatch: rank " + r + " is in " + theirKind + " of allocation " +
                    theirId + " while rank " + job.rank() + " is in " + kind + " of allocation " + id);
            }
        }
        return values;
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
        collective(Collective.FREE, allocation.id(), 0);
        live.remove(allocation.id());
        allocation.free();
    }
}
