package io.pinmx.bench;

import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;

/**
 * What PingPong's and PingPing's timed loops allocate on the calling thread for one message size once warm, for
 * the allocation tests. A deoptimisation mid-pass can allocate a few bytes once; an allocation per message would
 * show in every pass, so the quietest of several passes is what counts. Both ranks run every pass to stay in step.
 */
final class LoopAllocation
{
    private static final int WARM_PASSES = 3;
    private static final int MEASURED_PASSES = 3;

    private final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
    private final PingPong pingPong = new PingPong();
    private final PingPing pingPing = new PingPing();
    private final Transport transport;
    private final Job job;
    private final MessageBuffers buffers;

    LoopAllocation(final Transport transport, final Job job, final MessageBuffers buffers)
    {
        this.transport = transport;
        this.job = job;
        this.buffers = buffers;
    }

    /**
     * @return bytes allocated by the quietest of the measured passes of both loops.
     */
    long quietestPass(final int bytes, final int repetitions)
    {
        for (int warm = 0; warm < WARM_PASSES; warm++)
        {
            loops(bytes, repetitions);
        }
        long quietest = Long.MAX_VALUE;
        for (int pass = 0; pass < MEASURED_PASSES; pass++)
        {
            job.barrier();
            final long before = threads.getCurrentThreadAllocatedBytes();
            loops(bytes, repetitions);
            quietest = Math.min(quietest, threads.getCurrentThreadAllocatedBytes() - before);
            job.barrier();
        }
        return quietest;
    }

    private void loops(final int bytes, final int repetitions)
    {
        pingPong.loop(transport, job, buffers, bytes, repetitions);
        pingPing.loop(transport, job, buffers, bytes, repetitions);
    }
}
