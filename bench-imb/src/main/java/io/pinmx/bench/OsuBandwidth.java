package io.pinmx.bench;

import io.pinmx.job.Job;

/**
 * OSU osu_bw: rank 0 posts a window of sends (64 by default), rank 1 a window of receives, then rank 1
 * answers with a 4-byte ack; bandwidth is window * bytes per step over the timed steps (100 up to 8 KiB,
 * 20 above, after 10 or 2 untimed ones; {@code -i n} sets the timed count, {@code -x n} the untimed one).
 */
public final class OsuBandwidth extends FixedBenchmark
{
    private static final int SMALL_ITERATIONS = 100;
    private static final int LARGE_ITERATIONS = 20;
    private static final int SMALL_SKIP = 10;
    private static final int LARGE_SKIP = 2;
    private static final int ACK_BYTES = 4;

    public OsuBandwidth()
    {
        super("osu_bw", 2, TableLayout.OSU_BANDWIDTH);
    }

    public static void main(final String[] args)
    {
        BenchmarkRun.runAndExit(new OsuBandwidth(), args);
    }

    @Override
    public void warmUp(
        final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int repetitions)
    {
        exchange(transport, job, buffers, bytes, BenchOptions.OSU_DEFAULT_WINDOW,
            Math.max(1, repetitions / BenchOptions.OSU_DEFAULT_WINDOW));
        job.barrier();
    }

    @Override
    public int repetitions(final BenchOptions options, final int bytes)
    {
        if (options.iterGiven())
        {
            return options.repetitions().perSample();
        }
        return bytes > OsuLatency.LARGE_MESSAGE_BYTES ? LARGE_ITERATIONS : SMALL_ITERATIONS;
    }

    @Override
    public Measurement measure(
        final Transport transport, final Job job, final MessageBuffers buffers, final BenchOptions options, final int bytes)
    {
        final int iterations = repetitions(options, bytes);
        final int window = options.window();
        job.barrier();
        exchange(transport, job, buffers, bytes, window, options.skip() >= 0 ? options.skip() :
            bytes > OsuLatency.LARGE_MESSAGE_BYTES ? LARGE_SKIP : SMALL_SKIP);
        final long startNs = System.nanoTime();
        exchange(transport, job, buffers, bytes, window, iterations);
        final double usec = (System.nanoTime() - startNs) / 1000.0;
        return 0 == job.rank() ?
            Measurement.ofTime(bytes, iterations, Double.NaN, (double)bytes * window * iterations / usec) : null;
    }

    /**
     * {@code count} steps of a window of messages from rank 0 to rank 1 answered by an ack.
     */
    private static void exchange(
        final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int window,
        final int count)
    {
        if (0 == job.rank())
        {
            for (int i = 0; i < count; i++)
            {
                for (int w = 0; w < window; w++)
                {
                    transport.postSend(1, buffers.send, bytes);
                }
                transport.awaitPosted();
                transport.recv(1, buffers.recvRight, ACK_BYTES);
            }
        }
        else if (1 == job.rank())
        {
            for (int i = 0; i < count; i++)
            {
                for (int w = 0; w < window; w++)
                {
                    transport.postRecv(0, buffers.recvLeft, bytes);
                }
                transport.awaitPosted();
                transport.send(0, buffers.send, ACK_BYTES);
            }
        }
    }
}
