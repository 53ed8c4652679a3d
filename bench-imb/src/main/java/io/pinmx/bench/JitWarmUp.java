package io.pinmx.bench;

import io.pinmx.job.JitQuiet;
import io.pinmx.job.Job;

/**
 * Untimed warm-up of a transport before its first timed size: passes over every size of the run until the JIT is
 * quiet on every rank ({@link JitQuiet}).
 * <p>
 * Why every size and not only a fixed count of the smallest: each protocol (tiny, small, medium, rendezvous, and
 * whether a message arrives before or after its receive is posted) runs code the smallest size never reaches; the
 * first timed use of such a path hits an uncommon trap, runs in the profiling tier, and is compiled while the size
 * is timed. The one-sided benchmarks ({@code osc.OscBench}) wait for the same quiet with passes of their own.
 */
public final class JitWarmUp
{
    /** Bytes moved per size and pass (capped by {@link #PASS_MAX_REPETITIONS}). */
    static final long PASS_VOLUME_BYTES = 8L << 20;
    static final int PASS_MAX_REPETITIONS = 200;

    private JitWarmUp()
    {
    }

    /**
     * @return repetitions of one size in one pass.
     */
    static int passRepetitions(final int bytes)
    {
        return bytes <= 0 ? PASS_MAX_REPETITIONS :
            (int)Math.max(1, Math.min(PASS_MAX_REPETITIONS, PASS_VOLUME_BYTES / bytes));
    }

    /**
     * Runs {@link Benchmark#JIT_WARMUP_REPETITIONS} of the smallest non-empty size ({@code sizes[1]}: sizes are
     * 0 and then at least one power of two), then passes over every size until the JIT is quiet on every rank.
     * All ranks call it together.
     */
    static JitQuiet.Outcome run(
        final Benchmark benchmark, final Transport transport, final Job job, final MessageBuffers buffers,
        final int[] sizes)
    {
        final long startNs = System.nanoTime();
        benchmark.warmUp(transport, job, buffers, sizes[1], Benchmark.JIT_WARMUP_REPETITIONS);
        return JitQuiet.untilQuiet(JitQuiet.votesOf(job), startNs, () ->
        {
            for (final int bytes : sizes)
            {
                benchmark.warmUp(transport, job, buffers, bytes, passRepetitions(bytes));
            }
        });
    }
}
