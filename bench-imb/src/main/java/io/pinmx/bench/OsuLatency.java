package io.pinmx.bench;

import io.pinmx.job.Job;

/**
 * OSU osu_latency: ping-pong between ranks 0 and 1 with OSU's iteration counts (10000 up to 8 KiB, 1000
 * above, after 100 or 10 untimed ones; {@code -i n} sets the timed count, {@code -x n} the untimed one); latency is half the round trip.
 */
public final class OsuLatency extends FixedBenchmark
{
    static final int LARGE_MESSAGE_BYTES = 8192;
    private static final int SMALL_ITERATIONS = 10_000;
    private static final int LARGE_ITERATIONS = 1_000;
    private static final int SMALL_SKIP = 100;
    private static final int LARGE_SKIP = 10;

    public OsuLatency()
    {
        super("osu_latency", 2, TableLayout.OSU_LATENCY);
    }

    public static void main(final String[] args)
    {
        BenchmarkRun.runAndExit(new OsuLatency(), args);
    }

    @Override
    public void warmUp(
        final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int repetitions)
    {
        exchange(transport, job, buffers, bytes, 0, repetitions);
        job.barrier();
    }

    @Override
    public int repetitions(final BenchOptions options, final int bytes)
    {
        if (options.iterGiven())
        {
            return options.repetitions().perSample();
        }
        return bytes > LARGE_MESSAGE_BYTES ? LARGE_ITERATIONS : SMALL_ITERATIONS;
    }

    @Override
    public Measurement measure(
        final Transport transport, final Job job, final MessageBuffers buffers, final BenchOptions options, final int bytes)
    {
        final int iterations = repetitions(options, bytes);
        job.barrier();
        exchange(transport, job, buffers, bytes, 0, options.skip() >= 0 ? options.skip() :
            bytes > LARGE_MESSAGE_BYTES ? LARGE_SKIP : SMALL_SKIP);
        final long startNs = System.nanoTime();
        exchange(transport, job, buffers, bytes, 0, iterations);
        final double usec = (System.nanoTime() - startNs) / 1000.0 / (2.0 * iterations);
        return 0 == job.rank() ? Measurement.ofTime(bytes, iterations, usec, Double.NaN) : null;
    }

    /**
     * Ping-pongs {@code count} times between ranks 0 and 1 (the window is unused).
     */
    private static void exchange(
        final Transport transport, final Job job, final MessageBuffers buffers, final int bytes, final int window,
        final int count)
    {
        if (0 == job.rank())
        {
            for (int i = 0; i < count; i++)
            {
                transport.send(1, buffers.send, bytes);
                transport.recv(1, buffers.recvLeft, bytes);
            }
        }
        else if (1 == job.rank())
        {
            for (int i = 0; i < count; i++)
            {
                transport.recv(0, buffers.recvLeft, bytes);
                transport.send(0, buffers.send, bytes);
            }
        }
    }
}
