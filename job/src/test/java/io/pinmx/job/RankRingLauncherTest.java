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
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The README's example, as compiled by the build, run as real JVMs by bin/pinmx-run; and the README showing
 * exactly that source.
 */
class RankRingLauncherTest
{
    private static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    private static final Path EXAMPLE = Path.of("src", "main", "java", "io", "pinmx", "job", "example", "RankRing.java");
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void everyRankGetsThePreviousRanksNumber(final int ranks) throws Exception
    {
        final List<String> command = List.of(LAUNCHER.toString(), "-np", Integer.toString(ranks),
            RankRing.class.getName());
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        // The library's default endpoint publishes node-wide counters: keep the host's file out of the test.
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        final Process p = pb.start();
        if (!p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("pinmx-run did not finish within " + RUN_DEADLINE_S + " s");
        }
        final String out = Files.readString(dir.resolve("out"));
        final String err = Files.readString(dir.resolve("err"));
        assertEquals(0, p.exitValue(), err);
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
