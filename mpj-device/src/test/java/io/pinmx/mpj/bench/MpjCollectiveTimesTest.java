package io.pinmx.mpj.bench;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MpjCollectiveTimes} on the device through {@code bin/pinmx-run --mpj} with 2 ranks: a line per round with
 * the times of that round's operations, whose data it checks (Reduce and Scatter of the suite's 35 KB, Alltoallv of
 * 160 KB to each rank, past the eager limit), and an unknown operation refused by name.
 */
class MpjCollectiveTimesTest
{
    /** MPJ programs start several JVMs each; under load a run takes minutes. */
    private static final long RUN_DEADLINE_S = 600;
    private static final String PROGRAM = MpjCollectiveTimes.class.getName();

    @TempDir
    Path dir;

    @Test
    void printsEachRoundsTimesForEachOperation() throws Exception
    {
        for (final String opAndDoubles : List.of("reduce 4472", "scatter 4472", "alltoallv 20000", "self 20000"))
        {
            final String op = opAndDoubles.split(" ")[0];
            final String doubles = opAndDoubles.split(" ")[1];
            final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2",
                "--peer-timeout", "30", "--mpj", PROGRAM, "-op", op, "-doubles", doubles, "-reps", "40",
                "-rounds", "2");
            assertEquals(0, run.exitStatus(), run.out() + run.err());
            final List<String> rounds =
                run.out().lines().filter(l -> l.startsWith(opAndDoubles + " doubles round ")).toList();
            assertEquals(2, rounds.size(), run.out());
            for (final String line : rounds)
            {
                assertTrue(line.matches(opAndDoubles + " doubles round [01]: 40 ops, us mean [0-9.]+ p50 [0-9.]+ " +
                    "p90 [0-9.]+ p99 [0-9.]+ max [0-9.]+; over 1000 us: [0-9]+"), line);
            }
        }
    }

    @Test
    void refusesAnUnknownOperationByName() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(), "-np", "2", "--mpj", PROGRAM,
            "-op", "gather");
        assertNotEquals(0, run.exitStatus(), run.out());
        assertTrue(run.err().contains("MpjCollectiveTimes: -op needs reduce, scatter, alltoallv or self"), run.err());
    }
}
