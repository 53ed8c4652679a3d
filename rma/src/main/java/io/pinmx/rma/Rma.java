package io.pinmx.rma;

import io.pinmx.job.Job;

import java.lang.foreign.MemorySegment;
import java.util.stream.IntStream;

/**
 * ARMCI-style one-sided communication among the ranks of a {@link Job}: collective allocation of remotely
 * accessible memory, put, get and accumulate (contiguous, strided, vector; blocking and non-blocking), fences,
 * barriers; value operations ({@link #values()}), read-modify-write ({@link #atomics()}), flagged puts
 * ({@link #flags()}), mutexes and address-range locks ({@link #locks()}), access epochs ({@link #epochs()}), groups
 * ({@link #groups()}), ARMCI's message helpers ({@link #messages()}: broadcast, reductions) and the protocols of
 * requests through the driver ({@link #protocols()}).
 * <p>
 * Ranks on this host map each other's slices and every operation between them is a copy, load, store or CPU atomic
 * that is complete when the call returns ({@link RankTier#SHARED_MEMORY}). Ranks on other hosts, or every other
 * rank when the shared-memory tier is switched off, are reached through this rank's pinmx endpoint
 * ({@link RankTier#DRIVER}): gets are pulls the drivers serve from the target's exposed slice; puts, integer
 * accumulates and read-modify-writes go to the target's driver where it applies them itself (the kernel module,
 * {@link #driverWrites}); everything else is a request to the target's data-server thread; all happen whether or not
 * the target's application calls the library. This facade checks the arguments it owns (ranks, collective calls) and hands data operations to
 * {@link Transfers}. One thread issues operations on an {@code Rma}.
 */
public final class Rma implements AutoCloseable
{
    private final Job job;
    private final RmaLayers layers;
    private final Ranks ranks;
    private final DriverTier driver;
    private final Transfers transfers;
    private final Fences fences;
    private final RmaGroups groups;
    private final RmaLocks locks;
    private final RmaMessages messages;
    private final LocalMemory localMemory;
    private final RmaValues values;
    private final RmaAtomics atomics;
    private final RmaFlags flags;
    private final RmaEpochs epochs;
    private final RmaProtocols protocols;
    private final CallerProgress progress;
    private boolean closed;

    private Rma(final Job job, final RmaOptions options)
    {
        this.job = job;
        this.layers = new RmaLayers(job, options);
        this.ranks = layers.ranks;
        this.driver = layers.driver;
        this.transfers = layers.transfers;
        this.fences = new Fences(ranks, driver, transfers);
        this.groups = new RmaGroups(this, job, layers.allocator, transfers, ranks, layers.arena, Hosts.exchange(job, ranks));
        this.messages = new RmaMessages(this, job, layers.twoSided);
        this.localMemory = new LocalMemory(job.rank());
        this.values = new RmaValues(transfers);
        this.atomics = new RmaAtomics(transfers);
        this.flags = new RmaFlags(transfers, job.rank());
        this.epochs = new RmaEpochs(this, transfers);
        this.protocols = new RmaProtocols(layers);
        this.progress = new CallerProgress(null == driver ? null : layers.endpoint.endpoint());
        if (null != driver)
        {
            try
            {
                CostModels.establish(this, job, layers.endpoint, ranks, driver, layers.protocols, options,
                    layers.driverWrites);
            }
            catch (final RuntimeException ex)
            {
                // Every rank fails here alike (a damaged model file fails them all): nothing to wait for.
                closed = true;
                layers.release();
                throw ex;
            }
        }
        this.locks = new RmaLocks(this, driver, groups);
    }

    /**
     * Starts the one-sided layer on every rank of the job (collective), with options from the environment.
     */
    public static Rma init(final Job job)
    {
        return init(job, RmaOptions.fromEnvironment(System.getenv()));
    }

    /**
     * Collective.
     *
     * @throws RmaException naming a rank that this rank could reach only through the driver; on every rank alike,
     *                      naming the rank and why, when a rank's control file does not fit in its directory.
     */
    public static Rma init(final Job job, final RmaOptions options)
    {
        return new Rma(job, options);
    }

    public int rank()
    {
        return job.rank();
    }

    public int size()
    {
        return job.size();
    }

    /** @return how this rank reaches the rank's memory. */
    public RankTier tier(final int rank)
    {
        checkRank(rank, "target");
        return ranks.tier(rank);
    }

