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
 * tier and on the driver tier (shared memory off: the user driver's UDP frames); each leaves no shared file behind.
 */
class RmaLauncherTest
{
    private static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} on {1} ranks, shared memory {2}")
    @CsvSource({
        "strided, 2, 1", "strided, 4, 1", "strided, 2, 0", "strided, 4, 0",
        "accumulate, 2, 1", "accumulate, 4, 1", "accumulate, 2, 0", "accumulate, 4, 0",
        "consistency, 2, 1", "consistency, 4, 1", "consistency, 2, 0", "consistency, 4, 0",
        "rmw, 2, 1", "rmw, 4, 1", "rmw, 2, 0", "rmw, 4, 0",
        "handles, 2, 1", "handles, 4, 1", "handles, 2, 0", "handles, 4, 0",
        "errors, 2, 1", "errors, 4, 1", "errors, 2, 0", "errors, 4, 0",
        "unilateral, 2, 1", "unilateral, 4, 1", "unilateral, 2, 0", "unilateral, 4, 0",
        "killed, 2, 1", "killed, 4, 1", "killed, 2, 0", "killed, 4, 0"})
    void scenarioPassesOnEveryRank(final String scenario, final int ranks, final int sharedMemory) throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final ProcessBuilder pb = new ProcessBuilder(List.of(LAUNCHER.toString(), "-np", Integer.toString(ranks),
            RmaScenarios.class.getName(), scenario))
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        // The user driver publishes node-wide counters: keep the host's file out of the test.
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        pb.environment().put(RmaOptions.DIRECTORY_VARIABLE, shm.toString());
        pb.environment().put(RmaOptions.SHARED_MEMORY_VARIABLE, Integer.toString(sharedMemory));
        // A dead target must be noticed well within the scenario's deadline.
        pb.environment().put("PINMX_PEER_TIMEOUT_MS", "2000");
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
