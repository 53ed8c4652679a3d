package io.pinmx.bench;

import io.pinmx.job.Job;

/**
 * IMB PingPong: rank 0 sends to rank 1, which sends the message back; t is half the round trip and
 * Mbytes/sec is bytes / t. Ranks beyond 1 wait.
 */
public final class PingPong extends ImbBenchmark
{
    public PingPong()
    {
        super(new Facts("PingPong", 2, TableLayout.IMB_TIME, Participants.TWO, 2, 1));
    }

    public static void main(final String[] args)
    {
        BenchmarkRun.runAndExit(new PingPong(), args);
    }

    @Override
    void loop(final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int repetitions)
    {
        if (0 == job.rank())
        {
            for (int i = 0; i < repetitions; i++)
            {
                transport.send(1, buffers.send, bytes);
                transport.recv(1, buffers.recvLeft, bytes);
            }
        }
        else
        {
            for (int i = 0; i < repetitions; i++)
            {
                transport.recv(0, buffers.recvLeft, bytes);
                transport.send(0, buffers.send, bytes);
            }
        }
    }
}