    /**
     * Whether puts, int and long accumulates of scale 1, fetch-and-add and swap to the rank's slice of the allocation
     * go to the rank's driver, which applies them itself (the kernel module: the target's process does nothing),
     * rather than to its data server: false on the shared-memory tier, on a driver that cannot apply them without the
     * rank's process or hold them back (the user driver) unless {@code PINMX_RMA_DRIVER_WRITES=1}, and for a rank that
     * runs with {@code PINMX_RMA_DRIVER_WRITES=0}.
     *
     * @throws IllegalArgumentException naming the rank or the allocation if either is not valid here.
     */
    public boolean driverWrites(final RmaAllocation allocation, final int rank)
    {
        checkRank(rank, "driver writes");
        if (null == allocation)
        {
            throw new IllegalArgumentException("driver writes: the allocation is null");
        }
        allocation.checkLive();
        allocation.checkMember(rank, "driver writes");
        return RankTier.DRIVER == ranks.tier(rank) && null != driver && driver.takesWrites(allocation, rank);
    }

    /**
     * {@code ARMCI_Same_node}: whether the rank runs on this host, whichever tier reaches it (with the shared-memory
     * tier off, a rank on this host is reached through the driver and is still on this node).
     *
     * @throws IllegalArgumentException naming the rank if it is not one of the job's.
     */
    public boolean sameNode(final int rank)
    {
        checkRank(rank, "same-node");
        return ranks.sameHost(rank);
    }

    // ---------------------------------------------------------------- allocation

    /**
     * Collective allocation over the default group ({@link RmaGroups#defaultGroup()}, the world unless set): every
     * member gives its slice's size (sizes may differ, 0 included) and gets every rank's
     * slice. Slices are native, page aligned and zeroed.
     *
     * @throws IllegalArgumentException on every rank, naming the rank, if any rank asked for a negative size.
     * @throws RmaException             on every rank if the ranks are not all in the same collective call; on every
     *                                  rank alike, naming the rank and why, when a rank's slice does not fit in its
     *                                  directory ({@link RmaOptions#directory()}): then no rank keeps a slice.
     */
    public RmaAllocation alloc(final long bytes)
    {
        return alloc(groups.defaultGroup(), bytes);
    }

    /**
     * Collective over the group's members ({@code ARMCI_Malloc_group}): as {@link #alloc(long)}, with slices on the
     * members only; operations name them by world rank and refuse any other rank, naming it. Freed by
     * {@link #free(RmaAllocation)}, collective over the same members.
     *
     * @throws IllegalArgumentException if the group is null or this rank is not a member.
     * @throws IllegalStateException    if the group was freed.
     */
    public RmaAllocation alloc(final RmaGroup group, final long bytes)
    {
        checkOpen();
        RmaGroup.check(group, "allocation");
        return layers.allocator.alloc(group, bytes);
    }

    /**
     * Collective free: completes every operation at its target (those on explicit and aggregate handles not yet
     * waited for too: their handles then only report the outcome), waits for every rank of the allocation's group,
     * then unmaps the slices.
     *
     * @throws IllegalStateException if the allocation was freed already.
     * @throws RmaException          if the ranks are not all freeing the same allocation.
     */
    public void free(final RmaAllocation allocation)
    {
        if (null == allocation)
        {
            throw new IllegalArgumentException("allocation to free is null");
        }
        allocation.checkLive();
        transfers.epoch().checkFree(allocation);
        // Operations on explicit handles not yet waited for included: nothing may reach a slice once freed.
        fences.allTargets(true);
        layers.allocator.free(allocation);
    }

    /** @return access epochs on this rank's slices ({@code ARMCI_Access_begin}, {@code ARMCI_Access_end}). */
    public RmaEpochs epochs()
    {
        return epochs;
    }

    // ---------------------------------------------------------------- contiguous

    /** Blocking put: returns when {@code source} may be reused. */
    public void put(final MemorySegment source, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.put(source, target, rank, offset, transfers.blocking());
        transfers.awaitBlocking();
    }

    /** Non-blocking put, followed by {@code handle} (null: the implicit handles). */
    public void nbPut(final MemorySegment source, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(source, target, rank, offset, handle);
        localMemory.issued(followedBy(handle), source);
    }

    /** Blocking get: returns when the data is in {@code destination}. */
    public void get(final RmaAllocation source, final int rank, final long offset, final MemorySegment destination)
    {
        transfers.get(source, rank, offset, destination, transfers.blocking());
        transfers.awaitBlocking();
    }

    public void nbGet(final RmaAllocation source, final int rank, final long offset, final MemorySegment destination,
        final RmaHandle handle)
    {
        transfers.get(source, rank, offset, destination, handle);
        localMemory.issued(followedBy(handle), destination);
    }

    /** Blocking accumulate {@code target += scale * source}: returns when {@code source} may be reused. */
    public void acc(final AccumulateScale scale, final MemorySegment source, final RmaAllocation target, final int rank,
        final long offset)
    {
        transfers.acc(scale, source, target, rank, offset, transfers.blocking());
        transfers.awaitBlocking();
    }

    public void nbAcc(final AccumulateScale scale, final MemorySegment source, final RmaAllocation target, final int rank,
        final long offset, final RmaHandle handle)
    {
        transfers.acc(scale, source, target, rank, offset, handle);
        localMemory.issued(followedBy(handle), source);
    }

