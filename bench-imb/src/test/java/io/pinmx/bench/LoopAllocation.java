package io.pinmx.bench;

import io.pinmx.job.Job;

/**
 * What PingPong's and PingPing's timed loops allocate on the calling thread for one message size once warm, pass by
 * pass ({@link PassAllocation}), for the allocation tests. Both ranks run every pass to stay in step.
 */
final class LoopAllocation
{
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
     * @return null if no steady allocation showed in the measured passes of both loops, otherwise what showed.
     */
    String steadyAllocation(final int bytes, final int repetitions)
    {
        return PassAllocation.steadyAllocation(PassAllocation.measure(() ->
        {
            pingPong.loop(transport, job, buffers, bytes, repetitions);
            pingPing.loop(transport, job, buffers, bytes, repetitions);
        }, job::barrier));
    }
}
