package io.pinmx.rma;

import io.pinmx.job.Job;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.stream.IntStream;

/**
 * ARMCI-style one-sided communication among the ranks of a {@link Job}: collective allocation of remotely
 * accessible memory, put, get and accumulate (contiguous, strided, vector; blocking and non-blocking), fences,
 * value operations, read-modify-write, mutexes, groups, access epochs, address-range locks, barriers, and ARMCI's
 * message helpers ({@link #messages()}: broadcast, reductions).
 * <p>
 * Ranks on this host map each other's slices and every operation between them is a copy, load, store or CPU atomic
 * that is complete when the call returns ({@link RankTier#SHARED_MEMORY}). Ranks on other hosts, or every other
 * rank when the shared-memory tier is switched off, are reached through this rank's pinmx endpoint
 * ({@link RankTier#DRIVER}): gets are pulls the drivers serve from the target's exposed slice, everything else a
 * request to the target's data-server thread; both happen whether or not the target's application calls the
 * library. This facade checks the arguments it owns (ranks, collective calls) and hands data operations to
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
    private final MemoryLocks memoryLocks;
    private final RmaMessages messages;
    private final LocalMemory localMemory;
    private final CallerProgress progress;
    private static final VarHandle INT_FLAG = ValueLayout.JAVA_INT.varHandle();
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
        this.messages = new RmaMessages(this, job);
        this.localMemory = new LocalMemory(job.rank());
        this.progress = new CallerProgress(null == driver ? null : layers.endpoint.endpoint());
        if (null != driver)
        {
            try
            {
                CostModels.establish(this, job, layers.endpoint, ranks, driver, layers.protocols, options);
            }
            catch (final RuntimeException ex)
            {
                // Every rank fails here alike (a damaged model file fails them all): nothing to wait for.
                closed = true;
                layers.release();
                throw ex;
            }
        }
        this.memoryLocks = new MemoryLocks(createMutexes(1));
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
     * rather than to its data server: false on the shared-memory tier, on a driver that cannot (the user driver) and
     * for a rank that runs with {@code PINMX_RMA_DRIVER_WRITES=0}.
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

    /**
     * Opens an access epoch on this rank's slice of the allocation ({@code ARMCI_Access_begin}, with ARMCI-MPI's
     * exclusive lock of one's own window) for direct loads and stores through {@link RmaAllocation#local()}: once it
     * returns, and until {@link #accessEnd(RmaAllocation)}, no other rank's put, accumulate, read-modify-write or get
     * touches that slice (their origins wait; a get that a driver pulled meanwhile is pulled again); the opening is a
     * full fence. One epoch at a time; inside it, an operation on this rank's own slice of that allocation is refused.
     *
     * @throws IllegalStateException if an epoch is open, the allocation was freed, or this rank's slice takes writes
     *                               from its driver ({@code PINMX_RMA_DRIVER_WRITES=1}), which an epoch cannot hold
     *                               back.
     * @throws RmaException          naming a same-host rank that exited while touching the slice.
     */
    public void accessBegin(final RmaAllocation allocation)
    {
        checkOpen();
        if (null != allocation && allocation.writes().exposed(rank()))
        {
            throw new IllegalStateException("access epoch on " + allocation + ": rank " + rank() + "'s slice takes " +
                "puts, accumulates and read-modify-writes from its driver, which no epoch holds back; run the rank " +
                "with " + RmaOptions.DRIVER_WRITES_VARIABLE + "=0");
        }
        transfers.epoch().begin(allocation);
    }

    /**
     * Closes the access epoch ({@code ARMCI_Access_end}): a full fence, then the operations held back proceed.
     *
     * @throws IllegalStateException if no epoch is open on that allocation.
     */
    public void accessEnd(final RmaAllocation allocation)
    {
        transfers.epoch().end(allocation);
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

    // ---------------------------------------------------------------- values and read-modify-write

    public void putInt(final int value, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.valueWord().set(ValueLayout.JAVA_INT_UNALIGNED, 0, value);
        transfers.putValue(target, rank, offset, Integer.BYTES);
    }

    public void putLong(final long value, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.valueWord().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        transfers.putValue(target, rank, offset, Long.BYTES);
    }

    public void putFloat(final float value, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.valueWord().set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, value);
        transfers.putValue(target, rank, offset, Float.BYTES);
    }

    public void putDouble(final double value, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.valueWord().set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, value);
        transfers.putValue(target, rank, offset, Double.BYTES);
    }

    /**
     * {@code ARMCI_Put_flag}: a blocking put, then the int at {@code flagOffset} of the rank's slice of {@code flags}
     * set to {@code value}, ordered on both tiers: a rank that sees the flag (a load-acquire, as
     * {@link #awaitFlag(RmaAllocation, long, int, Duration)} does) sees every byte of the put.
     *
     * @throws IllegalArgumentException naming the argument for what a put refuses, a flag outside the slice or not
     *                                  aligned to 4 bytes, or one overlapping the put's bytes; nothing moves then.
     */
    public void putFlag(final MemorySegment source, final RmaAllocation target, final int rank, final long offset,
        final RmaAllocation flags, final long flagOffset, final int value)
    {
        transfers.putFlag(source, target, rank, offset, flags, flagOffset, value);
    }

    /**
     * Waits until the int at {@code offset} of this rank's slice of {@code flags} holds {@code value}, reading it with
     * acquire semantics, so the bytes of a {@link #putFlag} that set it are visible once it returns.
     *
     * @throws IllegalArgumentException naming the offset if it is outside the slice or not aligned to 4 bytes.
     * @throws RmaException             naming the flag, the value awaited and the value seen if the timeout passes.
     */
    public void awaitFlag(final RmaAllocation flags, final long offset, final int value, final Duration timeout)
    {
        if (null == flags || null == timeout)
        {
            throw new IllegalArgumentException("awaited flag: the " + (null == flags ? "allocation" : "timeout") +
                " is null");
        }
        flags.checkLive();
        flags.checkMember(rank(), "awaited flag");
        flags.checkRange(rank(), offset, Integer.BYTES, "awaited flag");
        if (0 != offset % Integer.BYTES)
        {
            throw new IllegalArgumentException("awaited flag offset " + offset + " is not aligned to 4 bytes");
        }
        final MemorySegment mine = flags.local();
        final long deadline = System.nanoTime() + timeout.toNanos();
        final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.lockWait();
        int seen;
        while ((seen = (int)INT_FLAG.getAcquire(mine, offset)) != value)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new RmaException("flag at " + offset + " of allocation " + flags.id() + " on rank " + rank() +
                    " still holds " + seen + " after " + timeout.toMillis() + " ms, not " + value);
            }
            idle.idle();
        }
    }

    /**
     * Non-blocking value put ({@code ARMCI_NbPutValueInt}), followed by {@code handle} (null: the implicit handles);
     * the value is copied, so nothing of the caller's must outlive the call.
     */
    public void nbPutInt(final int value, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(MemorySegment.ofArray(new int[] {value}), target, rank, offset, handle);
    }

    public void nbPutLong(final long value, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(MemorySegment.ofArray(new long[] {value}), target, rank, offset, handle);
    }

    public void nbPutFloat(final float value, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(MemorySegment.ofArray(new float[] {value}), target, rank, offset, handle);
    }

    public void nbPutDouble(final double value, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(MemorySegment.ofArray(new double[] {value}), target, rank, offset, handle);
    }

    public int getInt(final RmaAllocation source, final int rank, final long offset)
    {
        return transfers.getValue(source, rank, offset, Integer.BYTES).get(ValueLayout.JAVA_INT_UNALIGNED, 0);
    }

    public long getLong(final RmaAllocation source, final int rank, final long offset)
    {
        return transfers.getValue(source, rank, offset, Long.BYTES).get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
    }

    public float getFloat(final RmaAllocation source, final int rank, final long offset)
    {
        return transfers.getValue(source, rank, offset, Float.BYTES).get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0);
    }

    public double getDouble(final RmaAllocation source, final int rank, final long offset)
    {
        return transfers.getValue(source, rank, offset, Double.BYTES).get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
    }

    /** Atomic fetch-and-add of an int; complete at the target when it returns. @return the old value. */
    public int fetchAndAdd(final RmaAllocation target, final int rank, final long offset, final int delta)
    {
        return transfers.fetchAndAdd(target, rank, offset, delta);
    }

    /** Atomic fetch-and-add of a long. @return the old value. */
    public long fetchAndAddLong(final RmaAllocation target, final int rank, final long offset, final long delta)
    {
        return transfers.fetchAndAddLong(target, rank, offset, delta);
    }

    /** Atomic swap of an int. @return the old value. */
    public int swap(final RmaAllocation target, final int rank, final long offset, final int value)
    {
        return transfers.swap(target, rank, offset, value);
    }

    /** Atomic swap of a long. @return the old value. */
    public long swapLong(final RmaAllocation target, final int rank, final long offset, final long value)
    {
        return transfers.swapLong(target, rank, offset, value);
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

    // ---------------------------------------------------------------- mutexes

    /**
     * Collective: this rank hosts {@code count} mutexes (counts may differ between ranks, 0 included).
     *
     * @throws IllegalArgumentException on every rank, naming the rank, if any rank gave a negative count.
     */
    public RmaMutexes createMutexes(final int count)
    {
        return createMutexes(groups.world(), count);
    }

    /**
     * Collective over the group's members: each hosts {@code count} mutexes; hosts are named by world rank and a rank
     * outside the group is refused, naming it.
     */
    public RmaMutexes createMutexes(final RmaGroup group, final int count)
    {
        return RmaMutexes.create(this, driver, group, count);
    }

    /** Collective: destroys the group; using it afterwards fails. */
    public void destroyMutexes(final RmaMutexes mutexes)
    {
        free(mutexes.words());
    }

    /**
     * Waits until this rank holds an address range of a rank's slice ({@code armci_lockmem}); each rank's memory has
     * one lock (created at init), so ranges on one rank exclude each other even when apart. One range at a time.
     *
     * @throws IllegalArgumentException naming the rank or range if it is outside the job, the allocation's group or
     *                                  the slice.
     * @throws IllegalStateException    if this rank holds a range already, or the allocation was freed.
     */
    public void lockMemory(final RmaAllocation allocation, final int rank, final long offset, final long bytes)
    {
        checkOpen();
        checkRank(rank, "locked range");
        memoryLocks.lock(allocation, rank, offset, bytes);
    }

    /**
     * Completes this rank's puts and accumulates everywhere, then lets the range go ({@code armci_unlockmem}).
     *
     * @throws IllegalStateException naming the range if this rank does not hold exactly it.
     */
    public void unlockMemory(final RmaAllocation allocation, final int rank, final long offset, final long bytes)
    {
        memoryLocks.unlock(allocation, rank, offset, bytes);
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
    private RmaHandle followedBy(final RmaHandle handle)
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

    /**
     * @return how many requests through the driver took each protocol (strided and vector: direct or pack;
     *         contiguous: zero-copy or stream) since init; all 0 when no rank is reached through the driver.
     */
    public ProtocolCounts protocolCounts()
    {
        return layers.protocols.counts();
    }

    /**
     * Forces this rank's protocols for the operations that follow through the driver (AUTO: the cost model's
     * choice); the same as {@link RmaOptions#strided()} and {@link RmaOptions#contiguous()} at init.
     *
     * @throws IllegalArgumentException if either is null.
     */
    public void protocols(final StridedProtocol strided, final ContiguousProtocol contiguous)
    {
        layers.protocols.force(strided, contiguous);
    }

    /** @return the cost model that chooses this rank's protocols, or null when no rank is reached through the driver. */
    public CostModel costModel()
    {
        return layers.protocols.model();
    }

    /** @return requests this rank's data server has served (0 without one): what its CPU did for others. */
    long dataServerRequests()
    {
        return layers.dataServerRequests();
    }

    /** @return of the packed gets this rank's data server answered: packed, sent in chunks, pack-area bytes held. */
    long[] dataServerPackedGets()
    {
        return layers.dataServerPackedGets();
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
