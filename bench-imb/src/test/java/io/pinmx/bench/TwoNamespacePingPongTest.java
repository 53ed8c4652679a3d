package io.pinmx.bench;

import io.pinmx.job.RankAddress;
import io.pinmx.job.SimulatedSlurm;
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
 * IMB PingPong between two "hosts": each rank started by bin/pinmx-run under simulated Slurm variables in its own
 * network namespace of a {@link VethNamespaces} pair, on the user driver (rank 0 by PINMX_ADDRESS, rank 1 by its
 * route to rank 0). Every timed byte must have crossed the veth: its counters grow by at least twice the bytes of
 * every timed repetition (warm-up and control traffic come on top).
 */
class TwoNamespacePingPongTest
{
    @TempDir
    Path home;

    @Test
    void pingPongCrossesTheVethOnTheUserDriver() throws Exception
    {
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final long before = hosts.bytes(1);
            SimulatedSlurm.runAcross(home, hosts, Map.of(RankAddress.ADDRESS_VARIABLE, hosts.address(0)),
                "--driver", "user", "PingPong", "-msglog", "0:17", "-iter", "50");
            final String out = SimulatedSlurm.output(home, "out", 0);
            final List<Measurement> rows = out.lines().map(TableLayout.IMB_TIME::parse).filter(Objects::nonNull).toList();
            assertEquals(19, rows.size(), out);
            assertTrue(out.contains("# progress: pinmx: user driver"), out);
            assertTrue(out.contains("# progress: pinmx: user driver (UDP on " + hosts.address(0)), out);
            hosts.assertCrossed(1, before, rows.stream().mapToLong(row -> 2 * row.bytes() * row.repetitions()).sum(),
                "timed PingPong payload bytes on the user driver");
        }
    }
}
