package io.pinmx.mpj;

import io.pinmx.job.JobEndpoint;
import io.pinmx.job.LaunchedJob;
import io.pinmx.job.RankAddress;
import io.pinmx.job.VethNamespaces;
import io.pinmx.mpj.programs.ComputingRank;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.pinmx.job.SimulatedSlurm.LAUNCHER;
import static io.pinmx.job.SimulatedSlurm.finish;
import static io.pinmx.job.SimulatedSlurm.output;
import static io.pinmx.job.SimulatedSlurm.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank that computes for 3 peer timeouts without calling MPJ while its partner has eager sends, a rendezvous
 * send and a receive pending toward it: the job completes with every message intact, with the device's
 * caller-driven progress (nothing in the computing rank polls) and with a progress thread; on one host (the
 * driver knows the rank's process runs) and across a veth pair between two network namespaces (the computing
 * rank's driver answers liveness probes without it).
 */
class ComputingRankTest
{
    private static final long PEER_TIMEOUT_MS = 1000;
    /**
     * Across hosts nothing exact is known: the computing rank's liveness probes must be answered within the timeout,
     * which on a 2-core host under a full test run (load 20-30) a 1 s timeout does not always allow.
     */
    private static final long VETH_PEER_TIMEOUT_MS = 2000;
    private static final long RUN_DEADLINE_S = 300;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "progress {0}")
    @ValueSource(strings = {"caller", "thread"})
    void aRankComputingForThreePeerTimeoutsIsWaitedFor(final String progress) throws Exception
    {
        final LaunchedJob.Result run = LaunchedJob.run(dir, RUN_DEADLINE_S,
            Map.of("PINMX_PEER_TIMEOUT_MS", Long.toString(PEER_TIMEOUT_MS), DeviceProgress.VARIABLE, progress),
            "-np", "2", "--mpj", ComputingRank.class.getName(), Long.toString(3 * PEER_TIMEOUT_MS));
        ProgramOutcome.assertBothRanksPassed(run, "ComputingRank");
    }

    @ParameterizedTest(name = "progress {0}")
    @ValueSource(strings = {"caller", "thread"})
    void acrossAVethARankComputingForThreePeerTimeoutsIsWaitedFor(final String progress) throws Exception
    {
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final List<String> command = List.of(LAUNCHER.toString(), "--mpj", ComputingRank.class.getName(),
                Long.toString(3 * VETH_PEER_TIMEOUT_MS));
            final Map<String, String> env = Map.of(JobEndpoint.PEER_TIMEOUT_VARIABLE, Long.toString(VETH_PEER_TIMEOUT_MS),
                DeviceProgress.VARIABLE, progress);
            final List<Process> ranks = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++)
            {
                final ProcessBuilder pb = task(dir, rank, hosts.inside(rank, command), env);
                if (0 == rank)
                {
                    pb.environment().put(RankAddress.INTERFACE_VARIABLE, hosts.name(0));
                }
                ranks.add(pb.start());
            }
            for (int rank = 0; rank < 2; rank++)
            {
                assertEquals(0, finish(ranks.get(rank)), "rank " + rank + ": " + output(dir, "err", rank));
                assertTrue(output(dir, "out", rank).contains("ComputingRank OK"), output(dir, "err", rank));
            }
        }
    }
}