    // ---------------------------------------------------------------- strided

    /**
     * Blocking strided put (ARMCI_PutS): {@code counts[0]} bytes per piece, {@code counts[1..levels]} pieces per
     * level, cumulative byte strides on each side.
     */
    public void putStrided(final MemorySegment source, final long[] sourceStrides, final RmaAllocation target,
        final int rank, final long offset, final long[] targetStrides, final long[] counts, final int levels)
    {
        transfers.putStrided(source, sourceStrides, target, rank, offset, targetStrides, counts, levels,
            transfers.blocking());
        transfers.awaitBlocking();
    }

    public void nbPutStrided(final MemorySegment source, final long[] sourceStrides, final RmaAllocation target,
        final int rank, final long offset, final long[] targetStrides, final long[] counts, final int levels,
        final RmaHandle handle)
    {
        transfers.putStrided(source, sourceStrides, target, rank, offset, targetStrides, counts, levels, handle);
        localMemory.issued(followedBy(handle), source);
    }

    /** Blocking strided get (ARMCI_GetS); strides on the remote side are the source strides. */
    public void getStrided(final RmaAllocation source, final int rank, final long offset, final long[] sourceStrides,
        final MemorySegment destination, final long[] destinationStrides, final long[] counts, final int levels)
    {
        transfers.getStrided(source, rank, offset, sourceStrides, destination, destinationStrides, counts, levels,
            transfers.blocking());
        transfers.awaitBlocking();
    }

    public void nbGetStrided(final RmaAllocation source, final int rank, final long offset, final long[] sourceStrides,
        final MemorySegment destination, final long[] destinationStrides, final long[] counts, final int levels,
        final RmaHandle handle)
    {
        transfers.getStrided(source, rank, offset, sourceStrides, destination, destinationStrides, counts, levels,
            handle);
        localMemory.issued(followedBy(handle), destination);
    }

    /** Blocking strided accumulate (ARMCI_AccS); counts[0] and every stride are whole elements. */
    public void accStrided(final AccumulateScale scale, final MemorySegment source, final long[] sourceStrides,
        final RmaAllocation target, final int rank, final long offset, final long[] targetStrides, final long[] counts,
        final int levels)
    {
        transfers.accStrided(scale, source, sourceStrides, target, rank, offset, targetStrides, counts, levels,
            transfers.blocking());
        transfers.awaitBlocking();
    }

    public void nbAccStrided(final AccumulateScale scale, final MemorySegment source, final long[] sourceStrides,
        final RmaAllocation target, final int rank, final long offset, final long[] targetStrides, final long[] counts,
        final int levels, final RmaHandle handle)
    {
        transfers.accStrided(scale, source, sourceStrides, target, rank, offset, targetStrides, counts, levels, handle);
        localMemory.issued(followedBy(handle), source);
    }

    // ---------------------------------------------------------------- vector

    /** Blocking vector put (ARMCI_PutV): every group's pieces, local side the source. */
    public void putVector(final IoVector[] vectors, final RmaAllocation target, final int rank)
    {
        transfers.putVector(vectors, target, rank, transfers.blocking());
        transfers.awaitBlocking();
    }

    public void nbPutVector(final IoVector[] vectors, final RmaAllocation target, final int rank, final RmaHandle handle)
    {
        transfers.putVector(vectors, target, rank, handle);
        localMemory.issued(followedBy(handle), vectors);
    }

    /** Blocking vector get (ARMCI_GetV): every group's pieces, local side the destination. */
    public void getVector(final IoVector[] vectors, final RmaAllocation source, final int rank)
    {
        transfers.getVector(vectors, source, rank, transfers.blocking());
        transfers.awaitBlocking();
    }

    public void nbGetVector(final IoVector[] vectors, final RmaAllocation source, final int rank, final RmaHandle handle)
    {
        transfers.getVector(vectors, source, rank, handle);
        localMemory.issued(followedBy(handle), vectors);
    }

    /** Blocking vector accumulate (ARMCI_AccV); every piece is whole, aligned elements. */
    public void accVector(final AccumulateScale scale, final IoVector[] vectors, final RmaAllocation target, final int rank)
    {
        transfers.accVector(scale, vectors, target, rank, transfers.blocking());
        transfers.awaitBlocking();
    }

    public void nbAccVector(final AccumulateScale scale, final IoVector[] vectors, final RmaAllocation target,
        final int rank, final RmaHandle handle)
    {
        transfers.accVector(scale, vectors, target, rank, handle);
        localMemory.issued(followedBy(handle), vectors);
    }

    // ---------------------------------------------------------------- values, read-modify-write, flags

    /** @return ARMCI's value operations: one int, long, float or double put or read ({@code ARMCI_PutValue*}). */
    public RmaValues values()
    {
        return values;
    }

