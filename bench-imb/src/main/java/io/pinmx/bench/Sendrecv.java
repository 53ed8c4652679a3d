package io.pinmx.bench;

import io.pinmx.job.Job;

/**
 * IMB Sendrecv: the ranks form a ring and each sends to its right neighbour while receiving from its left;
 * t_min, t_max and t_avg are over the ranks and Mbytes/sec is 2 * bytes / t_max (a message each way).
 */
public final class Sendrecv extends ImbBenchmark
{
    public Sendrecv()
    {
        super(new Facts("Sendrecv", 2, TableLayout.IMB_MIN_MAX_AVG, Participants.ALL, 1, 2));
    }

    public static void main(final String[] args)
    {
        BenchmarkRun.runAndExit(new Sendrecv(), args);
    }

    @Override
    void loop(final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int repetitions)
    {
        final int right = (job.rank() + 1) % job.size();
        final int left = (job.rank() + job.size() - 1) % job.size();
        for (int i = 0; i < repetitions; i++)
        {
            transport.postSend(right, buffers.send, bytes);
            transport.postRecv(left, buffers.recvLeft, bytes);
            transport.awaitPosted();
        }
    }
}
