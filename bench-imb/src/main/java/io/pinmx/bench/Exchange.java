package io.pinmx.bench;

import io.pinmx.job.Job;

/**
 * IMB Exchange: the ranks form a ring and each sends to both neighbours and receives from both;
 * t_min, t_max and t_avg are over the ranks and Mbytes/sec is 4 * bytes / t_max (four messages).
 */
public final class Exchange extends ImbBenchmark
{
    public Exchange()
    {
        super(new Facts("Exchange", 2, TableLayout.IMB_MIN_MAX_AVG, Participants.ALL, 1, 4));
    }

    public static void main(final String[] args)
    {
        BenchmarkRun.runAndExit(new Exchange(), args);
    }

    @Override
    void loop(final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int repetitions)
    {
        final int right = (job.rank() + 1) % job.size();
        final int left = (job.rank() + job.size() - 1) % job.size();
        for (int i = 0; i < repetitions; i++)
        {
            transport.postSend(left, buffers.send, bytes);
            transport.postSend(right, buffers.send, bytes);
            transport.postRecv(left, buffers.recvLeft, bytes);
            transport.postRecv(right, buffers.recvRight, bytes);
            transport.awaitPosted();
        }
    }
}
