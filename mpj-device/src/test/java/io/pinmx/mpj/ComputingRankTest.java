package io.pinmx.mpj;

import io.pinmx.job.LaunchedJob;
import io.pinmx.mpj.programs.ComputingRank;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank that computes for 3 peer timeouts without calling MPJ while its partner has eager sends, a rendezvous
 * send and a receive pending toward it: the job completes with every message intact, with the device's
 * caller-driven progress (nothing in the computing rank polls) and with a progress thread.
 */
class ComputingRankTest
{
    private static final long PEER_TIMEOUT_MS = 1000;
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
        assertEquals(0, run.exitStatus(), run.err());
        assertEquals("ComputingRank OK", run.out().trim(), run.err());
        assertTrue(run.err().lines().anyMatch("[rank 1] ComputingRank OK"::equals), run.err());
    }
}
