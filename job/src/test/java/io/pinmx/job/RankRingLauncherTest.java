package io.pinmx.job;

import io.pinmx.job.example.RankRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's example, as compiled by the build, run as real JVMs by bin/pinmx-run; and the README showing
 * exactly that source.
 */
class RankRingLauncherTest
{
    private static final Path EXAMPLE = Path.of("src", "main", "java", "io", "pinmx", "job", "example", "RankRing.java");
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void everyRankGetsThePreviousRanksNumber(final int ranks) throws Exception
    {
        final LaunchedJob.Result job = LaunchedJob.runRanks(dir, RUN_DEADLINE_S, Map.of(), ranks,
            RankRing.class.getName());
        final String out = job.out();
        final String err = job.err();
        assertEquals(0, job.exitStatus(), err);
        assertEquals("rank 0 of " + ranks + " got " + (ranks - 1) + " from rank " + (ranks - 1), out.trim(), err);
        for (int rank = 1; rank < ranks; rank++)
        {
            final String line = "[rank " + rank + "] rank " + rank + " of " + ranks + " got " + (rank - 1) +
                " from rank " + (rank - 1);
            assertTrue(err.lines().anyMatch(line::equals), "missing '" + line + "' in\n" + err);
        }
    }

    @Test
    void theReadmeShowsTheExampleAsCompiled() throws Exception
    {
        final String readme = Files.readString(Path.of("README.md"));
        final String source = Files.readString(EXAMPLE);
        final List<String> blocks = new ArrayList<>();
        int at = 0;
        while ((at = readme.indexOf("```java\n", at)) >= 0)
        {
            final int end = readme.indexOf("```\n", at + 8);
            blocks.add(readme.substring(at + 8, end));
            at = end;
        }
        assertTrue(blocks.contains(source), "job/README.md does not show " + EXAMPLE + " as it is");
    }
}
