package io.pinmx.rma;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every {@link RmaScenarios} scenario as a real job of 2 and 4 JVMs started by bin/pinmx-run, on the shared-memory
 * tier; each leaves no shared file behind.
 */
class RmaLauncherTest
{
    private static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({
        "strided, 2", "strided, 4",
        "accumulate, 2", "accumulate, 4",
        "consistency, 2", "consistency, 4",
        "rmw, 2", "rmw, 4",
        "handles, 2", "handles, 4",
        "errors, 2", "errors, 4",
        "unilateral, 2", "unilateral, 4",
        "killed, 2", "killed, 4"})
    void scenarioPassesOnEveryRank(final String scenario, final int ranks) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final ProcessBuilder pb = new ProcessBuilder(List.of(LAUNCHER.toString(), "-np", Integer.toString(ranks),
            RmaScenarios.class.getName(), scenario))
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put(RmaOptions.DIRECTORY_VARIABLE, shm.toString());
        final Process p = pb.start();
        if (!p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("pinmx-run did not finish within " + RUN_DEADLINE_S + " s");
        }
        final String out = Files.readString(dir.resolve("out"));
        final String err = Files.readString(dir.resolve("err"));
        assertEquals(0, p.exitValue(), out + err);
        assertTrue(out.lines().anyMatch(("PASSED " + scenario)::equals), out + err);
        try (var left = Files.list(shm))
        {
            assertEquals(List.of(), left.toList(), "shared files left behind");
        }
    }
}
