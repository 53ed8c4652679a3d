package io.pinmx.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.pinmx.job.SimulatedSlurm.JOB_ID;
import static io.pinmx.job.SimulatedSlurm.LAUNCHER;
import static io.pinmx.job.SimulatedSlurm.RUN_DEADLINE_S;
import static io.pinmx.job.SimulatedSlurm.finish;
import static io.pinmx.job.SimulatedSlurm.output;
import static io.pinmx.job.SimulatedSlurm.runAcross;
import static io.pinmx.job.SimulatedSlurm.task;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job across two "hosts" under simulated Slurm variables: bin/pinmx-run started once per rank, as srun would,
 * each in its own network namespace of a {@link VethNamespaces} pair, meeting through the bootstrap file in the
 * shared home directory. Rank 0 is reachable by PINMX_IFACE, rank 1 by its route to rank 0; the user driver's
 * frames must cross the veth (its byte counters grow by at least every payload byte), since neither rank sees the
 * other's address as local and so never takes the shared-memory path. The bootstrap file is gone after the job,
 * also when rank 0 fails or is stopped.
 */
class TwoNamespaceJobTest
{

    @TempDir
    Path home;

    static Path bootstrapDirectory(final Path home)
    {
        return home.resolve(".pinmx");
    }

    @Test
    void everySizeClassCrossesTheVethOnTheUserDriver() throws Exception
    {
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final long before = hosts.bytes(0);
            runAcross(home, hosts, Map.of(RankAddress.INTERFACE_VARIABLE, hosts.name(0)),
                CrossHostExchange.class.getName());
            final String out0 = output(home, "out", 0);
            final String out1 = output(home, "out", 1);
            assertTrue(out0.contains("rank 0 reachable at " + hosts.address(0) + " on " + hosts.name(0) + " (" +
                RankAddress.INTERFACE_VARIABLE + "=" + hosts.name(0) + "), board udp:" + hosts.address(0) + ":"), out0);
            assertTrue(out0.contains("; rank 1 at board udp:" + hosts.address(1) + ":"), out0);
            assertTrue(out1.contains("rank 1 reachable at " + hosts.address(1) + " on " + hosts.name(1) +
                " (the route to rank 0 (its control connection))"), out1);
            assertTrue(out0.contains("rank 0 echoed " + CrossHostExchange.echoedBytes() + " bytes"), out0);
            assertTrue(out0.contains("rank 0 sent itself " + CrossHostExchange.selfSentBytes() + " bytes"), out0);
            assertTrue(out1.contains("rank 1 sent itself " + CrossHostExchange.selfSentBytes() + " bytes"), out1);
            hosts.assertCrossed(0, before, CrossHostExchange.echoedBytes(), "payload bytes echoed on the user driver");
            assertEquals(List.of(), listing(bootstrapDirectory(home)), "bootstrap files left after the job");
        }
    }

    @Test
    void rankZeroRemovesTheBootstrapFileWhenNobodyComes() throws Exception
    {
        final Process rank0 = task(home, 0, List.of(LAUNCHER.toString(), "--timeout", "2",
            CrossHostExchange.class.getName()), Map.of()).start();
        assertNotEquals(0, finish(rank0));
        final String err = output(home, "err", 0);
        assertTrue(err.contains("heard from 0 of 1 other ranks within 2000 ms; missing ranks [1]"), err);
        assertEquals(List.of(), listing(bootstrapDirectory(home)), "bootstrap files left after a failed job");
    }

    @Test
    void rankZeroStoppedByItsLauncherRemovesTheBootstrapFile() throws Exception
    {
        final Process rank0 = task(home, 0, List.of(LAUNCHER.toString(), CrossHostExchange.class.getName()),
            Map.of()).start();
        final Path file = bootstrapDirectory(home).resolve("bootstrap-slurm-" + JOB_ID + ".0");
        try
        {
            await().atMost(Duration.ofSeconds(RUN_DEADLINE_S)).until(() -> Files.exists(file));
            // What srun does to a task when the job is cancelled.
            rank0.toHandle().destroy();
            assertEquals(143, finish(rank0), output(home, "err", 0));
            assertEquals(List.of(), listing(bootstrapDirectory(home)), "bootstrap files left after SIGTERM");
        }
        finally
        {
            rank0.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aLauncherWithoutAJobIdIsTold() throws Exception
    {
        final ProcessBuilder pb = task(home, 1, List.of(LAUNCHER.toString(), CrossHostExchange.class.getName()),
            Map.of("PMIX_RANK", "0", "PINMX_SIZE", "2"));
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_"));
        assertEquals(2, finish(pb.start()));
        assertTrue(output(home, "err", 1).startsWith("pinmx-run: under pmix no job id found (SLURM_JOB_ID, " +
            "PMIX_NAMESPACE, OMPI_MCA_ess_base_jobid)"), output(home, "err", 1));
    }

    private static List<String> listing(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.map(Path::getFileName).map(Path::toString).toList();
        }
    }
}
