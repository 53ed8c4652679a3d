package io.pinmx.bench;

import io.pinmx.job.Job;

/**
 * IMB PingPing: ranks 0 and 1 send to each other at the same time and each waits for both its send and
 * its receive; t is one such step and Mbytes/sec is bytes / t. Ranks beyond 1 wait.
 */
public final class PingPing extends ImbBenchmark
{
    public PingPing()
    {
        super(new Facts("PingPing", 2, TableLayout.IMB_TIME, Participants.TWO, 1, 1));
    }

    public static void main(final String[] args)
    {
        BenchmarkRun.runAndExit(new PingPing(), args);
    }

    @Override
    void loop(final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int repetitions)
    {
        final int peer = 1 - job.rank();
        for (int i = 0; i < repetitions; i++)
        {
            transport.postSend(peer, buffers.send, bytes);
            transport.postRecv(peer, buffers.recvLeft, bytes);
            transport.awaitPosted();
        }
    }
}
