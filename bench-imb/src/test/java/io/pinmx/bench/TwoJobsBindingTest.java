package io.pinmx.bench;

import io.pinmx.job.LaunchedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two jobs of polling ranks at once on one host: the second does not bind its ranks onto the first one's CPUs
 * silently. With a free CPU it takes that one; with none (this 2-CPU host) each rank says which job holds its CPU.
 */
class TwoJobsBindingTest
{
    private static final long RUN_DEADLINE_S = 180;

    @TempDir
    Path dir;

    @Test
    void theSecondJobPassesOverOrNamesTheFirstJobsCpus() throws Exception
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final Path first = Files.createDirectories(dir.resolve("first"));
        final Path second = Files.createDirectories(dir.resolve("second"));
        final Map<String, String> env = Map.of("PINMX_SHM_DIR", shm.toString());
        // Long enough to outlast the second job: stopped below.
        final List<Long> firstRanks;
        final Process running = LaunchedJob.start(first, "", env, List.of("-np", "2", "PingPong", "--transport",
            "tcp-busy", "-msglog", "0:22", "-iter", "1000000"));
        try
        {
            await().atMost(Duration.ofSeconds(RUN_DEADLINE_S)).pollInterval(Duration.ofMillis(100)).until(() ->
                Files.readString(first.resolve("out")).contains("# progress: tcp-busy") || !running.isAlive());
            assertTrue(running.isAlive(), Files.readString(first.resolve("err")));
            firstRanks = running.descendants().map(ProcessHandle::pid).toList();

            final LaunchedJob.Result job = LaunchedJob.finish(LaunchedJob.start(second, "", env, List.of("-np", "2",
                "PingPong", "--transport", "tcp-busy", "-msglog", "0:3", "-iter", "20", "-loops", "1")), second,
                RUN_DEADLINE_S);
            assertEquals(0, job.exitStatus(), job.err());
            final String progress = job.out().lines().filter(l -> l.startsWith("# progress: tcp-busy")).findFirst()
                .orElseThrow();
            assertTrue(progress.matches(".* bound by pid [0-9]+.*"), "the second job's rank 0 names no other job: " +
                progress);
            final long heldBy = Long.parseLong(progress.replaceAll(".* bound by pid ([0-9]+).*", "$1"));
            assertTrue(firstRanks.contains(heldBy), heldBy + " is not a rank of the first job " + firstRanks + ": " +
                progress);
            if (Runtime.getRuntime().availableProcessors() >= 4)
            {
                assertTrue(progress.contains("CPU 0 is bound by pid " + heldBy + ", another job"), progress);
            }
            else
            {
                final List<String> warnings = job.err().lines().filter(l -> l.contains("pinmx: warning: rank")).toList();
                assertEquals(2, warnings.size(), job.err());
                assertTrue(warnings.stream().allMatch(w -> w.matches("\\[rank [01]\\] pinmx: warning: rank [01] binds " +
                    "to CPU [0-9]+, which pid [0-9]+ \\(another job\\) has bound already: no CPU of the [0-9]+ allowed " +
                    "is free, so both run slower \\(PINMX_BIND=none leaves ranks unbound\\)")), job.err());
            }
        }
        finally
        {
            running.descendants().forEach(ProcessHandle::destroyForcibly);
            running.destroyForcibly();
        }
        // The second job gave back whatever it claimed: what is left is the first job's (stopped, so stale).
        try (var left = Files.list(shm.resolve("pinmx-cpus")))
        {
            for (final Path claim : left.toList())
            {
                final long pid = Long.parseLong(Files.readString(claim).split(" ")[0]);
                assertTrue(firstRanks.contains(pid), claim + " names pid " + pid + ", not a rank of the first job");
            }
        }
    }
}
