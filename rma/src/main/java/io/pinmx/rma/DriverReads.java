package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The gets of the {@link DriverTier}: the protocol each takes and, per target, the gets that may still be running,
 * which a later operation to that target waits for ({@link #settle}, {@link #awaitPacked}) so that it cannot land
 * before they read. Used by the rank's application thread only, as the tier is.
 */
final class DriverReads
{
    /** Most pieces of a get pulled one after another by one endpoint read; more go as reads running side by side. */
    static final int PIECES_PER_PULL_REQUEST = 64;
    /** Reads a direct get spreads its pieces over, so that up to this many pulls run side by side. */
    static final int READS_IN_FLIGHT = 16;
    /**
     * Pulls of a get that an access epoch of the target overlapped before the target's data server serves it: the
     * server waits out an epoch in its gate, where a pull, three round trips with the counter reads, may overlap
     * the next epoch of a target that opens them back to back, again and again.
     */
    static final int PULLS_BEFORE_SERVED = 2;

    private final DriverTier tier;
    private final JobEndpoint job;
    private final Endpoint endpoint;
    private final ProtocolChoice protocols;
    private final EpochCounters epochs;
    private final StreamBuffers streams;
    private final ModuleWrites module;
    private final Predicate<MemorySegment> isDeclared;
    /** Per rank, the gets that may still be pulling from it. */
    private final List<Completions.Pulls>[] pendingGets;
    /** Per rank, the packed gets its data server may still be packing: the module's writes must not overtake them. */
    private final List<PackedGet>[] packedGets;
    private final ReadsInFlight readsInFlight = new ReadsInFlight();

    DriverReads(final DriverTier tier, final JobEndpoint job, final ProtocolChoice protocols,
        final EpochCounters epochs, final StreamBuffers streams, final ModuleWrites module,
        final Predicate<MemorySegment> isDeclared)
    {
        this.tier = tier;
        this.job = job;
        this.endpoint = job.endpoint();
        this.protocols = protocols;
        this.epochs = epochs;
        this.streams = streams;
        this.module = module;
        this.isDeclared = isDeclared;
        this.pendingGets = newLists(job.job().size());
        this.packedGets = newLists(job.job().size());
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T>[] newLists(final int ranks)
    {
        final List<T>[] lists = new List[ranks];
        for (int r = 0; r < ranks; r++)
        {
            lists[r] = new ArrayList<>();
        }
        return lists;
    }

    /**
     * Get of {@code pieces} from the rank's slice (allocation {@code allocation}, exposed as a region there):
     * directly, pulls the driver serves at the target without its data server; packed, the target's data server
     * packs and sends them in chunks; streamed (contiguous), pulls into the stream buffers copied out as they land.
     * A pull reads the slice behind the server's back, so a put or accumulate to the rank not yet known complete
     * there is fenced first; a packed get is served by the server after them anyway.
     *
     * @param patch the remote shape (its source side), or null for the pieces' own offsets.
     */
    void read(final RmaHandle handle, final int rank, final RmaAllocation allocation, final Pieces pieces,
        final StridedPatch patch, final long remoteBase)
    {
        try
        {
            if (0 == pieces.totalBytes)
            {
                return;
            }
            if (1 == pieces.count())
            {
                // a passive target's reads are the driver's pulls: its data server may not run
                if (handle.isBlocking() && !module.takes(allocation, rank) &&
                    protocols.served(pieces.totalBytes, DriverTier.SERVED_GET_MAX_BYTES))
                {
                    tier.servedGet(rank, allocation.id(), pieces.remoteOffsets[0],
                        pieces.local[0].asSlice(0, pieces.totalBytes));
                    return;
                }
                if (ContiguousProtocol.STREAM == protocols.contiguous(false, pieces, isDeclared))
                {
                    tier.fence(rank);
                    stream(rank, allocation, pieces);
                    return;
                }
                pull(handle, rank, allocation, pieces);
                return;
            }
            final CostModel.SizeClass size = PackedGet.pulls(pieces.totalBytes) ? CostModel.SizeClass.LARGE :
                CostModel.SizeClass.SMALL;
            if (StridedProtocol.PACK == protocols.strided(CostModel.Kind.GET, size, pieces))
            {
                if (null == patch && pieces.count() > DriverTier.MAX_PIECES_PER_REQUEST)
                {
                    DriverTier.forEachChunk(pieces, chunk -> getPacked(handle, rank, allocation.id(), chunk, null, 0));
                    return;
                }
                getPacked(handle, rank, allocation.id(), pieces, patch, remoteBase);
                return;
            }
            pull(handle, rank, allocation, pieces);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(rank, ex);
        }
    }

    /**
     * The stream protocol of a get: pulls through the stream buffers, again after an access epoch of the target
     * overlapped them ({@link EpochCounters}), and served by the target's data server once {@link
     * #PULLS_BEFORE_SERVED} pulls were overlapped.
     */
    private void stream(final int rank, final RmaAllocation allocation, final Pieces pieces)
    {
        long startedWith = epochs.known(rank);
        for (int pulls = 1; ; pulls++)
        {
            final Request failed = streams.get(job.partner(rank), allocation.regionId(rank), pieces.remoteOffsets[0],
                pieces.local[0]);
            if (null != failed)
            {
                final RmaException error = RankFailures.failure(rank, failed);
                failed.release();
                throw error;
            }
            if (epochs.unchanged(rank, epochs.tick(), startedWith))
            {
                return;
            }
            if (PULLS_BEFORE_SERVED == pulls)
            {
                tier.startPackedGet(rank, allocation.id(), pieces, null, 0).await();
                return;
            }
            startedWith = epochs.awaitNoEpoch(rank);
        }
    }

    /** The direct protocol of a get: reads side by side, each pulling its share of the pieces in turn. */
    private void pull(final RmaHandle handle, final int rank, final RmaAllocation allocation, final Pieces pieces)
    {
        final int regionId = allocation.regionId(rank);
        tier.fence(rank);
        pendingGets[rank].removeIf(Completions.Pulls::isSettled);
        final Partner partner = job.partner(rank);
        final boolean direct = pieces.count() <= DriverTier.MAX_VECTOR && pieces.shareable();
        final MemorySegment[] joined = direct ? null : pieces.joinedLocal();
        // pieces that fill one native stretch of the caller's memory in order are their own staging buffer
        final boolean intoOne = !direct && 1 == joined.length && joined[0].isNative() && pieces.shareable();
        final MemorySegment staging = direct ? null : intoOne ? joined[0] :
            Arena.ofAuto().allocate(pieces.totalBytes, 8);
        // A staged get declares each read's part of a staging buffer of its own: few reads, few declarations.
        final int perRead = direct ? Math.clamp((pieces.count() + READS_IN_FLIGHT - 1) / READS_IN_FLIGHT, 1,
            PIECES_PER_PULL_REQUEST) : PIECES_PER_PULL_REQUEST;
        final PullPlan plan = new PullPlan(endpoint, partner, regionId, pieces, staging, perRead);
        readsInFlight.makeRoom(plan.reads());
        final long allocationId = allocation.id();
        final Completions.Pulls get = new Completions.Pulls(rank, plan, epochs, direct || intoOne ? null : pieces,
            staging, () -> tier.startPackedGet(rank, allocationId, pieces, null, 0));
        pendingGets[rank].add(get);
        readsInFlight.add(get);
        handle.add(get);
    }

    /** The pack protocol of a get ({@link PackedGet}): the target's data server packs the pieces. */
    private void getPacked(final RmaHandle handle, final int rank, final long allocationId, final Pieces pieces,
        final StridedPatch patch, final long remoteBase)
    {
        final PackedGet get = tier.startPackedGet(rank, allocationId, pieces, patch, remoteBase);
        packedGets[rank].removeIf(PackedGet::isDone);
        packedGets[rank].add(get);
        handle.add(get);
    }

    /** Waits for the gets from the rank that may still be pulling. */
    void settle(final int rank)
    {
        final List<Completions.Pulls> pending = pendingGets[rank];
        for (int i = 0; i < pending.size(); i++)
        {
            pending.get(i).settle();
        }
        pending.clear();
    }

    /** Waits for the packed gets the rank's data server may still be serving. */
    void awaitPacked(final int rank)
    {
        final List<PackedGet> packed = packedGets[rank];
        for (int i = 0; i < packed.size(); i++)
        {
            packed.get(i).await();
        }
        packed.clear();
    }
}
