package io.pinmx.bench;

/**
 * IMB PingPong: rank 0 sends to rank 1, which sends the message back; t is half the round trip and
 * Mbytes/sec is bytes / t. Ranks beyond 1 wait.
 */
public final class PingPong extends ImbBenchmark
{
    public static void main(final String[] args)
    {
        System.exit(BenchmarkRun.run(new PingPong(), args, System.getenv(), System.out, System.err));
    }

    @Override
    public String name()
    {
        return "PingPong";
    }

    @Override
    public int minRanks()
    {
        return 2;
    }

    @Override
    public TableLayout layout()
    {
        return TableLayout.IMB_TIME;
    }

    @Override
    int participants(final Job job)
    {
        return 2;
    }

    @Override
    int timesPerRepetition()
    {
        return 2;
    }

    @Override
    int throughputFactor()
    {
        return 1;
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
