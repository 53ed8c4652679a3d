package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Every data operation of {@link Rma} on its way to a tier: checks its arguments (a refused call changes nothing),
 * then does it on a mapped slice ({@link SharedMemoryTier}, holding this rank's slot of the target's {@link EpochGate}
 * meanwhile) or hands it to the {@link DriverTier}. Owns the implicit handle, the handle a blocking call waits on, and
 * the native word value operations go through.
 */
final class Transfers
{
    private static final long[] NO_STRIDES = new long[0];

    private final Ranks ranks;
    private final DriverTier driver;
    private final RmaHandle implicit = new RmaHandle(true);
    private final RmaHandle blockingHandle = new RmaHandle(true, true);
    private final AccessEpoch epoch;
    /** The same-host target whose epoch this rank waits out: its exit fails the wait. */
    private int heldBy;
    private final EpochGate.WhileHeld targetAlive;
    /** Native, so value operations through the driver send from it and receive into it without staging. */
    private final MemorySegment valueWord;
    private boolean closed;

    /** @param accessEpochs whether this rank may open access epochs ({@link RmaOptions#accessEpochs()}). */
    Transfers(final Ranks ranks, final DriverTier driver, final Arena arena, final boolean accessEpochs)
    {
        this.ranks = ranks;
        this.driver = driver;
        this.valueWord = arena.allocate(Long.BYTES, Long.BYTES);
        this.epoch = new AccessEpoch(ranks, accessEpochs);
        this.targetAlive = () -> ranks.checkAlive(heldBy);
    }

    AccessEpoch epoch()
    {
        return epoch;
    }

    /** The handle a blocking call hands to its non-blocking form, waited for before the call returns. */
    RmaHandle blocking()
    {
        return blockingHandle;
    }

    void awaitBlocking()
    {
        blockingHandle.await();
    }

    RmaHandle implicit()
    {
        return implicit;
    }

    void close()
    {
        closed = true;
        epoch.close();
    }

    // ---------------------------------------------------------------- put, get, accumulate

