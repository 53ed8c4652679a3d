package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every {@link RmaScenarios} scenario as a real job of 2 and 4 JVMs started by bin/pinmx-run, on the shared-memory
 * tier and on the driver tier (shared memory off: the user driver's UDP frames); each leaves no shared file behind.
 * The scenarios that leave the ranks able to go on run one after another in one job per rank count and tier, "errors"
 * last (it leaves the ranks in different collective calls); "killed" ends its job, so it has one of its own.
 */
class RmaLauncherTest
{
    private static final long RUN_DEADLINE_S = 180;
    private static final String SCENARIOS = "strided,accumulate,consistency,rmw,handles,unilateral";
    /** "progress" checks what rank 0's progress offers when rank 1 pulls from it: a job of two. */
    private static final String TWO_RANK_SCENARIOS = "progress";
    private static final String LAST_SCENARIO = "errors";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "every scenario on {0} ranks, shared memory {1}")
    @CsvSource({"2, 1", "4, 1", "2, 0", "4, 0"})
    void everyScenarioPassesOnEveryRank(final int ranks, final int sharedMemory) throws Exception
    {
        final String scenarios = SCENARIOS + (2 == ranks ? "," + TWO_RANK_SCENARIOS : "") + "," + LAST_SCENARIO;
        final LaunchedJob.Result job = run(ranks, sharedMemory, scenarios);
        for (final String scenario : scenarios.split(","))
        {
            assertTrue(job.out().lines().anyMatch(("PASSED " + scenario)::equals), scenario + ": " + job.out() +
                job.err());
        }
    }

    @ParameterizedTest(name = "killed on {0} ranks, shared memory {1}")
    @CsvSource({"2, 1", "4, 1", "2, 0", "4, 0"})
    void aKilledTargetIsNoticedOnEveryRank(final int ranks, final int sharedMemory) throws Exception
    {
        final LaunchedJob.Result job = run(ranks, sharedMemory, "killed");
        assertTrue(job.out().lines().anyMatch("PASSED killed"::equals), job.out() + job.err());
    }

    private LaunchedJob.Result run(final int ranks, final int sharedMemory, final String scenarios) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        // A dead target must be noticed well within the scenario's deadline.
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, Map.of(
            RmaOptions.DIRECTORY_VARIABLE, shm.toString(),
            RmaOptions.SHARED_MEMORY_VARIABLE, Integer.toString(sharedMemory),
            "PINMX_PEER_TIMEOUT_MS", "2000"), ranks, RmaScenarios.class.getName(), scenarios);
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        try (var left = Files.list(shm))
        {
            assertEquals(List.of(), left.toList(), "shared files left behind");
        }
        return job;
    }
}
