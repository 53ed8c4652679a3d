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
 * Every {@link ArmciSuiteScenarios} scenario in one real job of 2 and of 4 JVMs started by bin/pinmx-run, on the
 * shared-memory tier and on the driver tier (shared memory off: the user driver's UDP frames); each job leaves no
 * shared file behind.
 */
class ArmciSuiteLauncherTest
{
    private static final long RUN_DEADLINE_S = 240;
    private static final String SCENARIOS = "zeroslices,levels,vectors,acctypes,tickets,mutexes,handles,ordering,fence,crossslice,badinput,closepending";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "ARMCI suite on {0} ranks, shared memory {1}")
    @CsvSource({"2, 1", "4, 1", "2, 0", "4, 0"})
    void everyScenarioPassesOnEveryRank(final int ranks, final int sharedMemory) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        // Four JVMs on two shared cores: a generous peer timeout, so that a descheduled rank is not taken for dead.
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, Map.of(
            RmaOptions.DIRECTORY_VARIABLE, shm.toString(),
            RmaOptions.SHARED_MEMORY_VARIABLE, Integer.toString(sharedMemory),
            "PINMX_PEER_TIMEOUT_MS", "20000"), ranks, ArmciSuiteScenarios.class.getName(),
            System.getProperty("armci.scenarios", SCENARIOS));
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        for (final String scenario : System.getProperty("armci.scenarios", SCENARIOS).split(","))
        {
            assertTrue(job.out().lines().anyMatch(("PASSED " + scenario)::equals), scenario + ": " + job.out() + job.err());
        }
        try (var left = Files.list(shm))
        {
            assertEquals(List.of(), left.toList(), "shared files left behind");
        }
    }
}