    void put(final MemorySegment source, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        checkSource(source, "put source");
        final MemorySegment slice = slice(target, rank, offset, source.byteSize(), "put target");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            final StridedPatch patch = StridedPatch.contiguous(source.byteSize());
            driver.write(h, rank, target, Pieces.strided(patch, source, offset, true), patch, offset, null);
            return;
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            SharedMemoryTier.put(source, 0, slice, offset, source.byteSize());
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    void get(final RmaAllocation source, final int rank, final long offset, final MemorySegment destination,
        final RmaHandle handle)
    {
        checkDestination(destination, "get destination");
        final MemorySegment slice = slice(source, rank, offset, destination.byteSize(), "get source");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            final StridedPatch patch = StridedPatch.contiguous(destination.byteSize());
            driver.read(h, rank, source, Pieces.strided(patch, destination, offset, false), patch, offset);
            return;
        }
        final EpochGate gate = enter(source, rank);
        try
        {
            SharedMemoryTier.get(slice, offset, destination, 0, destination.byteSize());
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    void acc(final AccumulateScale scale, final MemorySegment source, final RmaAllocation target, final int rank,
        final long offset, final RmaHandle handle)
    {
        checkSource(source, "accumulate source");
        accStrided(scale, source, NO_STRIDES, target, rank, offset, NO_STRIDES, new long[] {source.byteSize()}, 0,
            handle);
    }

    void putStrided(final MemorySegment source, final long[] sourceStrides, final RmaAllocation target,
        final int rank, final long offset, final long[] targetStrides, final long[] counts, final int levels,
        final RmaHandle handle)
    {
        checkSource(source, "put source");
        final StridedPatch patch = StridedPatch.of(counts, sourceStrides, targetStrides, levels);
        checkLocal(source, patch.sourceExtentBytes(), "put source");
        final MemorySegment slice = slice(target, rank, offset, patch.targetExtentBytes(), "strided put target");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target, Pieces.strided(patch, source, offset, true), patch, offset, null);
            return;
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            SharedMemoryTier.putStrided(source, 0, slice, offset, patch);
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    void getStrided(final RmaAllocation source, final int rank, final long offset, final long[] sourceStrides,
        final MemorySegment destination, final long[] destinationStrides, final long[] counts, final int levels,
        final RmaHandle handle)
    {
        checkDestination(destination, "get destination");
        final StridedPatch patch = StridedPatch.of(counts, sourceStrides, destinationStrides, levels);
        checkLocal(destination, patch.targetExtentBytes(), "get destination");
        final MemorySegment slice = slice(source, rank, offset, patch.sourceExtentBytes(), "strided get source");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.read(h, rank, source, Pieces.strided(patch, destination, offset, false), patch, offset);
            return;
        }
        final EpochGate gate = enter(source, rank);
        try
        {
            SharedMemoryTier.getStrided(slice, offset, destination, 0, patch);
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    void accStrided(final AccumulateScale scale, final MemorySegment source, final long[] sourceStrides,
        final RmaAllocation target, final int rank, final long offset, final long[] targetStrides, final long[] counts,
        final int levels, final RmaHandle handle)
    {
        checkScale(scale);
        checkSource(source, "accumulate source");
        final StridedPatch patch = StridedPatch.of(counts, sourceStrides, targetStrides, levels);
        patch.checkElementMultiple(scale.type().bytes(), scale.type().name());
        checkLocal(source, patch.sourceExtentBytes(), "accumulate source");
        final MemorySegment slice = slice(target, rank, offset, patch.targetExtentBytes(), "accumulate target");
        checkAligned(offset, scale.type().alignmentBytes(), "accumulate target offset");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target, Pieces.strided(patch, source, offset, true), patch, offset, scale);
            return;
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            SharedMemoryTier.accStrided(scale, source, 0, slice, offset, patch, ranks.stripes(rank));
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    void putVector(final IoVector[] vectors, final RmaAllocation target, final int rank, final RmaHandle handle)
    {
        checkVectors(vectors, false, "vector put");
        final MemorySegment slice = vectorSlice(vectors, target, rank, "vector put target");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target, Pieces.vectors(vectors), null, 0, null);
            return;
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            for (final IoVector v : vectors)
            {
                SharedMemoryTier.putVector(v, slice);
            }
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    void getVector(final IoVector[] vectors, final RmaAllocation source, final int rank, final RmaHandle handle)
    {
        checkVectors(vectors, true, "vector get");
        final MemorySegment slice = vectorSlice(vectors, source, rank, "vector get source");
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.read(h, rank, source, Pieces.vectors(vectors), null, 0);
            return;
        }
        final EpochGate gate = enter(source, rank);
        try
        {
            for (final IoVector v : vectors)
            {
                SharedMemoryTier.getVector(v, slice);
            }
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    void accVector(final AccumulateScale scale, final IoVector[] vectors, final RmaAllocation target, final int rank,
        final RmaHandle handle)
    {
        checkScale(scale);
        checkVectors(vectors, false, "vector accumulate");
        final MemorySegment slice = vectorSlice(vectors, target, rank, "vector accumulate target");
        for (final IoVector v : vectors)
        {
            if (0 != v.bytes() % scale.type().bytes())
            {
                throw new IllegalArgumentException("vector accumulate piece of " + v.bytes() + " bytes is not a whole " +
                    "number of " + scale.type().bytes() + "-byte " + scale.type() + " elements");
            }
            for (int i = 0; i < v.count(); i++)
            {
                checkAligned(v.remoteOffset(i), scale.type().alignmentBytes(), "vector accumulate target offset");
            }
        }
        final RmaHandle h = begin(handle);
        if (null == slice)
        {
            driver.write(h, rank, target, Pieces.vectors(vectors), null, 0, scale);
            return;
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            for (final IoVector v : vectors)
            {
                SharedMemoryTier.accVector(scale, v, slice, ranks.stripes(rank));
            }
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    // ---------------------------------------------------------------- values

    /** Blocking put of the first {@code bytes} of the value word, which the caller wrote. */
    void putValue(final RmaAllocation target, final int rank, final long offset, final int bytes)
    {
        put(valueWord.asSlice(0, bytes), target, rank, offset, blockingHandle);
        awaitBlocking();
    }

    /** @return the value word after a blocking get of {@code bytes} into it. */
    MemorySegment getValue(final RmaAllocation source, final int rank, final long offset, final int bytes)
    {
        get(source, rank, offset, valueWord.asSlice(0, bytes), blockingHandle);
        awaitBlocking();
        return valueWord;
    }

    MemorySegment valueWord()
    {
        return valueWord;
    }

    /**
     * A blocking put, then the int flag set to {@code value}: both go to one rank, and one origin's writes to one
     * target land in order on both tiers (this thread's stores, fenced, on the shared-memory tier; the target's data
     * server serves one origin's requests in order through the driver, and the target's driver takes a blocking put
     * once it acknowledged the earlier ones), so a rank that sees the flag sees the bytes.
     * Every argument is checked before anything moves.
     */
    void putFlag(final MemorySegment source, final RmaAllocation target, final int rank, final long offset,
        final RmaAllocation flags, final long flagOffset, final int value)
    {
        checkSource(source, "flagged put source");
        slice(target, rank, offset, source.byteSize(), "flagged put target");
        slice(flags, rank, flagOffset, Integer.BYTES, "put flag");
        checkAligned(flagOffset, Integer.BYTES, "put flag offset");
        if (flags == target && flagOffset < offset + source.byteSize() && offset < flagOffset + Integer.BYTES)
        {
            throw new IllegalArgumentException("put flag [" + flagOffset + ", " + flagOffset + " + 4) overlaps the " +
                "put's bytes [" + offset + ", " + offset + " + " + source.byteSize() + ") on rank " + rank);
        }
        put(source, target, rank, offset, blockingHandle);
        awaitBlocking();
        VarHandle.storeStoreFence();
        valueWord.set(ValueLayout.JAVA_INT_UNALIGNED, 0, value);
        putValue(flags, rank, flagOffset, Integer.BYTES);
    }

    /**
     * The long flag set to {@code value} after every write this rank started to the rank before it, blocking or not:
     * on the shared-memory tier those wrote in this thread before (fenced here); through the driver the target's data
     * server serves one origin's requests in order, and writes the target's driver takes are acknowledged first when
     * the flag goes there too. Complete once the flag's value is copied, as a small put is.
     */
    void notify(final RmaAllocation flags, final int rank, final long flagOffset, final long value)
    {
        final MemorySegment slice = slice(flags, rank, flagOffset, Long.BYTES, "notify flag");
        checkAligned(flagOffset, Long.BYTES, "notify flag offset");
        if (null == slice)
        {
            driver.orderAfterWrites(flags, rank);
        }
        VarHandle.storeStoreFence();
        valueWord.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        putValue(flags, rank, flagOffset, Long.BYTES);
    }

    // ---------------------------------------------------------------- read-modify-write

    int fetchAndAdd(final RmaAllocation target, final int rank, final long offset, final int delta)
    {
        final MemorySegment slice = rmwSlice(target, rank, offset, Integer.BYTES);
        if (null == slice)
        {
            return (int)driver.rmw(RmaOp.FETCH_ADD_INT, rank, target, offset, delta);
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            return SharedMemoryTier.fetchAndAdd(slice, offset, delta);
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    long fetchAndAddLong(final RmaAllocation target, final int rank, final long offset, final long delta)
    {
        final MemorySegment slice = rmwSlice(target, rank, offset, Long.BYTES);
        if (null == slice)
        {
            return driver.rmw(RmaOp.FETCH_ADD_LONG, rank, target, offset, delta);
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            return SharedMemoryTier.fetchAndAdd(slice, offset, delta);
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    int swap(final RmaAllocation target, final int rank, final long offset, final int value)
    {
        final MemorySegment slice = rmwSlice(target, rank, offset, Integer.BYTES);
        if (null == slice)
        {
            return (int)driver.rmw(RmaOp.SWAP_INT, rank, target, offset, value);
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            return SharedMemoryTier.swap(slice, offset, value);
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    long swapLong(final RmaAllocation target, final int rank, final long offset, final long value)
    {
        final MemorySegment slice = rmwSlice(target, rank, offset, Long.BYTES);
        if (null == slice)
        {
            return driver.rmw(RmaOp.SWAP_LONG, rank, target, offset, value);
        }
        final EpochGate gate = enter(target, rank);
        try
        {
            return SharedMemoryTier.swap(slice, offset, value);
        }
        finally
        {
            gate.leave(ranks.self());
        }
    }

    private MemorySegment rmwSlice(final RmaAllocation target, final int rank, final long offset, final int bytes)
    {
        final MemorySegment slice = slice(target, rank, offset, bytes, "read-modify-write target");
        checkAligned(offset, bytes, "read-modify-write target offset");
        return slice;
    }

    // ---------------------------------------------------------------- checks

    /** @return the rank's mapped slice, or null for a rank reached through the driver. */
    private MemorySegment slice(final RmaAllocation a, final int rank, final long offset, final long bytes,
        final String what)
    {
        if (closed)
        {
            throw new IllegalStateException("rma of rank " + ranks.self() + " is closed");
        }
        if (null == a)
        {
            throw new IllegalArgumentException(what + ": the allocation is null");
        }
        a.checkLive();
        ranks.checkRank(rank, what);
        a.checkMember(rank, what);
        a.checkRange(rank, offset, bytes, what);
        ranks.checkAlive(rank);
        epoch.checkAccess(a, rank, what);
        return a.slice(rank);
    }

    /**
     * Takes this rank's slot of a same-host target's epoch gate on the allocation's slice, waiting out an epoch
     * open on it; the caller leaves it once the operation is done.
     *
     * @throws RmaException naming the target if its process exits while this rank waits.
     */
    private EpochGate enter(final RmaAllocation a, final int rank)
    {
        final EpochGate gate = ranks.gate(rank);
        heldBy = rank;
        gate.enter(ranks.self(), a.id(), targetAlive);
        return gate;
    }

    private MemorySegment vectorSlice(final IoVector[] vectors, final RmaAllocation a, final int rank, final String what)
    {
        final MemorySegment slice = slice(a, rank, 0, 0, what);
        for (final IoVector v : vectors)
        {
            for (int i = 0; i < v.count(); i++)
            {
                a.checkRange(rank, v.remoteOffset(i), v.bytes(), what + " piece " + i);
            }
        }
        return slice;
    }

    private static void checkSource(final MemorySegment source, final String what)
    {
        if (null == source)
        {
            throw new IllegalArgumentException(what + " is null");
        }
    }

    /**
     * A get writes its destination behind the segment's back (a copy, or the driver's pull into its address): a
     * read-only view must be refused before anything moves, not written through or failed half-way.
     */
    private static void checkDestination(final MemorySegment destination, final String what)
    {
        if (null == destination)
        {
            throw new IllegalArgumentException(what + " is null");
        }
        if (destination.isReadOnly())
        {
            throw new IllegalArgumentException(what + " " + destination + " is read-only");
        }
    }

    private static void checkScale(final AccumulateScale scale)
    {
        if (null == scale)
        {
            throw new IllegalArgumentException("accumulate scale is null (it also gives the element type)");
        }
    }

    /** @param intoLocal a get: every group's local memory is written. */
    private static void checkVectors(final IoVector[] vectors, final boolean intoLocal, final String what)
    {
        if (null == vectors)
        {
            throw new IllegalArgumentException(what + ": the I/O vector array is null");
        }
        for (int g = 0; g < vectors.length; g++)
        {
            if (null == vectors[g])
            {
                throw new IllegalArgumentException(what + ": I/O vector group " + g + " is null");
            }
            for (int i = 0; intoLocal && i < vectors[g].count(); i++)
            {
                if (vectors[g].piece(i).isReadOnly())
                {
                    throw new IllegalArgumentException(what + ": I/O vector group " + g + "'s local piece " + i +
                        " is read-only");
                }
            }
        }
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
}
