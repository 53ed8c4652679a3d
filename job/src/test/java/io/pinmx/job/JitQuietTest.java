package io.pinmx.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntToLongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitQuietTest
{
    private static final long PASS_NS = 50_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void compilerThreadsCpuTimeIsReadAndGrowsWhileTheJitWorks()
    {
        final long before = JitQuiet.compilerCpuNs();
        assertTrue(before > 0, "this JVM's C1/C2 compiler threads have run: " + before + " ns");
        long sink = 0;
        for (int i = 0; i < 200_000; i++)
        {
            sink += Integer.toString(i).hashCode();
        }
        assertTrue(JitQuiet.compilerCpuNs() >= before, "compiler CPU time never shrinks while its threads live (" +
            sink + ")");
    }

    @Test
    void theWarmUpEndsAfterAWholeQuietWindowFollowingTheLastPassThatCompiled()
    {
        // passes 1-3 compile for 10 ms of their 50 (20 %), then 0.4 ms per pass (0.8 %, under the 1 % bar): the
        // window restarts after pass 3 at 150 ms and is long enough (200 ms) after pass 7
        final JitQuiet.Outcome outcome = alone(pass -> pass <= 3 ? 10 * MS * pass : 30 * MS + 400_000L * (pass - 3),
            JitQuiet.MAX_WARMUP_NS);
        assertEquals(new JitQuiet.Outcome(7, 7 * PASS_NS, true), outcome);
    }

    @Test
    void aJitBusyForOnePercentOfEveryWindowIsNeverQuietAndTheWarmUpStopsAtItsLimit()
    {
        final JitQuiet.Outcome outcome = alone(pass -> 500_000L * pass, 1_000 * MS);
        assertEquals(new JitQuiet.Outcome(21, 21 * PASS_NS, false), outcome, "first pass past 1 s: the 21st");
        final String described = outcome.describe("every size");
        assertTrue(described.contains("with the JIT still compiling"), described);
    }

    @Test
    void compilerTimeThatCannotBeReadNeverCountsAsQuiet()
    {
        assertEquals(new JitQuiet.Outcome(21, 21 * PASS_NS, false), alone(pass -> -1, 1_000 * MS));
    }

    @Test
    void aShrinkingTotalStartsANewWindowAsACompileWould()
    {
        // a compiler thread exited after pass 2 (its 40 ms go with it): the window restarts at 100 ms; counted from
        // the start, pass 4 would have ended the warm-up
        final JitQuiet.Outcome outcome = alone(pass -> pass < 2 ? 100 * MS : 60 * MS, JitQuiet.MAX_WARMUP_NS);
        assertEquals(new JitQuiet.Outcome(6, 6 * PASS_NS, true), outcome);
    }

    @Test
    void everyRankPassesUntilTheBusiestRankIsQuietSoAllRunTheSameExchanges() throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try
        {
            // rank 0 compiles in passes 1-2, rank 1 in passes 1-5: both restart their window after pass 5 (250 ms)
            final Future<JitQuiet.Outcome> rankZero =
                pool.submit(() -> rankOfTwo(0, pass -> 10 * MS * Math.min(pass, 2)));
            final Future<JitQuiet.Outcome> rankOne =
                pool.submit(() -> rankOfTwo(1, pass -> 10 * MS * Math.min(pass, 5)));
            final JitQuiet.Outcome expected = new JitQuiet.Outcome(9, 9 * PASS_NS, true);
            assertEquals(expected, rankZero.get(30, TimeUnit.SECONDS));
            assertEquals(expected, rankOne.get(30, TimeUnit.SECONDS));
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private JitQuiet.Outcome rankOfTwo(final int rank, final IntToLongFunction compilerNsAfterPass)
    {
        try (Job job = Job.join(Map.of("PINMX_RANK", Integer.toString(rank), "PINMX_SIZE", "2",
            "PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap"), "PINMX_BOOTSTRAP_TIMEOUT_MS", "20000")))
        {
            return warmUp(job, compilerNsAfterPass, JitQuiet.MAX_WARMUP_NS);
        }
    }

    private static JitQuiet.Outcome alone(final IntToLongFunction compilerNsAfterPass, final long maxWarmupNs)
    {
        try (Job job = Job.join(Map.of("PINMX_RANK", "0", "PINMX_SIZE", "1")))
        {
            return warmUp(job, compilerNsAfterPass, maxWarmupNs);
        }
    }

    /**
     * A warm-up on a clock that only passes moves (each takes {@link #PASS_NS}), with the compiler threads' CPU time
     * given per passes done.
     */
    private static JitQuiet.Outcome warmUp(
        final Job job, final IntToLongFunction compilerNsAfterPass, final long maxWarmupNs)
    {
        final int[] passes = new int[1];
        return JitQuiet.untilQuiet(JitQuiet.votesOf(job), 0, () -> passes[0]++, () -> passes[0] * PASS_NS,
            () -> compilerNsAfterPass.applyAsLong(passes[0]), maxWarmupNs);
    }
}
