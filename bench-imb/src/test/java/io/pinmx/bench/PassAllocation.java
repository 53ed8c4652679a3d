package io.pinmx.bench;

import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * What a repeated piece of work allocates on the calling thread, pass by pass once warm, and whether that is a
 * steady allocation. Every measured pass counts: an allocation every few thousand messages shows in most passes,
 * while the JIT's noise (a deoptimisation re-materialising a few scalar-replaced objects) shows in one pass at
 * most, and small. Steady therefore means: any pass above {@link #ONE_OFF_BYTES}, or more than one pass
 * allocating at all.
 */
final class PassAllocation
{
    static final int WARM_PASSES = 3;
    static final int MEASURED_PASSES = 8;
    /** The most a one-off JIT event may allocate in a pass. */
    static final long ONE_OFF_BYTES = 512;

    private static final ThreadMXBean THREADS = (ThreadMXBean)ManagementFactory.getThreadMXBean();

    private PassAllocation()
    {
    }

    /**
     * Runs {@code pass} {@link #WARM_PASSES} times, then {@link #MEASURED_PASSES} times measured, each measured pass
     * between two runs of {@code fence} (ranks stay in step; its own allocation is not counted).
     *
     * @return bytes allocated by the calling thread in each measured pass.
     */
    static long[] measure(final Runnable pass, final Runnable fence)
    {
        for (int warm = 0; warm < WARM_PASSES; warm++)
        {
            pass.run();
        }
        final long[] allocated = new long[MEASURED_PASSES];
        for (int i = 0; i < MEASURED_PASSES; i++)
        {
            fence.run();
            final long before = THREADS.getCurrentThreadAllocatedBytes();
            pass.run();
            allocated[i] = THREADS.getCurrentThreadAllocatedBytes() - before;
            fence.run();
        }
        return allocated;
    }

    /**
     * @return null when the passes show no steady allocation, otherwise what they show.
     */
    static String steadyAllocation(final long[] passes)
    {
        int allocating = 0;
        for (final long bytes : passes)
        {
            if (bytes > ONE_OFF_BYTES)
            {
                return "a pass allocated " + bytes + " B (> " + ONE_OFF_BYTES + " B); bytes per pass " +
                    Arrays.toString(passes);
            }
            if (bytes > 0)
            {
                allocating++;
            }
        }
        return allocating > 1 ?
            allocating + " of " + passes.length + " passes allocated; bytes per pass " + Arrays.toString(passes) : null;
    }
}
