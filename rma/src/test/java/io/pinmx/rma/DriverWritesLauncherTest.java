package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real 2-rank job through the user driver ({@link DriverWritesScenarios}): by default no slice takes driver writes
 * (the user driver's need the target's driver thread), and ranks that ask for them with
 * {@code PINMX_RMA_DRIVER_WRITES=1} are refused at init on every rank, each named, leaving no file behind.
 */
class DriverWritesLauncherTest
{
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    @Test
    void theUserDriverTakesNoneByDefault() throws Exception
    {
        final LaunchedJob.Result job = run(Map.of(), "auto");
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        // rank 0's output is the job's own, the others' come prefixed with their rank
        assertEquals(2, (job.out() + job.err()).lines().filter(l -> l.endsWith("DATA SERVER")).count(),
            job.out() + job.err());
    }

    @Test
    void askingForThemOnTheUserDriverIsRefusedOnEveryRankNamingTheVariable() throws Exception
    {
        final LaunchedJob.Result job = run(Map.of(RmaOptions.DRIVER_WRITES_VARIABLE, "1"), "refused");
        assertEquals(0, job.exitStatus(), job.out() + job.err());
        final List<String> messages = job.err().lines().filter(l -> l.matches("\\[rank \\d+] REFUSED .*"))
            .map(l -> l.substring(l.indexOf("REFUSED ") + 8)).toList();
        assertEquals(2, messages.size(), job.err());
        assertEquals(1, messages.stream().distinct().count(), "every rank gets the same refusal:\n" + job.err());
        final String message = messages.getFirst();
        final String why = ": PINMX_RMA_DRIVER_WRITES=1: the 'user' driver does not apply puts and atomics " +
            "without this process (it lacks PASSIVE_WRITES); unset it (auto) or set 0";
        assertEquals("rma init refused driver writes: rank 0" + why + "; rank 1" + why, message);
    }

    private LaunchedJob.Result run(final Map<String, String> env, final String scenario) throws Exception
    {
        final Path shm = Files.createDirectory(dir.resolve("shm"));
        final Map<String, String> all = new HashMap<>(env);
        all.put(RmaOptions.DIRECTORY_VARIABLE, shm.toString());
        all.put(RmaOptions.SHARED_MEMORY_VARIABLE, "0");
        all.put(RmaOptions.CALIBRATION_VARIABLE, "quick");
        all.put(RmaOptions.MODEL_FILE_VARIABLE, dir.resolve("model.properties").toString());
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, all, 2,
            DriverWritesScenarios.class.getName(), scenario);
        try (Stream<Path> left = Files.list(shm))
        {
            assertTrue(left.toList().isEmpty(), "shared files left behind");
        }
        return job;
    }
}
