package io.pinmx.kerneltests;

import io.pinmx.rma.AccumulateScale;
import io.pinmx.rma.IoVector;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The one-sided operations {@link PassiveTargetRanks}' origin does on a stopped target, each also applied to an
 * image of the target's slice, so that the target (which computes the image without issuing anything) and the origin
 * know exactly what the slice must hold: a contiguous put past the staging size, a 2-level strided put, a vector put
 * from native and heap pieces, int and long accumulates (contiguous past one frame's words, strided, from heap),
 * fetch-and-add and swap at both widths with every old value checked, and puts and accumulates to the same bytes in
 * both orders.
 */
final class PassiveTargetOps
{
    static final long SLICE_BYTES = 2L << 20;
    private static final long BIG_PUT_OFFSET = 65536;
    private static final long BIG_PUT_BYTES = 1_572_864 + 1000;
    private static final int TICKETS = 60;
    /** A word no operation here touches, for timings that leave it zero. */
    static final long SCRATCH_OFFSET = 61440;

    private final Rma rma;
    private final RmaAllocation slices;
    private final int target;
    /** What the target's slice must hold once every operation so far is done. */
    private final MemorySegment image;
    private final Arena arena;

    /** @param rma null to compute the image only. */
    PassiveTargetOps(final Rma rma, final RmaAllocation slices, final int target, final Arena arena)
    {
        this.rma = rma;
        this.slices = slices;
        this.target = target;
        this.arena = arena;
        this.image = arena.allocate(SLICE_BYTES, 8);
    }

    MemorySegment image()
    {
        return image;
    }

    void runAll()
    {
        contiguousPuts();
        stridedPut();
        vectorPut();
        accumulates();
        readModifyWrites();
        sameBytesInBothOrders();
    }

    private void contiguousPuts()
    {
        put(pattern(5000, 7), 0);
        put(pattern(BIG_PUT_BYTES, 13), BIG_PUT_OFFSET);
    }

    private void stridedPut()
    {
        final long[] counts = {24, 16, 3};
        final long[] sourceStrides = {24, 24 * 16};
        final long[] targetStrides = {64, 1024};
        final MemorySegment source = pattern(24 * 16 * 3, 29);
        final long offset = 8192;
        if (null != rma)
        {
            rma.putStrided(source, sourceStrides, slices, target, offset, targetStrides, counts, 2);
        }
        for (int k = 0; k < 3; k++)
        {
            for (int j = 0; j < 16; j++)
            {
                MemorySegment.copy(source, k * sourceStrides[1] + j * sourceStrides[0], image,
                    offset + k * targetStrides[1] + j * targetStrides[0], 24);
            }
        }
    }

    private void vectorPut()
    {
        final MemorySegment packed = pattern(40 * 12, 31);
        final long[] localOffsets = new long[40];
        final long[] remoteOffsets = new long[40];
        for (int i = 0; i < 40; i++)
        {
            localOffsets[i] = 12L * i;
            // descending, so that the pieces are not in the region's order
            remoteOffsets[i] = 12288 + 100L * (39 - i);
        }
        final MemorySegment[] heapPieces = new MemorySegment[3];
        final long[] heapRemote = new long[3];
        for (int i = 0; i < 3; i++)
        {
            final byte[] bytes = new byte[16];
            for (int b = 0; b < 16; b++)
            {
                bytes[b] = (byte)(100 + 16 * i + b);
            }
            heapPieces[i] = MemorySegment.ofArray(bytes);
            heapRemote[i] = 16384 + 32L * i;
        }
        if (null != rma)
        {
            rma.putVector(new IoVector[] {new IoVector(packed, localOffsets, remoteOffsets, 12),
                IoVector.ofPieces(heapPieces, heapRemote, 16)}, slices, target);
        }
        for (int i = 0; i < 40; i++)
        {
            MemorySegment.copy(packed, localOffsets[i], image, remoteOffsets[i], 12);
        }
        for (int i = 0; i < 3; i++)
        {
            MemorySegment.copy(heapPieces[i], 0, image, heapRemote[i], 16);
        }
    }

    private void accumulates()
    {
        final MemorySegment ints = arena.allocate(300L * Integer.BYTES, 8);
        for (int i = 0; i < 300; i++)
        {
            ints.setAtIndex(ValueLayout.JAVA_INT, i, i - 100);
        }
        final MemorySegment heapInts = MemorySegment.ofArray(new int[300]);
        MemorySegment.copy(ints, 0, heapInts, 0, ints.byteSize());
        accInts(ints, 20480);
        accInts(heapInts, 20480);

        final MemorySegment longs = arena.allocate(200L * Long.BYTES, 8);
        for (int i = 0; i < 200; i++)
        {
            longs.setAtIndex(ValueLayout.JAVA_LONG, i, ((long)i << 32) + i);
        }
        if (null != rma)
        {
            rma.acc(AccumulateScale.ofLong(1), longs, slices, target, 24576);
        }
        addLongs(longs, 0, 24576, 200);
        // strided: 10 pieces of two longs, every 64 bytes
        final long[] counts = {16, 10};
        if (null != rma)
        {
            rma.accStrided(AccumulateScale.ofLong(1), longs, new long[] {16}, slices, target, 28672, new long[] {64},
                counts, 1);
        }
        for (int j = 0; j < 10; j++)
        {
            addLongs(longs, 16L * j, 28672 + 64L * j, 2);
        }
    }

    private void accInts(final MemorySegment values, final long offset)
    {
        if (null != rma)
        {
            rma.acc(AccumulateScale.ofInt(1), values, slices, target, offset);
        }
        for (int i = 0; i < values.byteSize() / Integer.BYTES; i++)
        {
            final long at = offset + (long)Integer.BYTES * i;
            image.set(ValueLayout.JAVA_INT, at, image.get(ValueLayout.JAVA_INT, at) +
                values.getAtIndex(ValueLayout.JAVA_INT, i));
        }
    }

    private void addLongs(final MemorySegment values, final long from, final long offset, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final long at = offset + (long)Long.BYTES * i;
            image.set(ValueLayout.JAVA_LONG, at, image.get(ValueLayout.JAVA_LONG, at) +
                values.get(ValueLayout.JAVA_LONG, from + (long)Long.BYTES * i));
        }
    }

    private void readModifyWrites()
    {
        for (int i = 0; i < TICKETS; i++)
        {
            final int old = image.get(ValueLayout.JAVA_INT, 32768);
            image.set(ValueLayout.JAVA_INT, 32768, old + 3);
            check("fetch-and-add ticket " + i, old, null == rma ? old : rma.atomics().fetchAndAdd(slices, target, 32768, 3));
            final long oldLong = image.get(ValueLayout.JAVA_LONG, 32776);
            final long delta = (1L << 33) + 1;
            image.set(ValueLayout.JAVA_LONG, 32776, oldLong + delta);
            check("long fetch-and-add ticket " + i, oldLong,
                null == rma ? oldLong : rma.atomics().fetchAndAddLong(slices, target, 32776, delta));
        }
        for (int i = 1; i <= 5; i++)
        {
            final int old = image.get(ValueLayout.JAVA_INT, 32784);
            image.set(ValueLayout.JAVA_INT, 32784, -i);
            check("swap " + i, old, null == rma ? old : rma.atomics().swap(slices, target, 32784, -i));
            final long oldLong = image.get(ValueLayout.JAVA_LONG, 32792);
            image.set(ValueLayout.JAVA_LONG, 32792, Long.MIN_VALUE + i);
            check("long swap " + i, oldLong,
                null == rma ? oldLong : rma.atomics().swapLong(slices, target, 32792, Long.MIN_VALUE + i));
        }
    }

    /** A put then an accumulate on the same ints, an accumulate then a put, and two puts: each lands in order. */
    private void sameBytesInBothOrders()
    {
        final MemorySegment tens = arena.allocate(64L * Integer.BYTES, 8);
        final MemorySegment ones = arena.allocate(64L * Integer.BYTES, 8);
        for (int i = 0; i < 64; i++)
        {
            tens.setAtIndex(ValueLayout.JAVA_INT, i, 10);
            ones.setAtIndex(ValueLayout.JAVA_INT, i, 1);
        }
        put(tens, 45056);
        accInts(ones, 45056);
        accInts(ones, 45568);
        put(tens, 45568);
        put(pattern(512, 3), 49152);
        put(pattern(512, 5), 49152);
    }

    private void put(final MemorySegment source, final long offset)
    {
        if (null != rma)
        {
            rma.put(source, slices, target, offset);
        }
        MemorySegment.copy(source, 0, image, offset, source.byteSize());
    }

    private MemorySegment pattern(final long bytes, final int seed)
    {
        final MemorySegment s = arena.allocate(bytes, 8);
        for (long i = 0; i < bytes; i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)(i * seed + seed));
        }
        return s;
    }

    private static void check(final String what, final long expected, final long actual)
    {
        if (expected != actual)
        {
            throw new AssertionError(what + ": old value " + actual + ", expected " + expected);
        }
    }
}
