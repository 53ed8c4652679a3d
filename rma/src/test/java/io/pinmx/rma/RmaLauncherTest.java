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
 */
class RmaLauncherTest
{
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} on {1} ranks, shared memory {2}")
    @CsvSource({
        "strided, 2, 1", "strided, 4, 1", "strided, 2, 0", "strided, 4, 0",
        "accumulate, 2, 1", "accumulate, 4, 1", "accumulate, 2, 0", "accumulate, 4, 0",
        "consistency, 2, 1", "consistency, 4, 1", "consistency, 2, 0", "consistency, 4, 0",
        "rmw, 2, 1", "rmw, 4, 1", "rmw, 2, 0", "rmw, 4, 0",
        "handles, 2, 1", "handles, 4, 1", "handles, 2, 0", "handles, 4, 0",
        "errors, 2, 1", "errors, 4, 1", "errors, 2, 0", "errors, 4, 0",
        "unilateral, 2, 1", "unilateral, 4, 1", "unilateral, 2, 0", "unilateral, 4, 0",
        "progress, 2, 1", "progress, 2, 0",
        "killed, 2, 1", "killed, 4, 1", "killed, 2, 0", "killed, 4, 0"})
    void scenarioPassesOnEveryRank(final String scenario, final int ranks, final int sharedMemory) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        // A dead target must be noticed well within the scenario's deadline.
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, Map.of(
            RmaOptions.DIRECTORY_VARIABLE, shm.toString(),
            RmaOptions.SHARED_MEMORY_VARIABLE, Integer.toString(sharedMemory),
            "PINMX_PEER_TIMEOUT_MS", "2000"), ranks, RmaScenarios.class.getName(), scenario);
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        assertTrue(job.out().lines().anyMatch(("PASSED " + scenario)::equals), job.out() + job.err());
        try (var left = Files.list(shm))
        {
            assertEquals(List.of(), left.toList(), "shared files left behind");
        }
    }
}
