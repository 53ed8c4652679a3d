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
 * Every {@link ArmciInterfaceScenarios} scenario in one real job of 2, 3 and 4 JVMs (3: groups of odd sizes) started by bin/pinmx-run, on the
 * shared-memory tier and on the driver tier (shared memory off: the user driver's UDP frames); each job leaves no
 * shared file behind.
 */
class ArmciInterfaceLauncherTest
{
    /** A hang guard: four driver-tier JVMs on two cores of a host busy with other builds took over 180 s. */
    private static final long RUN_DEADLINE_S = 300;
    private static final String SCENARIOS = "nbvalues,reductions,anywhere,groups,epochs,exclusion,epochgets,samenode,lockmem,manygets,localmem,putflag,defaultgroup,scopes,twosided,notify";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "ARMCI interface on {0} ranks, shared memory {1}")
    @CsvSource({"2, 1", "3, 1", "4, 1", "2, 0", "3, 0", "4, 0"})
    void everyScenarioPassesOnEveryRank(final int ranks, final int sharedMemory) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final String scenarios = System.getProperty("armci.interface.scenarios", SCENARIOS);
        // Four JVMs on two shared cores: a generous peer timeout, so that a descheduled rank is not taken for dead.
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, Map.of(
            RmaOptions.DIRECTORY_VARIABLE, shm.toString(),
            RmaOptions.SHARED_MEMORY_VARIABLE, Integer.toString(sharedMemory),
            "PINMX_PEER_TIMEOUT_MS", "20000"), ranks, ArmciInterfaceScenarios.class.getName(), scenarios);
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        for (final String scenario : scenarios.split(","))
        {
            assertTrue(job.out().lines().anyMatch(("PASSED " + scenario)::equals), scenario + ": " + job.out() + job.err());
        }
        try (var left = Files.list(shm))
        {
            assertEquals(List.of(), left.toList(), "shared files left behind");
        }
    }
}
