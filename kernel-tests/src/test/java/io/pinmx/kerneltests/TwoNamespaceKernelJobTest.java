package io.pinmx.kerneltests;

import io.pinmx.bench.Measurement;
import io.pinmx.bench.PingPong;
import io.pinmx.bench.TableLayout;
import io.pinmx.job.CrossHostExchange;
import io.pinmx.job.RankAddress;
import io.pinmx.job.VethNamespaces;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A job across two "hosts" on the kernel provider: one rank per network namespace of a {@link VethNamespaces}
 * pair, each a JVM started with simulated Slurm variables (SLURM_PROCID, SLURM_NTASKS) and a bootstrap file, as
 * bin/pinmx-run under srun would start it. Each rank's kernel endpoint attaches the interface that carries the job
 * (rank 0: PINMX_IFACE; rank 1: its route to rank 0), so frames carry the veth ends' own MAC addresses and must
 * cross the link: its byte counters grow by at least every payload byte. Every size class is echoed, then IMB
 * PingPong runs.
 */
@Tag(KernelDevices.CI_LANE_6_1)
class TwoNamespaceKernelJobTest
{
    private static final long RUN_DEADLINE_S = 600;

    @TempDir
    Path dir;

    private void runRanks(final VethNamespaces hosts, final String name, final String... program)
        throws Exception
    {
        final List<Process> ranks = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++)
        {
            final List<String> java = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow()));
            java.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            java.addAll(List.of("-cp", System.getProperty("java.class.path")));
            java.addAll(List.of(program));
            final ProcessBuilder pb = new ProcessBuilder(hosts.inside(rank, java))
                .redirectOutput(dir.resolve(name + "-out-" + rank).toFile())
                .redirectError(dir.resolve(name + "-err-" + rank).toFile());
            pb.environment().keySet().removeIf(k -> Stream.of("SLURM_", "PMI_", "PMIX_", "OMPI_", "PINMX_")
                .anyMatch(k::startsWith));
            pb.environment().putAll(Map.of("SLURM_PROCID", Integer.toString(rank), "SLURM_NTASKS", "2",
                "PINMX_BOOTSTRAP", "file:" + dir.resolve(name + "-bootstrap"), "PINMX_DRIVER", "kernel",
                // Under TCG a rank's JIT warm-up silences it for many seconds.
                "PINMX_PEER_TIMEOUT_MS", "120000", "PINMX_BOOTSTRAP_TIMEOUT_MS", "300000"));
            if (0 == rank)
            {
                pb.environment().put(RankAddress.INTERFACE_VARIABLE, hosts.name(0));
            }
            ranks.add(pb.start());
        }
        for (int rank = 0; rank < 2; rank++)
        {
            final Process p = ranks.get(rank);
            if (!p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
            {
                ranks.forEach(Process::destroyForcibly);
                fail(name + ": rank " + rank + " did not finish within " + RUN_DEADLINE_S + " s");
            }
            assertEquals(0, p.exitValue(), name + ": rank " + rank + ": " +
                Files.readString(dir.resolve(name + "-err-" + rank)));
        }
    }

    private String out(final String name) throws Exception
    {
        return Files.readString(dir.resolve(name + "-out-0"));
    }

    @Test
    void everySizeClassCrossesTheVethOnTheKernelProvider() throws Exception
    {
        KernelDevices.requireDevice();
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final long before = hosts.bytes(0);
            runRanks(hosts, "exchange", CrossHostExchange.class.getName());
            final String out = out("exchange");
            assertTrue(out.contains("rank 0 reachable at " + hosts.address(0) + " on " + hosts.name(0) + " (" +
                RankAddress.INTERFACE_VARIABLE + "=" + hosts.name(0) + "), board eth:"), out);
            assertTrue(out.contains("rank 0 echoed " + CrossHostExchange.echoedBytes() + " bytes"), out);
            assertTrue(out.contains("rank 0 sent itself " + CrossHostExchange.selfSentBytes() + " bytes"), out);
            hosts.assertCrossed(0, before, CrossHostExchange.echoedBytes(), "payload bytes echoed on the kernel provider");
        }
    }

    @Test
    void pingPongCrossesTheVethOnTheKernelProvider() throws Exception
    {
        KernelDevices.requireDevice();
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final long before = hosts.bytes(1);
            runRanks(hosts, "pingpong", PingPong.class.getName(), "-msglog", "0:16", "-iter", "10");
            final String out = out("pingpong");
            final List<Measurement> rows = out.lines().map(TableLayout.IMB_TIME::parse).filter(Objects::nonNull).toList();
            assertEquals(18, rows.size(), out);
            assertTrue(out.contains("# progress: pinmx: kernel driver"), out);
            hosts.assertCrossed(1, before, rows.stream().mapToLong(row -> 2 * row.bytes() * row.repetitions()).sum(),
                "timed PingPong payload bytes on the kernel provider");
        }
    }
}
