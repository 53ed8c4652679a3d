package io.pinmx.bench.osc;

import io.pinmx.rma.AccumulateScale;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaMutexes;

import java.lang.foreign.MemorySegment;

/**
 * What rank 0 of a one-sided benchmark works with: the job's allocation (rank 1's slice is the target), a local
 * buffer of the same size, rank 1's mutex and views of the local buffer made before anything is timed, so a timed
 * loop allocates nothing.
 */
final class Origin
{
    static final int TARGET = 1;
    private static final AccumulateScale ONE = AccumulateScale.ofDouble(1.0);

    private final Rma rma;
    private final RmaAllocation slices;
    private final RmaMutexes mutexes;
    private final MemorySegment local;
    /** views[k]: the first 2^k bytes of the local buffer. */
    private final MemorySegment[] views;

    Origin(final Rma rma, final RmaAllocation slices, final RmaMutexes mutexes, final MemorySegment local)
    {
        this.rma = rma;
        this.slices = slices;
        this.mutexes = mutexes;
        this.local = local;
        this.views = new MemorySegment[Long.SIZE - Long.numberOfLeadingZeros(local.byteSize())];
        for (int k = 0; k < views.length; k++)
        {
            views[k] = local.asSlice(0, 1L << k);
        }
    }

    Rma rma()
    {
        return rma;
    }

    RmaAllocation slices()
    {
        return slices;
    }

    MemorySegment local()
    {
        return local;
    }

    /** @return the first {@code bytes} (a power of two) of the local buffer. */
    MemorySegment view(final long bytes)
    {
        return views[Long.numberOfTrailingZeros(bytes)];
    }

    void perform(final OscOp op, final MemorySegment buffer)
    {
        switch (op)
        {
            case PUT ->
            {
                rma.put(buffer, slices, TARGET, 0);
                rma.fence(TARGET);
            }
            case GET -> rma.get(slices, TARGET, 0, buffer);
            case ACC ->
            {
                rma.acc(ONE, buffer, slices, TARGET, 0);
                rma.fence(TARGET);
            }
            case FETCH_ADD -> rma.atomics().fetchAndAddLong(slices, TARGET, 0, 1);
            case SWAP -> rma.atomics().swapLong(slices, TARGET, 0, 1);
            case LOCK ->
            {
                mutexes.lock(0, TARGET);
                mutexes.unlock(0, TARGET);
            }
        }
    }

    static AccumulateScale one()
    {
        return ONE;
    }
}
