package io.pinmx.job;

import io.pinmx.job.example.RankRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A job shorter than a fresh JVM's first open of the node's counters store exits as soon as its ranks are done, says
 * nothing about the store, and its endpoints' final counters still reach the node: {@code pinmx-admin counters}
 * lists them once the job is gone.
 */
class ShortJobExitTest
{
    private static final Path ADMIN = Path.of("..", "bin", "pinmx-admin").toAbsolutePath().normalize();
    private static final long RUN_DEADLINE_S = 180;
    /**
     * From rank 0's last line to the launcher's exit: two JVMs shutting down on a loaded host, well below the
     * seconds a store opening in a fresh JVM takes.
     */
    private static final long EXIT_BOUND_MS = 4_000;

    @TempDir
    Path dir;

    @Test
    void aShortJobExitsPromptlyAndItsFinalCountersReachTheNode() throws Exception
    {
        final Process launcher = LaunchedJob.start(dir, "", Map.of(), List.of("-np", "2", RankRing.class.getName()));
        final Path out = dir.resolve("out");
        await().atMost(Duration.ofSeconds(RUN_DEADLINE_S)).pollInterval(Duration.ofMillis(20))
            .until(() -> Files.readString(out).contains("rank 0 of 2 got 1 from rank 1\n") || !launcher.isAlive());
        final long lastLineNs = System.nanoTime();
        final LaunchedJob.Result job = LaunchedJob.finish(launcher, dir, RUN_DEADLINE_S);
        final long exitMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastLineNs);
        assertEquals(0, job.exitStatus(), job.err());
        assertEquals("rank 0 of 2 got 1 from rank 1", job.out().trim(), job.err());
        assertFalse(job.err().contains("WARNING") || job.err().contains("final counters"), job.err());
        assertTrue(exitMs < EXIT_BOUND_MS, "the job took " + exitMs + " ms to exit after its last line:\n" + job.err());

        final ProcessBuilder pb = new ProcessBuilder(ADMIN.toString(), "--counters-file",
            dir.resolve("counters.dat").toString(), "counters")
            .redirectOutput(dir.resolve("admin-out").toFile()).redirectError(dir.resolve("admin-err").toFile());
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        final Process admin = pb.start();
        if (!admin.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
        {
            admin.destroyForcibly();
            fail("pinmx-admin counters did not finish within " + RUN_DEADLINE_S + " s");
        }
        final String listed = Files.readString(dir.resolve("admin-out"));
        assertEquals(0, admin.exitValue(), listed + Files.readString(dir.resolve("admin-err")));
        final List<String> endpoints = listed.lines().filter(l -> l.contains(" (gone) published ")).toList();
        assertEquals(2, endpoints.size(), listed);
        assertTrue(endpoints.stream().anyMatch(l -> l.contains("/0 pid ")) &&
            endpoints.stream().anyMatch(l -> l.contains("/1 pid ")), listed);
        assertTrue(listed.lines().filter(l -> l.matches("  FRAMES_SENT_\\w+ [1-9][0-9]*")).count() >= 2, listed);
    }
}
