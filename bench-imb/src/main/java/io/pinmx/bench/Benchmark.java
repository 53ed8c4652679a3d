package io.pinmx.bench;

import io.pinmx.job.Job;

/**
 * One benchmark program: how it lays out its table and how it measures one message size.
 */
public interface Benchmark
{
    /**
     * Untimed iterations before each size, as IMB's N_WARMUP: they also make each buffer's first use happen
     * outside the timed loop.
     */
    int WARMUP_ITERATIONS = 2;

    /**
     * Repetitions of the smallest non-empty message run once per transport before its first size, so that
     * the JIT has compiled the benchmark and transport code before anything is timed; IMB's two warm-up
     * iterations per size assume a compiled program.
     */
    int JIT_WARMUP_REPETITIONS = 5_000;

    String name();

    int minRanks();

    TableLayout layout();

    /**
     * Runs the benchmark's exchange untimed on every rank of the job; all ranks call it together.
     */
    void warmUp(Transport transport, Job job, MessageBuffers buffers, int bytes, int repetitions);

    /**
     * @return the repetitions (iterations) for this size under these options.
     */
    int repetitions(BenchOptions options, int bytes);

    /**
     * Measures one size on every rank of the job; all ranks call it together.
     *
     * @return the measurement on rank 0, null on the other ranks.
     */
    Measurement measure(Transport transport, Job job, MessageBuffers buffers, BenchOptions options, int bytes);

    /**
     * @return min, max and average of the times of the first {@code participants} ranks (those that took part).
     */
    static double[] spread(final double[] secondsByRank, final int participants)
    {
        double min = Double.MAX_VALUE;
        double max = 0;
        double sum = 0;
        for (int r = 0; r < participants; r++)
        {
            min = Math.min(min, secondsByRank[r]);
            max = Math.max(max, secondsByRank[r]);
            sum += secondsByRank[r];
        }
        return new double[] {min, max, sum / participants};
    }
}
