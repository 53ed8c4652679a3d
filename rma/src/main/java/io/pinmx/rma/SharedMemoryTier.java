package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Operations on a slice mapped in this process (this rank's own, or a same-host rank's): copies, loads, stores and
 * CPU atomics, as ARMCI does within a node. Everything here is complete when it returns; ordering between two
 * operations on one target is program order. Arguments are already checked by {@link Rma}.
 */
final class SharedMemoryTier
{
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private SharedMemoryTier()
    {
    }

    static void put(final MemorySegment source, final long sourceOffset, final MemorySegment slice, final long offset,
        final long bytes)
    {
        MemorySegment.copy(source, sourceOffset, slice, offset, bytes);
    }

    static void get(final MemorySegment slice, final long offset, final MemorySegment target, final long targetOffset,
        final long bytes)
    {
        MemorySegment.copy(slice, offset, target, targetOffset, bytes);
    }

    static void putStrided(final MemorySegment source, final long sourceOffset, final MemorySegment slice,
        final long offset, final StridedPatch patch)
    {
        patch.forEachPiece((s, t, bytes) -> MemorySegment.copy(source, sourceOffset + s, slice, offset + t, bytes));
    }

    static void getStrided(final MemorySegment slice, final long offset, final MemorySegment target,
        final long targetOffset, final StridedPatch patch)
    {
        patch.forEachPiece((s, t, bytes) -> MemorySegment.copy(slice, offset + s, target, targetOffset + t, bytes));
    }

    static void accStrided(final AccumulateScale scale, final MemorySegment source, final long sourceOffset,
        final MemorySegment slice, final long offset, final StridedPatch patch, final LockStripes stripes)
    {
        patch.forEachPiece((s, t, bytes) ->
            Accumulator.accumulate(scale, source, sourceOffset + s, slice, offset + t, bytes, stripes));
    }

    static void putVector(final IoVector v, final MemorySegment slice)
    {
        for (int i = 0; i < v.count(); i++)
        {
            MemorySegment.copy(v.local(), v.localOffsets()[i], slice, v.remoteOffsets()[i], v.bytes());
        }
    }

    static void getVector(final IoVector v, final MemorySegment slice)
    {
        for (int i = 0; i < v.count(); i++)
        {
            MemorySegment.copy(slice, v.remoteOffsets()[i], v.local(), v.localOffsets()[i], v.bytes());
        }
    }

    static void accVector(final AccumulateScale scale, final IoVector v, final MemorySegment slice, final LockStripes stripes)
    {
        for (int i = 0; i < v.count(); i++)
        {
            Accumulator.accumulate(scale, v.local(), v.localOffsets()[i], slice, v.remoteOffsets()[i], v.bytes(), stripes);
        }
    }

    static int fetchAndAdd(final MemorySegment slice, final long offset, final int delta)
    {
        return (int)INT.getAndAdd(slice, offset, delta);
    }

    static long fetchAndAdd(final MemorySegment slice, final long offset, final long delta)
    {
        return (long)LONG.getAndAdd(slice, offset, delta);
    }

    static int swap(final MemorySegment slice, final long offset, final int value)
    {
        return (int)INT.getAndSet(slice, offset, value);
    }

    static long swap(final MemorySegment slice, final long offset, final long value)
    {
        return (long)LONG.getAndSet(slice, offset, value);
    }

    static boolean compareAndSet(final MemorySegment slice, final long offset, final long expected, final long value)
    {
        return LONG.compareAndSet(slice, offset, expected, value);
    }

    static long loadAcquire(final MemorySegment slice, final long offset)
    {
        return (long)LONG.getAcquire(slice, offset);
    }

    /** Makes this process's earlier stores to mapped slices visible before anything after it. */
    static void fence()
    {
        VarHandle.fullFence();
    }
}
