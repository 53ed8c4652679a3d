package io.pinmx.bench;

import io.pinmx.job.Job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Untimed warm-up of a transport before its first timed size: passes over every size of the run until, on every
 * rank, the JIT compiler threads used less than {@link #QUIET_COMPILER_PERCENT} % of a window of at least
 * {@link #QUIET_WINDOW_NS} (or {@link #MAX_WARMUP_NS} has passed).
 * <p>
 * Why every size and not only a fixed count of the smallest: each protocol (tiny, small, medium, rendezvous, and
 * whether a message arrives before or after its receive is posted) runs code the smallest size never reaches; the
 * first timed use of such a path hits an uncommon trap, runs in the profiling tier, and is compiled while the size
 * is timed. Why measure the compiler threads' CPU time (from /proc/self/task/TID/schedstat, in ns): on 2 cores
 * with one spinning rank per core, a C2 compile takes a core from a rank in whole scheduler slices, which
 * multiplies a timed exchange's time, and the JVM's total compilation time only grows when a compile ends, so a
 * short pass during a long compile would look quiet. The ranks decide together (an
 * all-gather per pass), so every rank runs the same exchanges. The one-sided benchmarks ({@code osc.OscBench}) wait
 * for the same quiet with passes of their own ({@link #untilQuiet}).
 */
public final class JitWarmUp
{
    /** Bytes moved per size and pass (capped by {@link #PASS_MAX_REPETITIONS}). */
    static final long PASS_VOLUME_BYTES = 8L << 20;
    static final int PASS_MAX_REPETITIONS = 200;
    static final long QUIET_WINDOW_NS = 200_000_000L;
    static final int QUIET_COMPILER_PERCENT = 1;
    static final long MAX_WARMUP_NS = 30_000_000_000L;

    private static final Path TASKS = Path.of("/proc/self/task");

    private JitWarmUp()
    {
    }

    /** What a warm-up did, for the table header. */
    public record Outcome(int passes, long elapsedNs, boolean quiet)
    {
        String describe()
        {
            return passes + " untimed pass(es) over every size in " + elapsedNs / 1_000_000 + " ms, " + (quiet ?
                "until the JIT compiler threads of every rank used < " + QUIET_COMPILER_PERCENT + " % of " +
                    QUIET_WINDOW_NS / 1_000_000 + " ms" :
                "stopped after " + MAX_WARMUP_NS / 1_000_000_000 + " s with the JIT still compiling");
        }
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
    static Outcome run(
        final Benchmark benchmark, final Transport transport, final Job job, final MessageBuffers buffers,
        final int[] sizes)
    {
        final long startNs = System.nanoTime();
        benchmark.warmUp(transport, job, buffers, sizes[1], Benchmark.JIT_WARMUP_REPETITIONS);
        return untilQuiet(job, startNs, () ->
        {
            for (final int bytes : sizes)
            {
                benchmark.warmUp(transport, job, buffers, bytes, passRepetitions(bytes));
            }
        });
    }

    /**
     * Runs {@code pass} (an untimed pass over what is about to be timed) until the JIT compiler threads of every rank
     * used less than {@link #QUIET_COMPILER_PERCENT} of a window of at least {@link #QUIET_WINDOW_NS}, or
     * {@link #MAX_WARMUP_NS} after {@code startNs}. All ranks call it together, each with its part of the pass.
     */
    public static Outcome untilQuiet(final Job job, final long startNs, final Runnable pass)
    {
        return untilQuiet(job, startNs, pass, System::nanoTime, JitWarmUp::compilerCpuNs, MAX_WARMUP_NS);
    }

    /**
     * {@link #untilQuiet(Job, long, Runnable)} with its clocks given: {@code nanoTime} for the windows and the limit,
     * {@code compilerCpuNs} for the compiler threads' CPU time (negative: unknown).
     */
    static Outcome untilQuiet(final Job job, final long startNs, final Runnable pass, final LongSupplier nanoTime,
        final LongSupplier compilerCpuNs, final long maxWarmupNs)
    {
        long windowStartNs = nanoTime.getAsLong();
        long windowCompilerNs = compilerCpuNs.getAsLong();
        int passes = 0;
        while (true)
        {
            pass.run();
            passes++;
            final long nowNs = nanoTime.getAsLong();
            final long compilerNs = compilerCpuNs.getAsLong();
            final long windowNs = nowNs - windowStartNs;
            // A compiler thread that exited takes its time with it: a shrinking total starts a new window too.
            final boolean compiled = compilerNs < 0 || windowCompilerNs < 0 || compilerNs < windowCompilerNs ||
                (compilerNs - windowCompilerNs) * 100 >= windowNs * QUIET_COMPILER_PERCENT;
            final boolean windowLongEnough = windowNs >= QUIET_WINDOW_NS;
            final boolean outOfTime = nowNs - startNs > maxWarmupNs;
            final List<byte[]> votes = job.allGather(new byte[] {
                (byte)(compiled ? 1 : 0), (byte)(windowLongEnough ? 1 : 0), (byte)(outOfTime ? 1 : 0)});
            boolean anyCompiled = false;
            boolean allLongEnough = true;
            boolean anyOutOfTime = false;
            for (final byte[] vote : votes)
            {
                anyCompiled |= 0 != vote[0];
                allLongEnough &= 0 != vote[1];
                anyOutOfTime |= 0 != vote[2];
            }
            if (!anyCompiled && allLongEnough)
            {
                return new Outcome(passes, nanoTime.getAsLong() - startNs, true);
            }
            if (anyOutOfTime)
            {
                return new Outcome(passes, nanoTime.getAsLong() - startNs, false);
            }
            if (anyCompiled)
            {
                windowStartNs = nanoTime.getAsLong();
                windowCompilerNs = compilerCpuNs.getAsLong();
            }
        }
    }

    /**
     * @return nanoseconds the JVM's JIT compiler threads ("C1 CompilerThre...", "C2 CompilerThre...") have run so
     * far, or -1 when /proc cannot tell (then the JIT never counts as quiet and the warm-up runs to its limit).
     */
    static long compilerCpuNs()
    {
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS))
        {
            for (final Path task : tasks)
            {
                try
                {
                    final String name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII);
                    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler"))
                    {
                        final String schedstat = Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII);
                        total += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                    }
                }
                catch (final IOException ex)
                {
                    // The thread ended between listing and reading: it runs no more.
                }
            }
            return total;
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }
}
