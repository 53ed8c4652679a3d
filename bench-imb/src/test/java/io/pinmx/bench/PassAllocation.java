package io.pinmx.bench;

import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * What a repeated piece of work allocates on the calling thread, pass by pass once warm, and whether that is a
 * steady allocation.
 * <p>
 * Warm means: passes until {@link #QUIET_WARM_PASSES} in a row allocated nothing on every rank (at most
 * {@link #MAX_WARM_PASSES}): C2 compiles and deoptimisations go on for a while after the first passes, each
 * re-materialising a few scalar-replaced objects (56-416 B in a pass: seen in the first 3 passes after 3 warm-up
 * passes at 8 B, and in 2 of 16 passes after a single quiet one; after the endpoint library was split into more
 * classes, 72-312 B in 2-4 of 16 passes after 3 quiet ones, in 2 of 3 runs on an idle host, and none in 3 of 3
 * runs after 8 quiet ones; after small sends began to complete from pooled copies, 200-312 B in 2 of 16 passes after 8
 * quiet ones, in 2 of 9 runs, and in 1 of 8 after 16 quiet ones). A recording with TLABs off (every allocation an
 * event with its stack) showed what those are: a String and its byte[] re-materialised where compiled code of the
 * message path took an uncommon trap late (frames Puller.hasActivePulls, DatagramChannelImpl.receive), i.e. the first
 * visit of a rare branch such as a park or a doorbell. Then every one of {@link #MEASURED_PASSES} passes counts: an
 * allocation every few thousand messages shows in most of them, while late one-off JIT events show in
 * {@link #ONE_OFF_PASSES} passes at most, and small. Steady therefore means: any measured pass above
 * {@link #ONE_OFF_BYTES}, or more than {@link #ONE_OFF_PASSES} measured passes allocating at all.
 */
final class PassAllocation
{
    static final int QUIET_WARM_PASSES = 16;
    static final int MAX_WARM_PASSES = 160;
    static final int MEASURED_PASSES = 16;
    /** The most a one-off JIT event may allocate in a pass. */
    static final long ONE_OFF_BYTES = 512;
    /** The most measured passes one-off JIT events may touch. */
    static final int ONE_OFF_PASSES = 2;

    private static final ThreadMXBean THREADS = (ThreadMXBean)ManagementFactory.getThreadMXBean();

    /** Whether a warm-up pass allocated nothing on every rank; every rank calls it after every warm-up pass. */
    @FunctionalInterface
    interface QuietEverywhere
    {
        boolean quietEverywhere(boolean quietHere);
    }

    private PassAllocation()
    {
    }

    /**
     * Warms up, then runs {@code pass} {@link #MEASURED_PASSES} times measured, each measured pass between two runs of
     * {@code fence} (ranks stay in step; its own allocation is not counted).
     *
     * @return bytes allocated by the calling thread in each measured pass.
     */
    static long[] measure(final Runnable pass, final Runnable fence, final QuietEverywhere quiet)
    {
        int quietInARow = 0;
        for (int warm = 0; warm < MAX_WARM_PASSES && quietInARow < QUIET_WARM_PASSES; warm++)
        {
            quietInARow = quiet.quietEverywhere(0 == allocatedBy(pass)) ? quietInARow + 1 : 0;
        }
        final long[] allocated = new long[MEASURED_PASSES];
        for (int i = 0; i < MEASURED_PASSES; i++)
        {
            fence.run();
            allocated[i] = allocatedBy(pass);
            fence.run();
        }
        return allocated;
    }

    private static long allocatedBy(final Runnable pass)
    {
        final long before = THREADS.getCurrentThreadAllocatedBytes();
        pass.run();
        return THREADS.getCurrentThreadAllocatedBytes() - before;
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
        return allocating > ONE_OFF_PASSES ?
            allocating + " of " + passes.length + " passes allocated; bytes per pass " + Arrays.toString(passes) : null;
    }
}