    /** @return ARMCI's read-modify-write: fetch-and-add and swap of an int or a long ({@code ARMCI_Rmw}). */
    public RmaAtomics atomics()
    {
        return atomics;
    }

    /** @return ARMCI's flagged puts ({@code ARMCI_Put_flag}) and the wait for a flag in this rank's slice. */
    public RmaFlags flags()
    {
        return flags;
    }

    // ---------------------------------------------------------------- completion

    /** @return a new explicit handle: one non-blocking operation at a time. */
    public RmaHandle handle()
    {
        return new RmaHandle(false);
    }

    /** @return a new aggregate handle: any number of non-blocking operations, completed together. */
    public RmaHandle aggregateHandle()
    {
        return new RmaHandle(true);
    }

    /** Waits for every non-blocking operation issued without a handle to the rank. */
    public void waitProc(final int rank)
    {
        checkRank(rank, "target");
        transfers.implicit().await();
    }

    /** Waits for every non-blocking operation issued without a handle. */
    public void waitAll()
    {
        transfers.implicit().await();
    }

    /** Returns when every earlier put and accumulate to the rank is complete at the rank. */
    public void fence(final int rank)
    {
        checkRank(rank, "fence target");
        fences.fence(rank);
    }

    /** Returns when every earlier put and accumulate to any rank is complete there. */
    public void allFence()
    {
        fences.allTargets(false);
    }

    /** All-fence, then waits for every member of the default group, the world unless set (ARMCI_Barrier). */
    public void barrier()
    {
        final RmaGroup group = groups.defaultGroup();
        if (groups.world() == group)
        {
            allFence();
            job.barrier();
            return;
        }
        barrier(group);
    }

    /** All-fence, then waits for every member of the group ({@code armci_msg_group_barrier}). */
    public void barrier(final RmaGroup group)
    {
        RmaGroup.check(group, "group barrier");
        allFence();
        group.barrier();
    }

    // ---------------------------------------------------------------- groups

    /** @return the groups of this rank's job: the world group, and creating, splitting and freeing others. */
    public RmaGroups groups()
    {
        return groups;
    }

    /** @return the group of every rank in rank order (ARMCI_GROUP_WORLD); never freed. */
    public RmaGroup worldGroup()
    {
        return groups.world();
    }

    // ---------------------------------------------------------------- locks, progress

    /** @return ARMCI's mutexes and address-range locks ({@code ARMCI_Create_mutexes}, {@code armci_lockmem}). */
    public RmaLocks locks()
    {
        return locks;
    }

    /**
     * {@code ARMCI_Progress}: while other ranks pull from this one through the driver, offers the CPU to the thread
     * that serves them ({@link CallerProgress}); one counter read otherwise. A loop that computes for long calls it
     * every millisecond or so.
     *
     * @return true if pull requests arrived since the last call and the CPU was offered, false otherwise.
     * @throws IllegalStateException if this rma is closed.
     */
    public boolean progress()
    {
        checkOpen();
        return progress.offer();
    }

    // ---------------------------------------------------------------- message helpers

    /** @return ARMCI's message helpers (broadcast, reductions; {@code armci_msg_*}) over this rank's job and groups. */
    public RmaMessages messages()
    {
        return messages;
    }

    /** @return this rank's local buffers and local copy ({@code ARMCI_Malloc_local}, {@code _Free_local}, {@code ARMCI_Copy}). */
    public LocalMemory localMemory()
    {
        return localMemory;
    }

    /** @return the handle a non-blocking call given {@code handle} adds its operation to. */
    RmaHandle followedBy(final RmaHandle handle)
    {
        return null == handle ? transfers.implicit() : handle;
    }

    // ---------------------------------------------------------------- checks

    void checkRank(final int rank, final String what)
    {
        ranks.checkRank(rank, what);
    }

    void checkAlive(final int rank)
    {
        ranks.checkAlive(rank);
    }

    /** @return the protocols of this rank's requests through the driver: counted, forced, chosen by a cost model. */
    public RmaProtocols protocols()
    {
        return protocols;
    }

    void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("rma of rank " + rank() + " is closed");
        }
    }

    /**
     * Collective: completes every operation, waits for every rank (so no request is still on its way to this rank's
     * data server), then stops the data server and closes the endpoint. A rank that died does not stop the others
     * from closing.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        transfers.close();
        try
        {
            allFence();
            job.barrier();
        }
        finally
        {
            layers.release();
            // after every operation is complete: none still reads or writes a buffer
            localMemory.close();
        }
    }

    @Override
    public String toString()
    {
        return "Rma{rank " + rank() + " of " + size() + ", " +
            IntStream.range(0, size()).mapToObj(r -> r + ":" + ranks.tier(r)).toList() + '}';
    }
}
