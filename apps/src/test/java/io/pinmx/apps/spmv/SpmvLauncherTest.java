package io.pinmx.apps.spmv;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SpMV as real jobs started by bin/pinmx-run: every get mode on both rma tiers with 1, 2 and 4 ranks (the stencil;
 * the power-law matrix on 4 and 2) matches the one-rank product; bad arguments and a matrix with fewer rows than ranks are refused with one line and status 2.
 */
class SpmvLauncherTest
{
    private static final long RUN_DEADLINE_S = 600;
    private static final Path MODEL_FILE = Path.of("target", "rma-model-test.properties").toAbsolutePath();
    private static final String MAIN = SpmvOneSided.class.getName();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1} on {2} ranks, shared memory {3}")
    @CsvSource({
        "stencil27, 6, 1, 1", "stencil27, 6, 2, 1", "stencil27, 6, 4, 1",
        "stencil27, 6, 1, 0", "stencil27, 6, 2, 0", "stencil27, 6, 4, 0",
        "powerlaw, 300, 4, 1", "powerlaw, 300, 2, 0"})
    void everyModeMatchesTheOneRankProduct(final String matrix, final int size, final int ranks,
        final int sharedMemory) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S, Map.of(
            "PINMX_RMA_DIR", shm.toString(),
            "PINMX_RMA_SHARED_MEMORY", Integer.toString(sharedMemory),
            "PINMX_RMA_MODEL_FILE", MODEL_FILE.toString(),
            "PINMX_RMA_CALIBRATION", "quick"),
            "-np", Integer.toString(ranks), "--peer-timeout", "30", MAIN, matrix, Integer.toString(size), "all", "2");
        assertEquals(0, run.exitStatus(), run.out() + run.err());
        for (final String mode : List.of("per-element", "aggregated", "vector"))
        {
            assertTrue(run.out().contains(String.format(" %-16s=%25s%n", "Gets", mode)), run.out());
        }
        assertEquals(3, run.out().lines().filter(l -> l.matches(" Verification +=\\s+SUCCESSFUL")).count(), run.out());
        assertTrue(run.out().lines().anyMatch(l -> l.matches(" Total processes +=\\s+" + ranks)), run.out());
        final long remote = run.out().lines().filter(l -> l.startsWith(" Remote elements"))
            .mapToLong(l -> Long.parseLong(l.substring(l.indexOf('=') + 1).trim())).max().orElseThrow();
        assertEquals(ranks > 1, remote > 0, run.out());
    }

    @ParameterizedTest(name = "refuses {2}")
    @CsvSource(quoteCharacter = '"', value = {
        "1, \"matrix 'dense' is not one of stencil27, powerlaw\", dense 8 all",
        "1, \"get mode 'bulk' is not one of per-element, aggregated, vector\", stencil27 8 bulk",
        "1, size '-3' is not a positive integer, stencil27 -3 all",
        "4, a matrix of 3 rows cannot give each of 4 ranks a row, powerlaw 3 all"})
    void refusesBadArguments(final int ranks, final String error, final String args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("-np", Integer.toString(ranks), MAIN));
        command.addAll(List.of(args.split(" ")));
        final LaunchedJob.Result run = LaunchedJob.finish(LaunchedJob.start(dir, "", Map.of(), command), dir,
            RUN_DEADLINE_S);
        assertEquals(2, run.exitStatus(), run.out() + run.err());
        final List<String> lines = run.err().lines().filter(l -> l.contains("SpMV:")).toList();
        assertTrue(!lines.isEmpty() && lines.stream().allMatch(l -> l.endsWith("SpMV: " + error)), run.err());
    }
}
