package io.pinmx.rma;

import io.pinmx.job.LaunchedJob;
import io.pinmx.rma.example.RmaRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's example program, as the build compiled it, run by bin/pinmx-run on 3 ranks; and the README showing
 * exactly that source.
 */
class RmaRingExampleTest
{
    private static final Path EXAMPLE = Path.of("src", "main", "java", "io", "pinmx", "rma", "example", "RmaRing.java");

    @TempDir
    Path dir;

    @Test
    void everyRankReceivesThePreviousRankAndTheTotalAndParitySumsAreSumsOfRanks() throws Exception
    {
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, 120, Map.of(), 3, RmaRing.class.getName());
        final String out = job.out();
        final String err = job.err();
        assertEquals(0, job.exitStatus(), out + err);
        final String rank0 = out.trim();
        assertTrue(rank0.startsWith("rank 0 of 3 received 2, ticket ") && rank0.endsWith(", parity sum 2, total 3"),
            rank0 + err);
        for (int rank = 1; rank < 3; rank++)
        {
            final String prefix = "[rank " + rank + "] rank " + rank + " of 3 received " + (rank - 1) + ", ticket ";
            final String suffix = ", parity sum " + (1 == rank ? 1 : 2) + ", total 3";
            assertTrue(err.lines().anyMatch(l -> l.startsWith(prefix) && l.endsWith(suffix)), prefix + " in\n" + err);
        }
    }

    @Test
    void theReadmeShowsTheExampleAsCompiled() throws Exception
    {
        final String readme = Files.readString(Path.of("README.md"));
        assertTrue(readme.contains("```java\n" + Files.readString(EXAMPLE) + "```\n"),
            "rma/README.md does not show " + EXAMPLE + " as it is");
    }
}
