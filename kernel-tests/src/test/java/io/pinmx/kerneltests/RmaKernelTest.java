package io.pinmx.kerneltests;

import io.pinmx.job.RankAddress;
import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.rma.RmaScenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pinmx.job.RankAddress;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one-sided layer on pinmx.ko: rma's {@link RmaScenarios} (strided patches, concurrent accumulates, location
 * consistency, the fetch-and-add hammer and mutex counter, unilateral progress with gets served by the module alone,
 * a killed rank) as a job of 2 rank JVMs on the kernel provider with the shared-memory tier off, in quick mode (a
 * twentieth of the repetitions: TCG is slow). Over {@code lo} (pulls are the module's same-interface copy), and across a
 * veth pair between network namespaces with rank 1 in its own (pulls are frames served in softirq). Each job prints
 * its time in the guest.
 */
class RmaKernelTest
{
    private static final String SCENARIOS = "strided,accumulate,consistency,rmw,unilateral,killed";
    private static final long JOB_DEADLINE_S = 240;
    private static final long COMMAND_TIMEOUT_S = 60;
    /** A rank in JIT warm-up under TCG can be silent for seconds; the killed rank is noticed after this. */
    private static final String PEER_TIMEOUT_MS = "8000";

    @TempDir
    Path dir;

    @Test
    void scenariosPassOverLoopback() throws Exception
    {
        requireKernelPulls();
        runJob("lo", "lo", "127.0.0.1", List.of());
    }

    @Test
    void scenariosPassAcrossAVethPairBetweenNamespaces() throws Exception
    {
        requireKernelPulls();
        final String ip = NetworkNamespaces.requireIp();
        final long id = ProcessHandle.current().pid() % 100_000;
        final String namespace = "prma-" + id;
        final String here = "prmaa" + id;
        final String there = "prmab" + id;
        final String subnet = "10.213." + id % 250;
        NetworkNamespaces.run(ip, "netns", "add", namespace);
        try
        {
            NetworkNamespaces.run(ip, "link", "add", here, "type", "veth", "peer", "name", there);
            NetworkNamespaces.run(ip, "link", "set", there, "netns", namespace);
            NetworkNamespaces.run(ip, "addr", "add", subnet + ".1/24", "dev", here);
            NetworkNamespaces.run(ip, "link", "set", here, "up");
            NetworkNamespaces.run(ip, "-n", namespace, "addr", "add", subnet + ".2/24", "dev", there);
            NetworkNamespaces.run(ip, "-n", namespace, "link", "set", there, "up");
            NetworkNamespaces.run(ip, "-n", namespace, "link", "set", "lo", "up");
            runJob(here, there, subnet + ".1", List.of(ip, "netns", "exec", namespace));
        }
        finally
        {
            NetworkNamespaces.run(ip, "netns", "del", namespace);
        }
    }

    private static void requireKernelPulls()
    {
        final KernelDriver driver = KernelDevices.requireDevice();
        try (KernelEndpoint probe = (KernelEndpoint)driver.open(KernelDevices.config(200)))
        {
            KernelDevices.requirePulls(probe);
        }
    }

    /**
     * Rank 0 here on {@code interface0}, where the bootstrap listens on {@code host}; rank 1 on {@code interface1},
     * started through {@code rank1Prefix} (into a namespace, or nothing).
     */
    private void runJob(final String interface0, final String interface1, final String host,
        final List<String> rank1Prefix) throws IOException, InterruptedException
    {
        final String bootstrap = host + ":" + freePort(host);
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final long started = System.nanoTime();
        final Process rank0 = start(0, bootstrap, shm, List.of(), interface0);
        final Process rank1 = start(1, bootstrap, shm, rank1Prefix, interface1);
        try
        {
            final boolean ended = rank0.waitFor(JOB_DEADLINE_S, TimeUnit.SECONDS) &&
                rank1.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS);
            final String out = Files.readString(dir.resolve("rank0.out"));
            final String err = Files.readString(dir.resolve("rank0.err")) + Files.readString(dir.resolve("rank1.err"));
            assertTrue(ended, "the job did not end within " + JOB_DEADLINE_S + " s: " + out + err);
            System.out.printf("# rma scenarios on the kernel provider over %s: %.1f s in the guest%n", interface0,
                (System.nanoTime() - started) / 1e9);
            out.lines().filter(line -> line.startsWith("# "))
                .forEach(line -> System.out.println("#   " + line.substring(2)));
            assertEquals(0, rank0.exitValue(), "rank 0: " + out + err);
            assertEquals(0, rank1.exitValue(), "rank 1: " + out + err);
            for (final String scenario : SCENARIOS.split(","))
            {
                assertTrue(out.lines().anyMatch(("PASSED " + scenario)::equals), scenario + ": " + out + err);
            }
            try (var left = Files.list(shm))
            {
                assertEquals(List.of(), left.toList(), "shared files left behind");
            }
        }
        finally
        {
            rank0.destroyForcibly();
            rank1.destroyForcibly();
        }
    }

    private Process start(final int rank, final String bootstrap, final Path shm, final List<String> prefix,
        final String interfaceName) throws IOException
    {
        final List<String> command = new ArrayList<>(prefix);
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RmaScenarios.class.getName(), SCENARIOS,
            "quick"));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("rank" + rank + ".out").toFile())
            .redirectError(dir.resolve("rank" + rank + ".err").toFile());
        pb.environment().keySet()
            .removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_RANK", Integer.toString(rank));
        pb.environment().put("PINMX_SIZE", "2");
        pb.environment().put("PINMX_BOOTSTRAP", bootstrap);
        pb.environment().put("PINMX_BOOTSTRAP_TIMEOUT_MS", "120000");
        pb.environment().put("PINMX_DRIVER", "kernel");
        pb.environment().put(RankAddress.INTERFACE_VARIABLE, interfaceName);
        pb.environment().put("PINMX_PEER_TIMEOUT_MS", PEER_TIMEOUT_MS);
        pb.environment().put("PINMX_RMA_SHARED_MEMORY", "0");
        pb.environment().put("PINMX_RMA_DIR", shm.toString());
        return pb.start();
    }

    private static int freePort(final String host) throws IOException
    {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host)))
        {
            return s.getLocalPort();
        }
    }
}
