package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NPB IS on the device through {@code bin/pinmx-run --mpj}: classes S and W with 2 and 4 ranks must pass NPB's
 * partial verification in every iteration and the full verification, and report NPB's lines and, with
 * {@code NPB_TIMERS=1}, every stage's slowest and fastest time and each rank's own; a number of ranks that is not a
 * power of two and an unknown class are refused by name.
 */
class IntegerSortTest
{
    /** MPJ programs start several JVMs each; under load a run takes minutes. */
    private static final long RUN_DEADLINE_S = 900;

    private static final String MAIN = "io.pinmx.mpj.npb.IntegerSort";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "class {0} on {1} ranks")
    @CsvSource({"S, 2, 65536", "S, 4, 65536", "W, 2, 1048576", "W, 4, 1048576"})
    void verifies(final String cls, final int ranks, final int keys) throws Exception
    {
        // Four JVMs on this shared 2-core host went silent for over the default 5 s under load (a peer given up).
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of("NPB_TIMERS", "1"),
            "-np", Integer.toString(ranks), "--peer-timeout", "30", "--mpj", MAIN, cls);
        assertEquals(0, run.exitStatus(), run.out() + run.err());
        assertReports(run.out(), "Class", cls);
        assertReports(run.out(), "Size", Integer.toString(keys));
        assertReports(run.out(), "Iterations", "10");
        assertReports(run.out(), "Total processes", Integer.toString(ranks));
        assertReports(run.out(), "Operation type", "keys ranked");
        assertReports(run.out(), "Verification", "SUCCESSFUL");
        assertTrue(run.out().lines().anyMatch(l -> l.matches(" Mop/s total +=\\s+[0-9]+\\.[0-9]{2}")), run.out());
        assertTrue(run.out().lines().noneMatch(l -> l.contains("Failed partial verification")), run.out());
        for (final String stage : new String[] {"computation", "Allreduce", "Alltoall of", "Alltoallv"})
        {
            assertTrue(run.out().lines().anyMatch(l -> l.startsWith(" " + stage) &&
                l.matches(".* [0-9]+\\.[0-9]{4} +[0-9]+\\.[0-9]{4}")), "no timer line for " + stage + " in\n" +
                run.out());
        }
        for (int r = 0; r < ranks; r++)
        {
            final String rankLine = " rank " + r + " \\(s\\): computation [0-9.]+ Allreduce [0-9.]+ Alltoall [0-9.]+ " +
                "Alltoallv [0-9.]+";
            assertTrue(run.out().lines().anyMatch(l -> l.matches(rankLine)), "no line for rank " + r + " in\n" +
                run.out());
        }
    }

    @Test
    void refusesRanksThatAreNotAPowerOfTwo() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "3", "--mpj", MAIN, "S");
        assertNotEquals(0, run.exitStatus());
        assertTrue(run.err().contains("power-of-two number of ranks") && run.err().contains("not 3"), run.err());
    }

    @Test
    void refusesAnUnknownClass() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2", "--mpj", MAIN, "Q");
        assertNotEquals(0, run.exitStatus());
        assertTrue(run.err().contains("NPB IS class 'Q'"), run.err());
    }

    private static void assertReports(final String out, final String name, final String value)
    {
        final String line = String.format(" %-16s=%25s", name, value);
        assertTrue(out.lines().anyMatch(line::equals), "no line '" + line + "' in\n" + out);
    }
}
