package io.pinmx.bench;

/**
 * IMB Exchange: the ranks form a ring and each sends to both neighbours and receives from both;
 * t_min, t_max and t_avg are over the ranks and Mbytes/sec is 4 * bytes / t_max (four messages).
 */
public final class Exchange extends ImbBenchmark
{
    public static void main(final String[] args)
    {
        System.exit(BenchmarkRun.run(new Exchange(), args, System.getenv(), System.out, System.err));
    }

    @Override
    public String name()
    {
        return "Exchange";
    }

    @Override
    public int minRanks()
    {
        return 2;
    }

    @Override
    public TableLayout layout()
    {
        return TableLayout.IMB_MIN_MAX_AVG;
    }

    @Override
    int participants(final Job job)
    {
        return job.size();
    }

    @Override
    int timesPerRepetition()
    {
        return 1;
    }

    @Override
    int throughputFactor()
    {
        return 4;
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
