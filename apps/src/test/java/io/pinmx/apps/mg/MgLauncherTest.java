package io.pinmx.apps.mg;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MG class S as real jobs started by bin/pinmx-run: the one-sided version on both rma tiers and the message-passing
 * version on pinmx's MPJ device, 1, 2 and 4 ranks, each reproducing NPB's norm; a rank count the slabs cannot use
 * and an unknown class refused with a one-line error and status 2.
 */
class MgLauncherTest
{
    /** Several JVMs on a shared 2-core host: under load a run takes minutes. */
    private static final long RUN_DEADLINE_S = 600;
    /** One cost model for the module's driver-tier runs, measured quickly by the first. */
    private static final Path MODEL_FILE = Path.of("target", "rma-model-test.properties").toAbsolutePath();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "one-sided by {2}s on {0} ranks, shared memory {1}")
    @CsvSource({"1, 1, get", "2, 1, get", "4, 1, get", "1, 0, get", "2, 0, get", "4, 0, get", "2, 0, put",
        "4, 1, put"})
    void oneSidedVerifies(final int ranks, final int sharedMemory, final String motion) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(
            "PINMX_RMA_DIR", shm.toString(),
            "PINMX_RMA_SHARED_MEMORY", Integer.toString(sharedMemory),
            "PINMX_RMA_MODEL_FILE", MODEL_FILE.toString(),
            "PINMX_RMA_CALIBRATION", "quick"),
            "-np", Integer.toString(ranks), "--peer-timeout", "30", MgOneSided.class.getName(), "S", motion);
        assertVerified(run, ranks, MgOneSided.VERSION + " (" + motion + "s)");
        final List<String> phases = "put".equals(motion) ?
            List.of("Ghost put secs", "Ghost notify secs", "Ghost wait secs", "Progress secs") :
            List.of("Ghost post secs", "Ghost get secs", "Ghost wait secs", "Progress secs");
        for (final String phase : phases)
        {
            final String pattern = String.format(" %-16s= +[0-9]+\\.[0-9]{4}", phase);
            assertTrue(run.out().lines().anyMatch(l -> l.matches(pattern)), pattern + " in\n" + run.out());
        }
        // class S's finest level, 32^3 points: each exchange moves two planes of 34 x 34 doubles; one rank exchanges
        // nothing, and prints no level lines
        final String finest = String.format(" %-16s= +[1-9][0-9]* x 18496 B [0-9]+\\.[0-9]{4} s max [0-9]+\\.[0-9]{4}",
            "Level 5 " + ("put".equals(motion) ? "waits" : "gets"));
        assertEquals(ranks > 1, run.out().lines().anyMatch(l -> l.matches(finest)), finest + " in\n" + run.out());
        assertEquals(ranks > 1, run.out().contains(" Level "), "level lines only where ranks exchange:\n" + run.out());
        try (var left = Files.list(shm))
        {
            assertEquals(List.of(), left.toList(), "shared files left behind");
        }
    }

    @ParameterizedTest(name = "message passing on pinmx's MPJ device, {0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void messagePassingVerifies(final int ranks) throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(),
            "-np", Integer.toString(ranks), "--peer-timeout", "30", "--mpj", MgMessagePassing.class.getName(), "S");
        assertVerified(run, ranks, "MPJ mxdev");
    }

    @Test
    void oneSidedRefusesThreeRanks() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(),
            "-np", "3", MgOneSided.class.getName(), "S");
        assertRefused(run, "MG: NPB MG's slabs need a power-of-two number of ranks, not 3");
    }

    @Test
    void messagePassingRefusesThreeRanks() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(),
            "-np", "3", "--mpj", MgMessagePassing.class.getName(), "S");
        assertRefused(run, "MG: NPB MG's slabs need a power-of-two number of ranks, not 3");
    }

    @Test
    void oneSidedGetsByDefault() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(),
            "-np", "2", "--peer-timeout", "30", MgOneSided.class.getName(), "S");
        assertVerified(run, 2, MgOneSided.VERSION + " (gets)");
    }

    @Test
    void oneSidedRefusesAnUnknownGhostMotion() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(),
            "-np", "2", MgOneSided.class.getName(), "S", "sideways");
        assertRefused(run, "MG: ghost motion 'sideways' is not one of put, get");
    }

    @Test
    void oneSidedRefusesAnUnknownClass() throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(),
            "-np", "2", MgOneSided.class.getName(), "C");
        assertRefused(run, "MG: NPB MG class 'C' is not one of S, W, A");
    }

    private static void assertVerified(final LaunchedJob.Result run, final int ranks, final String version)
    {
        assertEquals(0, run.exitStatus(), run.out() + run.err());
        assertReports(run.out(), "Class", "S");
        assertReports(run.out(), "Size", "  32x  32x  32");
        assertReports(run.out(), "Iterations", "4");
        assertReports(run.out(), "Total processes", Integer.toString(ranks));
        assertReports(run.out(), "Version", version);
        assertReports(run.out(), "Verification", "SUCCESSFUL");
        assertTrue(run.out().lines().anyMatch(l -> l.matches(" Mop/s total +=\\s+[0-9]+\\.[0-9]{2}")), run.out());
        assertTrue(run.out().contains(" L2 Norm is 5.30770700573"), run.out());
    }

    /** Every rank that printed the error printed that one line, and the job failed with status 2. */
    private static void assertRefused(final LaunchedJob.Result run, final String error)
    {
        assertEquals(2, run.exitStatus(), run.out() + run.err());
        final List<String> lines = run.err().lines().filter(l -> l.contains("MG:")).toList();
        assertTrue(!lines.isEmpty() && lines.stream().allMatch(l -> l.endsWith(error)), run.err());
    }

    private static void assertReports(final String out, final String name, final String value)
    {
        final String line = String.format(" %-16s=%25s", name, value);
        assertTrue(out.lines().anyMatch(line::equals), "no line '" + line + "' in\n" + out);
    }
}
