package io.pinmx.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * A benchmark's untimed warm-up rule: passes over what is about to be timed until, on every rank, the JIT compiler
 * threads used less than {@link #QUIET_COMPILER_PERCENT} % of a window of at least {@link #QUIET_WINDOW_NS} (or
 * {@link #MAX_WARMUP_NS} has passed).
 * <p>
 * Why the compiler threads' CPU time (from /proc/self/task/TID/schedstat, in ns): on 2 cores with one rank per
 * core, a C2 compile takes a core from a rank in whole scheduler slices, which multiplies a timed exchange's time,
 * and the JVM's total compilation time only grows when a compile ends, so a short pass during a long compile would
 * look quiet. The ranks decide together (one {@link Votes} round per pass), so every rank runs the same exchanges:
 * a {@link Job}'s all-gather ({@link #votesOf}) or, in a program that only has its MPI library, a bitwise-or
 * allreduce.
 */
public final class JitQuiet
{
    public static final long QUIET_WINDOW_NS = 200_000_000L;
    public static final int QUIET_COMPILER_PERCENT = 1;
    public static final long MAX_WARMUP_NS = 30_000_000_000L;

    /** A rank's vote: its JIT compiled during the window. */
    private static final int COMPILED = 1;
    /** A rank's vote: its window is still shorter than {@link #QUIET_WINDOW_NS}. */
    private static final int WINDOW_SHORT = 2;
    /** A rank's vote: the warm-up has run longer than its limit. */
    private static final int OUT_OF_TIME = 4;

    private static final Path TASKS = Path.of("/proc/self/task");

    /** One round of the ranks' votes. */
    @FunctionalInterface
    public interface Votes
    {
        /** Every rank calls it together. @return the bitwise or of every rank's {@code mine}. */
        int orOfAll(int mine);
    }

    /** What a warm-up did. */
    public record Outcome(int passes, long elapsedNs, boolean quiet)
    {
        /** @param what what each pass went over, e.g. "every size". */
        public String describe(final String what)
        {
            return passes + " untimed pass(es) over " + what + " in " + elapsedNs / 1_000_000 + " ms, " + (quiet ?
                "until the JIT compiler threads of every rank used < " + QUIET_COMPILER_PERCENT + " % of " +
                    QUIET_WINDOW_NS / 1_000_000 + " ms" :
                "stopped after " + MAX_WARMUP_NS / 1_000_000_000 + " s with the JIT still compiling");
        }
    }

    private JitQuiet()
    {
    }

    /** The votes of a job's ranks, through its control plane's all-gather. */
    public static Votes votesOf(final Job job)
    {
        return mine ->
        {
            int all = 0;
            for (final byte[] vote : job.allGather(new byte[] {(byte)mine}))
            {
                all |= vote[0];
            }
            return all;
        };
    }

    /**
     * Runs {@code pass} until the JIT compiler threads of every rank used less than {@link #QUIET_COMPILER_PERCENT}
     * % of a window of at least {@link #QUIET_WINDOW_NS}, or {@link #MAX_WARMUP_NS} after {@code startNs}. All ranks
     * call it together, each with its part of the pass.
     */
    public static Outcome untilQuiet(final Votes votes, final long startNs, final Runnable pass)
    {
        return untilQuiet(votes, startNs, pass, System::nanoTime, JitQuiet::compilerCpuNs, MAX_WARMUP_NS);
    }

    /**
     * {@link #untilQuiet(Votes, long, Runnable)} with its clocks given: {@code nanoTime} for the windows and the
     * limit, {@code compilerCpuNs} for the compiler threads' CPU time (negative: unknown).
     */
    static Outcome untilQuiet(final Votes votes, final long startNs, final Runnable pass, final LongSupplier nanoTime,
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
            final int all = votes.orOfAll((compiled ? COMPILED : 0) |
                (windowNs < QUIET_WINDOW_NS ? WINDOW_SHORT : 0) | (nowNs - startNs > maxWarmupNs ? OUT_OF_TIME : 0));
            if (0 == (all & (COMPILED | WINDOW_SHORT)))
            {
                return new Outcome(passes, nanoTime.getAsLong() - startNs, true);
            }
            if (0 != (all & OUT_OF_TIME))
            {
                return new Outcome(passes, nanoTime.getAsLong() - startNs, false);
            }
            if (0 != (all & COMPILED))
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
    public static long compilerCpuNs()
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
