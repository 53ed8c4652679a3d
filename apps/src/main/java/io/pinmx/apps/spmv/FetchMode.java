package io.pinmx.apps.spmv;

import io.pinmx.rma.IoVector;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaHandle;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * How a rank fetches the remote vector elements its rows need into its ghost buffer (ARMCI paper 6.2.2): one
 * blocking get per element, every element's non-blocking get on one aggregate handle completed together, or one
 * vector get per owning rank.
 */
public enum FetchMode
{
    PER_ELEMENT("per-element"),
    AGGREGATED("aggregated"),
    VECTOR("vector");

    private final String word;

    FetchMode(final String word)
    {
        this.word = word;
    }

    public String word()
    {
        return word;
    }

    /** @throws IllegalArgumentException naming the word and the known modes. */
    public static FetchMode named(final String word)
    {
        for (final FetchMode mode : values())
        {
            if (mode.word.equals(word))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("get mode '" + word + "' is not one of per-element, aggregated, vector");
    }

    void fetch(final Rma rma, final RmaAllocation x, final GhostPlan plan, final MemorySegment ghosts)
    {
        switch (this)
        {
            case PER_ELEMENT ->
            {
                for (int g = 0; g < plan.ghosts(); g++)
                {
                    rma.get(x, plan.ghostOwners[g], plan.ghostRemoteOffsets[g],
                        ghosts.asSlice((long)g * Double.BYTES, Double.BYTES));
                }
            }
            case AGGREGATED ->
            {
                final RmaHandle handle = rma.aggregateHandle();
                for (int g = 0; g < plan.ghosts(); g++)
                {
                    rma.nbGet(x, plan.ghostOwners[g], plan.ghostRemoteOffsets[g],
                        ghosts.asSlice((long)g * Double.BYTES, Double.BYTES), handle);
                }
                handle.await();
            }
            case VECTOR ->
            {
                for (int r = 0; r < plan.ownerStarts.length - 1; r++)
                {
                    final int from = plan.ownerStarts[r];
                    final int to = plan.ownerStarts[r + 1];
                    if (from == to)
                    {
                        continue;
                    }
                    final long[] local = new long[to - from];
                    for (int g = from; g < to; g++)
                    {
                        local[g - from] = (long)g * Double.BYTES;
                    }
                    rma.getVector(new IoVector[] {new IoVector(ghosts, local,
                        Arrays.copyOfRange(plan.ghostRemoteOffsets, from, to), Double.BYTES)}, x, r);
                }
            }
        }
    }
}
