package io.pinmx.rma;

import io.pinmx.rma.example.RmaRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The README's example program, as the build compiled it, run by bin/pinmx-run on 3 ranks; and the README showing
 * exactly that source.
 */
class RmaRingExampleTest
{
    private static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    private static final Path EXAMPLE = Path.of("src", "main", "java", "io", "pinmx", "rma", "example", "RmaRing.java");

    @TempDir
    Path dir;

    @Test
    void everyRankReceivesThePreviousRankAndTheTotalIsTheSumOfRanks() throws Exception
    {
        final ProcessBuilder pb = new ProcessBuilder(List.of(LAUNCHER.toString(), "-np", "3", RmaRing.class.getName()))
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        // The user driver publishes node-wide counters: keep the host's file out of the test.
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        final Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("pinmx-run did not finish within 120 s");
        }
        final String out = Files.readString(dir.resolve("out"));
        final String err = Files.readString(dir.resolve("err"));
        assertEquals(0, p.exitValue(), out + err);
        final String rank0 = out.trim();
        assertTrue(rank0.startsWith("rank 0 of 3 received 2, ticket ") && rank0.endsWith(", total 3"), rank0 + err);
        for (int rank = 1; rank < 3; rank++)
        {
            final String prefix = "[rank " + rank + "] rank " + rank + " of 3 received " + (rank - 1) + ", ticket ";
            assertTrue(err.lines().anyMatch(l -> l.startsWith(prefix) && l.endsWith(", total 3")), prefix + " in\n" + err);
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
