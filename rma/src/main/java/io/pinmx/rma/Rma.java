package io.pinmx.rma;

import io.pinmx.job.Job;
import io.pinmx.job.EndpointTuning;
import io.pinmx.job.JobEndpoint;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriverOptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * ARMCI-style one-sided communication among the ranks of a {@link Job}: collective allocation of remotely
 * accessible memory, put, get and accumulate (contiguous, strided, vector; blocking and non-blocking), fences,
 * value operations, read-modify-write, mutexes, and ARMCI's message helpers (barrier, broadcast, reductions).
 * <p>
 * Ranks on this host map each other's slices and every operation between them is a copy, load, store or CPU atomic
 * that is complete when the call returns ({@link RankTier#SHARED_MEMORY}). Ranks on other hosts, or every other
 * rank when the shared-memory tier is switched off, are reached through this rank's pinmx endpoint
 * ({@link RankTier#DRIVER}): requests to the target's data-server thread, which serves them whether or not the
 * target's application calls the library. One thread issues operations on an {@code Rma}.
 */
public final class Rma implements AutoCloseable
{
    private static final long[] NO_STRIDES = new long[0];

    private final Job job;
    private final RmaOptions options;
    private final Arena arena = Arena.ofShared();
    private final Ranks ranks;
    private final RmaHandle implicit = new RmaHandle(true);
    private final RmaHandle blockingHandle = new RmaHandle(true);
    /** Native, so value operations through the driver send from it and receive into it without staging. */
    private final MemorySegment valueWord = arena.allocate(Long.BYTES, Long.BYTES);
    private final Allocator allocator;
    private final JobEndpoint endpoint;
    private final DriverTier driver;
    private final DataServer server;
    private boolean closed;

    private Rma(final Job job, final RmaOptions options)
    {
        this.job = job;
        this.options = options;
        this.ranks = Ranks.discover(job, options.directory(), options.sharedMemory(), arena);
        this.allocator = new Allocator(job, ranks, options.directory());
        if (anyRankNeedsTheDriver())
        {
            this.endpoint = JobEndpoint.open(job, System.getenv(), endpointTuning(options));
            this.driver = new DriverTier(endpoint);
            this.server = new DataServer(endpoint.endpoint(), allocator, ranks.stripes(job.rank()), job.rank());
        }
        else
        {
            this.endpoint = null;
            this.driver = null;
            this.server = null;
        }
    }

    /**
     * With the shared-memory tier off, the user driver's own same-host rings are off too: the driver tier is then
     * the path that crosses a network (UDP frames), which is what switching the tier off is for.
     */
    private static EndpointTuning endpointTuning(final RmaOptions options)
    {
        return new EndpointTuning()
        {
            @Override
            public void driverConfig(final EndpointConfig.Builder config)
            {
                if (!options.sharedMemory())
                {
                    config.options(UserDriverOptions.class, UserDriverOptions.defaults().withSameHost(false));
                }
            }
        };
    }

    /** Collective: the endpoint is opened by every rank or by none. */
    private boolean anyRankNeedsTheDriver()
    {
        boolean mine = false;
        for (int r = 0; r < ranks.size(); r++)
        {
            mine |= RankTier.DRIVER == ranks.tier(r);
        }
        for (final byte[] theirs : job.allGather(new byte[] {(byte)(mine ? 1 : 0)}))
        {
            if (1 == theirs[0])
            {
                return true;
            }
        }
        return false;
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
     * @throws RmaException naming a rank that this rank could reach only through the driver.
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

    // ---------------------------------------------------------------- allocation

    /**
     * Collective allocation: every rank gives its slice's size (sizes may differ, 0 included) and gets every rank's
     * slice. Slices are native, page aligned and zeroed.
     *
     * @throws IllegalArgumentException on every rank, naming the rank, if any rank asked for a negative size.
     * @throws RmaException             on every rank if the ranks are not all in the same collective call.
     */
    public RmaAllocation alloc(final long bytes)
    {
        checkOpen();
        return allocator.alloc(bytes);
    }

    /**
     * Collective free: completes every operation, waits for every rank, then unmaps the slices.
     *
     * @throws IllegalStateException if the allocation was freed already.
     * @throws RmaException          if the ranks are not all freeing the same allocation.
     */
    public void free(final RmaAllocation allocation)
    {
        allocation.checkLive();
        allFence();
        allocator.free(allocation);
    }

    // ---------------------------------------------------------------- contiguous

    /** Blocking put: returns when {@code source} may be reused. */
    public void put(final MemorySegment source, final RmaAllocation target, final int rank, final long offset)
    {
        nbPut(source, target, rank, offset, blocking());
        awaitBlocking();
    }

    /** Non-blocking put, followed by {@code handle} (null: the implicit handles). */
    public void nbPut(final MemorySegment source, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        final MemorySegment slice = slice(target, rank, offset, source.byteSize(), "put target");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target.id(), Pieces.strided(StridedPatch.contiguous(source.byteSize()), source, offset,
                true), StridedPatch.contiguous(source.byteSize()), offset, null);
            return;
        }
        SharedMemoryTier.put(source, 0, slice, offset, source.byteSize());
    }

    /** Blocking get: returns when the data is in {@code destination}. */
    public void get(final RmaAllocation source, final int rank, final long offset, final MemorySegment destination)
    {
        nbGet(source, rank, offset, destination, blocking());
        awaitBlocking();
    }

    public void nbGet(final RmaAllocation source, final int rank, final long offset, final MemorySegment destination,
        final RmaHandle handle)
    {
        final MemorySegment slice = slice(source, rank, offset, destination.byteSize(), "get source");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            final StridedPatch patch = StridedPatch.contiguous(destination.byteSize());
            driver.read(h, rank, source.id(), Pieces.strided(patch, destination, offset, false), patch, offset);
            return;
        }
        SharedMemoryTier.get(slice, offset, destination, 0, destination.byteSize());
    }

    /** Blocking accumulate {@code target += scale * source}: returns when {@code source} may be reused. */
    public void acc(final AccumulateScale scale, final MemorySegment source, final RmaAllocation target, final int rank,
        final long offset)
    {
        nbAcc(scale, source, target, rank, offset, blocking());
        awaitBlocking();
    }

    public void nbAcc(final AccumulateScale scale, final MemorySegment source, final RmaAllocation target, final int rank,
        final long offset, final RmaHandle handle)
    {
        final long bytes = source.byteSize();
        nbAccStrided(scale, source, NO_STRIDES, target, rank, offset, NO_STRIDES, new long[] {bytes}, 0, handle);
    }

    // ---------------------------------------------------------------- strided

    /**
     * Blocking strided put (ARMCI_PutS): {@code counts[0]} bytes per piece, {@code counts[1..levels]} pieces per
     * level, cumulative byte strides on each side.
     */
    public void putStrided(final MemorySegment source, final long[] sourceStrides, final RmaAllocation target,
        final int rank, final long offset, final long[] targetStrides, final long[] counts, final int levels)
    {
        nbPutStrided(source, sourceStrides, target, rank, offset, targetStrides, counts, levels, blocking());
        awaitBlocking();
    }

    public void nbPutStrided(final MemorySegment source, final long[] sourceStrides, final RmaAllocation target,
        final int rank, final long offset, final long[] targetStrides, final long[] counts, final int levels,
        final RmaHandle handle)
    {
        final StridedPatch patch = StridedPatch.of(counts, sourceStrides, targetStrides, levels);
        checkLocal(source, patch.sourceExtentBytes(), "put source");
        final MemorySegment slice = slice(target, rank, offset, patch.targetExtentBytes(), "strided put target");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target.id(), Pieces.strided(patch, source, offset, true), patch, offset, null);
            return;
        }
        SharedMemoryTier.putStrided(source, 0, slice, offset, patch);
    }

    /** Blocking strided get (ARMCI_GetS); strides on the remote side are the source strides. */
    public void getStrided(final RmaAllocation source, final int rank, final long offset, final long[] sourceStrides,
        final MemorySegment destination, final long[] destinationStrides, final long[] counts, final int levels)
    {
        nbGetStrided(source, rank, offset, sourceStrides, destination, destinationStrides, counts, levels, blocking());
        awaitBlocking();
    }

    public void nbGetStrided(final RmaAllocation source, final int rank, final long offset, final long[] sourceStrides,
        final MemorySegment destination, final long[] destinationStrides, final long[] counts, final int levels,
        final RmaHandle handle)
    {
        final StridedPatch patch = StridedPatch.of(counts, sourceStrides, destinationStrides, levels);
        checkLocal(destination, patch.targetExtentBytes(), "get destination");
        final MemorySegment slice = slice(source, rank, offset, patch.sourceExtentBytes(), "strided get source");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.read(h, rank, source.id(), Pieces.strided(patch, destination, offset, false), patch, offset);
            return;
        }
        SharedMemoryTier.getStrided(slice, offset, destination, 0, patch);
    }

    /** Blocking strided accumulate (ARMCI_AccS); counts[0] and every stride are whole elements. */
    public void accStrided(final AccumulateScale scale, final MemorySegment source, final long[] sourceStrides,
        final RmaAllocation target, final int rank, final long offset, final long[] targetStrides, final long[] counts,
        final int levels)
    {
        nbAccStrided(scale, source, sourceStrides, target, rank, offset, targetStrides, counts, levels, blocking());
        awaitBlocking();
    }

    public void nbAccStrided(final AccumulateScale scale, final MemorySegment source, final long[] sourceStrides,
        final RmaAllocation target, final int rank, final long offset, final long[] targetStrides, final long[] counts,
        final int levels, final RmaHandle handle)
    {
        final StridedPatch patch = StridedPatch.of(counts, sourceStrides, targetStrides, levels);
        patch.checkElementMultiple(scale.type().bytes(), scale.type().name());
        checkLocal(source, patch.sourceExtentBytes(), "accumulate source");
        final MemorySegment slice = slice(target, rank, offset, patch.targetExtentBytes(), "accumulate target");
        checkAligned(offset, scale.type().alignmentBytes(), "accumulate target offset");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target.id(), Pieces.strided(patch, source, offset, true), patch, offset, scale);
            return;
        }
        SharedMemoryTier.accStrided(scale, source, 0, slice, offset, patch, ranks.stripes(rank));
    }

    // ---------------------------------------------------------------- vector

    /** Blocking vector put (ARMCI_PutV): every group's pieces, local side the source. */
    public void putVector(final IoVector[] vectors, final RmaAllocation target, final int rank)
    {
        nbPutVector(vectors, target, rank, blocking());
        awaitBlocking();
    }

    public void nbPutVector(final IoVector[] vectors, final RmaAllocation target, final int rank, final RmaHandle handle)
    {
        final MemorySegment slice = vectorSlice(vectors, target, rank, "vector put target");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target.id(), Pieces.vectors(vectors), null, 0, null);
            return;
        }
        for (final IoVector v : vectors)
        {
            SharedMemoryTier.putVector(v, slice);
        }
    }

    /** Blocking vector get (ARMCI_GetV): every group's pieces, local side the destination. */
    public void getVector(final IoVector[] vectors, final RmaAllocation source, final int rank)
    {
        nbGetVector(vectors, source, rank, blocking());
        awaitBlocking();
    }

    public void nbGetVector(final IoVector[] vectors, final RmaAllocation source, final int rank, final RmaHandle handle)
    {
        final MemorySegment slice = vectorSlice(vectors, source, rank, "vector get source");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.read(h, rank, source.id(), Pieces.vectors(vectors), null, 0);
            return;
        }
        for (final IoVector v : vectors)
        {
            SharedMemoryTier.getVector(v, slice);
        }
    }

    /** Blocking vector accumulate (ARMCI_AccV); every piece is whole, aligned elements. */
    public void accVector(final AccumulateScale scale, final IoVector[] vectors, final RmaAllocation target, final int rank)
    {
        nbAccVector(scale, vectors, target, rank, blocking());
        awaitBlocking();
    }

    public void nbAccVector(final AccumulateScale scale, final IoVector[] vectors, final RmaAllocation target,
        final int rank, final RmaHandle handle)
    {
        final MemorySegment slice = vectorSlice(vectors, target, rank, "vector accumulate target");
        for (final IoVector v : vectors)
        {
            if (0 != v.bytes() % scale.type().bytes())
            {
                throw new IllegalArgumentException("vector accumulate piece of " + v.bytes() + " bytes is not a whole " +
                    "number of " + scale.type().bytes() + "-byte " + scale.type() + " elements");
            }
            for (final long remote : v.remoteOffsets())
            {
                checkAligned(remote, scale.type().alignmentBytes(), "vector accumulate target offset");
            }
        }
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target.id(), Pieces.vectors(vectors), null, 0, scale);
            return;
        }
        for (final IoVector v : vectors)
        {
            SharedMemoryTier.accVector(scale, v, slice, ranks.stripes(rank));
        }
    }

    // ---------------------------------------------------------------- values and read-modify-write

    public void putInt(final int value, final RmaAllocation target, final int rank, final long offset)
    {
        valueWord.set(ValueLayout.JAVA_INT_UNALIGNED, 0, value);
        put(valueWord.asSlice(0, Integer.BYTES), target, rank, offset);
    }

    public void putLong(final long value, final RmaAllocation target, final int rank, final long offset)
    {
        valueWord.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        put(valueWord.asSlice(0, Long.BYTES), target, rank, offset);
    }

    public void putFloat(final float value, final RmaAllocation target, final int rank, final long offset)
    {
        valueWord.set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, value);
        put(valueWord.asSlice(0, Float.BYTES), target, rank, offset);
    }

    public void putDouble(final double value, final RmaAllocation target, final int rank, final long offset)
    {
        valueWord.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, value);
        put(valueWord.asSlice(0, Double.BYTES), target, rank, offset);
    }

    public int getInt(final RmaAllocation source, final int rank, final long offset)
    {
        get(source, rank, offset, valueWord.asSlice(0, Integer.BYTES));
        return valueWord.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
    }

    public long getLong(final RmaAllocation source, final int rank, final long offset)
    {
        get(source, rank, offset, valueWord.asSlice(0, Long.BYTES));
        return valueWord.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
    }

    public float getFloat(final RmaAllocation source, final int rank, final long offset)
    {
        get(source, rank, offset, valueWord.asSlice(0, Float.BYTES));
        return valueWord.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0);
    }

    public double getDouble(final RmaAllocation source, final int rank, final long offset)
    {
        get(source, rank, offset, valueWord.asSlice(0, Double.BYTES));
        return valueWord.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
    }

    /** Atomic fetch-and-add of an int; complete at the target when it returns. @return the old value. */
    public int fetchAndAdd(final RmaAllocation target, final int rank, final long offset, final int delta)
    {
        final MemorySegment slice = rmwSlice(target, rank, offset, Integer.BYTES);
        return null == slice ? (int)driver.call(RmaOp.FETCH_ADD_INT, rank, target.id(), offset, delta) :
            SharedMemoryTier.fetchAndAdd(slice, offset, delta);
    }

    /** Atomic fetch-and-add of a long. @return the old value. */
    public long fetchAndAddLong(final RmaAllocation target, final int rank, final long offset, final long delta)
    {
        final MemorySegment slice = rmwSlice(target, rank, offset, Long.BYTES);
        return null == slice ? driver.call(RmaOp.FETCH_ADD_LONG, rank, target.id(), offset, delta) :
            SharedMemoryTier.fetchAndAdd(slice, offset, delta);
    }

    /** Atomic swap of an int. @return the old value. */
    public int swap(final RmaAllocation target, final int rank, final long offset, final int value)
    {
        final MemorySegment slice = rmwSlice(target, rank, offset, Integer.BYTES);
        return null == slice ? (int)driver.call(RmaOp.SWAP_INT, rank, target.id(), offset, value) :
            SharedMemoryTier.swap(slice, offset, value);
    }

    /** Atomic swap of a long. @return the old value. */
    public long swapLong(final RmaAllocation target, final int rank, final long offset, final long value)
    {
        final MemorySegment slice = rmwSlice(target, rank, offset, Long.BYTES);
        return null == slice ? driver.call(RmaOp.SWAP_LONG, rank, target.id(), offset, value) :
            SharedMemoryTier.swap(slice, offset, value);
    }

    private MemorySegment rmwSlice(final RmaAllocation target, final int rank, final long offset, final int bytes)
    {
        final MemorySegment slice = slice(target, rank, offset, bytes, "read-modify-write target");
        checkAligned(offset, bytes, "read-modify-write target offset");
        return slice;
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
        implicit.await();
    }

    /** Waits for every non-blocking operation issued without a handle. */
    public void waitAll()
    {
        implicit.await();
    }

    /** Returns when every earlier put and accumulate to the rank is complete at the rank. */
    public void fence(final int rank)
    {
        checkRank(rank, "fence target");
        waitProc(rank);
        if (RankTier.DRIVER == ranks.tier(rank))
        {
            driver.fence(rank);
        }
        SharedMemoryTier.fence();
    }

    /** Returns when every earlier put and accumulate to any rank is complete there. */
    public void allFence()
    {
        waitAll();
        for (int r = 0; r < size(); r++)
        {
            if (RankTier.DRIVER == ranks.tier(r))
            {
                driver.fence(r);
            }
        }
        SharedMemoryTier.fence();
    }

    /** All-fence, then waits for every rank (ARMCI_Barrier). */
    public void barrier()
    {
        allFence();
        job.barrier();
    }

    DriverTier driver()
    {
        return driver;
    }

    // ---------------------------------------------------------------- mutexes

    /**
     * Collective: this rank hosts {@code count} mutexes (counts may differ between ranks, 0 included).
     */
    public RmaMutexes createMutexes(final int count)
    {
        if (count < 0)
        {
            throw new IllegalArgumentException("mutex count " + count + " is negative");
        }
        final RmaAllocation words = alloc(count * RmaMutexes.MUTEX_BYTES);
        final int[] counts = new int[size()];
        for (int r = 0; r < size(); r++)
        {
            counts[r] = (int)(words.size(r) / RmaMutexes.MUTEX_BYTES);
        }
        return new RmaMutexes(this, words, counts);
    }

    /** Collective: destroys the group; using it afterwards fails. */
    public void destroyMutexes(final RmaMutexes mutexes)
    {
        free(mutexes.words());
    }

    // ---------------------------------------------------------------- message helpers

    /** @return {@code root}'s bytes on every rank. */
    public byte[] broadcast(final int root, final byte[] bytes)
    {
        checkRank(root, "broadcast root");
        return job.broadcast(root, bytes);
    }

    /** Element-wise sum over every rank's array, the result on every rank. */
    public int[] sum(final int[] values)
    {
        return Reductions.ints(job, values, Reductions.Op.SUM);
    }

    public int[] min(final int[] values)
    {
        return Reductions.ints(job, values, Reductions.Op.MIN);
    }

    public int[] max(final int[] values)
    {
        return Reductions.ints(job, values, Reductions.Op.MAX);
    }

    public long[] sum(final long[] values)
    {
        return Reductions.longs(job, values, Reductions.Op.SUM);
    }

    public long[] min(final long[] values)
    {
        return Reductions.longs(job, values, Reductions.Op.MIN);
    }

    public long[] max(final long[] values)
    {
        return Reductions.longs(job, values, Reductions.Op.MAX);
    }

    /** Sums in rank order, so every rank gets the same bits. */
    public double[] sum(final double[] values)
    {
        return Reductions.doubles(job, values, Reductions.Op.SUM);
    }

    public double[] min(final double[] values)
    {
        return Reductions.doubles(job, values, Reductions.Op.MIN);
    }

    public double[] max(final double[] values)
    {
        return Reductions.doubles(job, values, Reductions.Op.MAX);
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

    private MemorySegment slice(final RmaAllocation a, final int rank, final long offset, final long bytes,
        final String what)
    {
        checkOpen();
        a.checkLive();
        checkRank(rank, what);
        a.checkRange(rank, offset, bytes, what);
        checkAlive(rank);
        return a.slice(rank);
    }

    private MemorySegment vectorSlice(final IoVector[] vectors, final RmaAllocation a, final int rank, final String what)
    {
        final MemorySegment slice = slice(a, rank, 0, 0, what);
        for (final IoVector v : vectors)
        {
            for (int i = 0; i < v.count(); i++)
            {
                a.checkRange(rank, v.remoteOffsets()[i], v.bytes(), what + " piece " + i);
            }
        }
        return slice;
    }

    private static void checkLocal(final MemorySegment local, final long extentBytes, final String what)
    {
        if (extentBytes > local.byteSize())
        {
            throw new IllegalArgumentException(what + " spans " + extentBytes + " bytes but its segment has " +
                local.byteSize());
        }
    }

    private static void checkAligned(final long offset, final int alignment, final String what)
    {
        if (0 != offset % alignment)
        {
            throw new IllegalArgumentException(what + " " + offset + " is not aligned to " + alignment + " bytes");
        }
    }

    private RmaHandle begin(final RmaHandle handle)
    {
        final RmaHandle h = null == handle ? implicit : handle;
        h.begin();
        return h;
    }

    /** The handle a blocking call hands to its non-blocking form, waited for before the call returns. */
    private RmaHandle blocking()
    {
        return blockingHandle;
    }

    private void awaitBlocking()
    {
        blockingHandle.await();
    }

    private void checkOpen()
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
        try
        {
            allFence();
            job.barrier();
        }
        finally
        {
            if (null != server)
            {
                server.close();
                endpoint.close();
            }
            ranks.close();
            arena.close();
        }
    }

    @Override
    public String toString()
    {
        final List<String> tiers = new ArrayList<>();
        for (int r = 0; r < size(); r++)
        {
            tiers.add(r + ":" + ranks.tier(r));
        }
        return "Rma{rank " + rank() + " of " + size() + ", " + tiers + '}';
    }
}
