package io.pinmx.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Untimed warm-up of a transport before its first timed size: rounds of every size of the run until no rank's JIT
 * compiled anything for {@link #QUIET_ROUNDS} rounds in a row (or {@link #MAX_ROUNDS} rounds, or
 * {@link #MAX_WARMUP_NS}, have passed).
 * <p>
 * Why rounds of every size and not only a fixed count of the smallest: each protocol (tiny, small, medium,
 * rendezvous, and whether a message arrives before or after its receive is posted) runs code the smallest size
 * never reaches; the first timed use of such a path hits an uncommon trap, runs interpreted or in the profiling
 * tier, and is compiled while the size is timed. On 2 cores with one spinning rank per core the compiler thread
 * then takes a core from a rank for milliseconds: 1000 repetitions of a 2 us exchange measured 10-80 us.
 * The ranks decide together (an all-gather per round), so every rank runs the same exchanges.
 */
final class JitWarmUp
{
    /** Bytes moved per size and round (capped by {@link #ROUND_MAX_REPETITIONS}). */
    static final long ROUND_VOLUME_BYTES = 8L << 20;
    static final int ROUND_MAX_REPETITIONS = 200;
    static final int QUIET_ROUNDS = 2;
    static final int MAX_ROUNDS = 40;
    static final long MAX_WARMUP_NS = 20_000_000_000L;

    private JitWarmUp()
    {
    }

    /**
     * @return repetitions of one size in one round.
     */
    static int roundRepetitions(final int bytes)
    {
        return bytes <= 0 ? ROUND_MAX_REPETITIONS : (int)Math.max(1, Math.min(ROUND_MAX_REPETITIONS, ROUND_VOLUME_BYTES / bytes));
    }

    /**
     * Runs {@link Benchmark#JIT_WARMUP_REPETITIONS} of the smallest non-empty size ({@code sizes[1]}: sizes are
     * 0 and then at least one power of two), then rounds of every size until the JIT is quiet on every rank. All
     * ranks call it together.
     *
     * @return the rounds run after the first warm-up.
     */
    static int run(final Benchmark benchmark, final Transport transport, final Job job, final MessageBuffers buffers,
        final int[] sizes)
    {
        benchmark.warmUp(transport, job, buffers, sizes[1], Benchmark.JIT_WARMUP_REPETITIONS);
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        final boolean monitored = null != jit && jit.isCompilationTimeMonitoringSupported();
        final long startNs = System.nanoTime();
        int quiet = 0;
        int rounds = 0;
        while (quiet < QUIET_ROUNDS && rounds < MAX_ROUNDS)
        {
            final long compiledMsBefore = monitored ? jit.getTotalCompilationTime() : 0;
            for (final int bytes : sizes)
            {
                benchmark.warmUp(transport, job, buffers, bytes, roundRepetitions(bytes));
            }
            rounds++;
            final boolean compiled = !monitored || jit.getTotalCompilationTime() != compiledMsBefore;
            final boolean outOfTime = System.nanoTime() - startNs > MAX_WARMUP_NS;
            final List<byte[]> votes = job.allGather(new byte[] {(byte)(compiled ? 1 : 0), (byte)(outOfTime ? 1 : 0)});
            boolean anyCompiled = false;
            boolean anyOutOfTime = false;
            for (final byte[] vote : votes)
            {
                anyCompiled |= 0 != vote[0];
                anyOutOfTime |= 0 != vote[1];
            }
            if (anyOutOfTime)
            {
                break;
            }
            quiet = anyCompiled ? 0 : quiet + 1;
        }
        return rounds;
    }
}
