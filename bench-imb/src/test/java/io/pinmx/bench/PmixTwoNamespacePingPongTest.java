package io.pinmx.bench;

import io.pinmx.job.LaunchedJob;
import io.pinmx.job.MpirunAcrossNamespaces;
import io.pinmx.job.VethNamespaces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IMB PingPong with one rank in each namespace of a {@link VethNamespaces} pair, started by Open MPI's mpirun and
 * meeting through its PMIx servers ({@link MpirunAcrossNamespaces}, a HOME per "host"), on the user driver: the full
 * table, rank 0 reached at its veth address, and every timed byte across the veth (its counters grow by at least
 * twice the bytes of every timed repetition).
 */
class PmixTwoNamespacePingPongTest
{
    private static final long RUN_DEADLINE_S = 180;
    private static final int LAST_SIZE_LOG = 12;

    @TempDir
    Path dir;

    @Test
    void pingPongCrossesTheVethUnderMpirun() throws Exception
    {
        MpirunAcrossNamespaces.assumeReady();
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final MpirunAcrossNamespaces mpirun = MpirunAcrossNamespaces.over(hosts, dir);
            final long before = hosts.bytes(1);
            final LaunchedJob.Result job = mpirun.run(RUN_DEADLINE_S, Map.of(), List.of(),
                "--driver", "user", "PingPong", "-msglog", "0:" + LAST_SIZE_LOG, "-iter", "20");

            assertEquals(0, job.exitStatus(), job.out() + job.err());
            final List<Measurement> rows =
                job.out().lines().map(TableLayout.IMB_TIME::parse).filter(Objects::nonNull).toList();
            assertEquals(LAST_SIZE_LOG + 2, rows.size(), job.out());
            assertTrue(job.out().contains("# progress: pinmx: user driver (UDP on " + hosts.address(0)), job.out());
            hosts.assertCrossed(1, before, rows.stream().mapToLong(row -> 2 * row.bytes() * row.repetitions()).sum(),
                "timed PingPong payload bytes under mpirun");
            mpirun.assertNoBootstrapFile();
        }
    }
}
