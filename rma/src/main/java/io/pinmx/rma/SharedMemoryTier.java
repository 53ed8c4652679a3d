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
        if (0 != patch.pieces())
        {
            copyLevel(patch, patch.levels(), source, sourceOffset, slice, offset);
        }
    }

    static void getStrided(final MemorySegment slice, final long offset, final MemorySegment target,
        final long targetOffset, final StridedPatch patch)
    {
        if (0 != patch.pieces())
        {
            copyLevel(patch, patch.levels(), slice, offset, target, targetOffset);
        }
    }

    static void accStrided(final AccumulateScale scale, final MemorySegment source, final long sourceOffset,
        final MemorySegment slice, final long offset, final StridedPatch patch, final LockStripes stripes)
    {
        if (0 != patch.pieces())
        {
            accLevel(scale, patch, patch.levels(), source, sourceOffset, slice, offset, stripes);
        }
    }

    /**
     * Copies the pieces of one level of a patch, the patch's source strides on the {@code from} side: a recursion of
     * at most {@link StridedPatch#MAX_LEVELS} frames instead of a visitor, so a strided copy allocates nothing.
     */
    private static void copyLevel(final StridedPatch patch, final int level, final MemorySegment from,
        final long fromOffset, final MemorySegment to, final long toOffset)
    {
        if (0 == level)
        {
            MemorySegment.copy(from, fromOffset, to, toOffset, patch.pieceBytes());
            return;
        }
        final long count = patch.count(level);
        final long fromStride = patch.sourceStride(level - 1);
        final long toStride = patch.targetStride(level - 1);
        if (1 == level)
        {
            final long bytes = patch.pieceBytes();
            for (long i = 0; i < count; i++)
            {
                MemorySegment.copy(from, fromOffset + i * fromStride, to, toOffset + i * toStride, bytes);
            }
            return;
        }
        for (long i = 0; i < count; i++)
        {
            copyLevel(patch, level - 1, from, fromOffset + i * fromStride, to, toOffset + i * toStride);
        }
    }

    private static void accLevel(final AccumulateScale scale, final StridedPatch patch, final int level,
        final MemorySegment source, final long sourceOffset, final MemorySegment slice, final long offset,
        final LockStripes stripes)
    {
        if (0 == level)
        {
            Accumulator.accumulate(scale, source, sourceOffset, slice, offset, patch.pieceBytes(), stripes);
            return;
        }
        final long count = patch.count(level);
        final long sourceStride = patch.sourceStride(level - 1);
        final long targetStride = patch.targetStride(level - 1);
        for (long i = 0; i < count; i++)
        {
            accLevel(scale, patch, level - 1, source, sourceOffset + i * sourceStride, slice, offset + i * targetStride,
                stripes);
        }
    }

    static void putVector(final IoVector v, final MemorySegment slice)
    {
        for (int i = 0; i < v.count(); i++)
        {
            MemorySegment.copy(v.piece(i), 0, slice, v.remoteOffset(i), v.bytes());
        }
    }

    static void getVector(final IoVector v, final MemorySegment slice)
    {
        for (int i = 0; i < v.count(); i++)
        {
            MemorySegment.copy(slice, v.remoteOffset(i), v.piece(i), 0, v.bytes());
        }
    }

    static void accVector(final AccumulateScale scale, final IoVector v, final MemorySegment slice, final LockStripes stripes)
    {
        for (int i = 0; i < v.count(); i++)
        {
            Accumulator.accumulate(scale, v.piece(i), 0, slice, v.remoteOffset(i), v.bytes(), stripes);
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
