package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link NoEpochsScenario} and the flagged puts in a real job of 2 JVMs whose ranks announced that they open no access
 * epochs ({@code PINMX_RMA_ACCESS_EPOCHS=0}), on both tiers.
 */
class NoEpochsLauncherTest
{
    private static final long RUN_DEADLINE_S = 300;
    private static final String SCENARIOS = "noepochs,putflag";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "no access epochs on 2 ranks, shared memory {0}")
    @CsvSource({"1", "0"})
    void getsNeedNoEpochCheckAndEpochsAreRefused(final int sharedMemory) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, Map.of(
            RmaOptions.DIRECTORY_VARIABLE, shm.toString(),
            RmaOptions.SHARED_MEMORY_VARIABLE, Integer.toString(sharedMemory),
            RmaOptions.ACCESS_EPOCHS_VARIABLE, "0",
            "PINMX_PEER_TIMEOUT_MS", "20000"), 2, ArmciInterfaceScenarios.class.getName(), SCENARIOS);
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        for (final String scenario : SCENARIOS.split(","))
        {
            assertTrue(job.out().lines().anyMatch(("PASSED " + scenario)::equals), scenario + ": " + job.out() + job.err());
        }
    }
}
