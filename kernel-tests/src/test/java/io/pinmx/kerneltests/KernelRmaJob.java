package io.pinmx.kerneltests;

import io.pinmx.job.RankAddress;
import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelEndpoint;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the rma tests on pinmx.ko share: a job of rank JVMs (2 unless {@link #ranks} says more) running a main over rma (one of rma's scenario mains, or
 * an application) on the kernel provider with the shared-memory tier off, over {@code lo}, across a veth pair between
 * network namespaces (rank 1 in its own; 2-rank jobs only) or across a bridge (every rank in its own), checked for the lines rank 0 must print ("PASSED scenario" for each
 * scenario) and no shared file left. Each job prints its time in
 * the guest, rank 0's "# " lines (the scenarios' own timings) and how long each rank measured its cost model.
 */
final class KernelRmaJob
{
    private static final long COMMAND_TIMEOUT_S = 60;
    /** Rank 0's bootstrap port in a namespace made for the job, where nothing else listens. */
    private static final int BRIDGE_BOOTSTRAP_PORT = 47_000;

    private final Path dir;
    private final String mainClass;
    private final List<String> arguments;
    private final List<String> requiredLines;
    private final long deadlineSeconds;
    private final String peerTimeoutMs;
    private int ranks = 2;
    private WhileRanksRun whileRunning = all -> { };
    private final Map<String, String> extraEnvironment = new LinkedHashMap<>();

    /** What a test does to the running ranks before the job is waited for (stopping one, say). */
    interface WhileRunning
    {
        void act(Process rank0, Process rank1) throws IOException, InterruptedException;
    }

    /** What a test does to the running ranks of a job of any size, in rank order. */
    interface WhileRanksRun
    {
        void act(List<Process> ranks) throws IOException, InterruptedException;
    }

    /**
     * @param arguments the main's arguments; the first is the comma-separated scenario list every one of which must
     * print "PASSED scenario"
     */
    KernelRmaJob(final Path dir, final String mainClass, final List<String> arguments, final long deadlineSeconds,
        final String peerTimeoutMs)
    {
        this(dir, mainClass, arguments, Stream.of(arguments.get(0).split(",")).map(s -> "PASSED " + s).toList(),
            deadlineSeconds, peerTimeoutMs);
    }

    /** @param requiredLines lines rank 0 must print, each exactly (trimmed) */
    KernelRmaJob(final Path dir, final String mainClass, final List<String> arguments, final List<String> requiredLines,
        final long deadlineSeconds, final String peerTimeoutMs)
    {
        this.dir = dir;
        this.mainClass = mainClass;
        this.arguments = List.copyOf(arguments);
        this.requiredLines = List.copyOf(requiredLines);
        this.deadlineSeconds = deadlineSeconds;
        this.peerTimeoutMs = peerTimeoutMs;
    }

    /** @return this job, its ranks started with the variable set (after the job's own). */
    KernelRmaJob environment(final String variable, final String value)
    {
        extraEnvironment.put(variable, value);
        return this;
    }

    /** @return this job, acting on its ranks once both started, before it waits for them. */
    KernelRmaJob whileRunning(final WhileRunning action)
    {
        this.whileRunning = all -> action.act(all.get(0), all.get(1));
        return this;
    }

    /** @return this job, acting on its ranks once all started, before it waits for them. */
    KernelRmaJob whileRanksRun(final WhileRanksRun action)
    {
        this.whileRunning = action;
        return this;
    }

    /** @return this job, of {@code count} ranks (over {@code lo} or a bridge past 2: a veth pair joins two ends). */
    KernelRmaJob ranks(final int count)
    {
        this.ranks = count;
        return this;
    }

    /** Skips the calling test unless /dev/pinmx is usable and the module has its pull engine. */
    static void requireKernelPulls()
    {
        final KernelDriver driver = KernelDevices.requireDevice();
        try (KernelEndpoint probe = (KernelEndpoint)driver.open(KernelDevices.config(200)))
        {
            KernelDevices.requirePulls(probe);
        }
    }

    /** Both ranks on {@code lo}: the module's pulls are its same-interface copy. */
    void runOverLoopback() throws IOException, InterruptedException
    {
        final String host = "127.0.0.1";
        run(host + ":" + freePort(host), r -> "lo", r -> List.of());
    }

    /**
     * {@link #runAcrossAVethPair} on the pair every rma class of this module uses: the cost model is kept per
     * interface name, so only the first job across it in a guest measures one, on its first rank.
     */
    void runAcrossTheRmaVethPair() throws IOException, InterruptedException
    {
        runAcrossAVethPair("prma", 213);
    }

    /**
     * Rank 1 in namespace {@code prefix-ID}, each rank on its end of the pair {@code prefix + "a" + ID} on
     * {@code 10.<subnetByte>.x.0/24}: pulls are frames served in softirq; one end's cost model serves the other.
     */
    private void runAcrossAVethPair(final String prefix, final int subnetByte) throws IOException, InterruptedException
    {
        if (2 != ranks)
        {
            throw new IllegalStateException("a job across a veth pair has 2 ranks, not " + ranks);
        }
        NetworkNamespaces.withVethPair(NetworkNamespaces.requireIp(), prefix, subnetByte,
            pair -> run(pair.host(1) + ":" + freePort(pair.host(1)), r -> 0 == r ? pair.here() : pair.there(),
                r -> 0 == r ? List.of() : pair.enter()));
    }

    /**
     * Each rank in a namespace of its own on one bridge ({@link NetworkNamespaces#withBridge}, names from
     * {@code prefix}, {@code 10.<subnetByte>.x.0/24}): every frame between two ranks crosses the bridge, so a job of
     * any size runs as between hosts on a switch. The bootstrap listens in rank 0's new namespace, where every port
     * is free.
     */
    void runAcrossABridge(final String prefix, final int subnetByte) throws IOException, InterruptedException
    {
        NetworkNamespaces.withBridge(NetworkNamespaces.requireIp(), prefix, subnetByte, ranks,
            bridge -> run(bridge.host(1) + ":" + BRIDGE_BOOTSTRAP_PORT, bridge.ends()::get, bridge::enter));
    }

    /**
     * Rank {@code r} on interface {@code interfaces.apply(r)}, started through {@code prefixes.apply(r)} (into a
     * namespace, or nothing); rank 0's bootstrap listens at {@code bootstrap}.
     */
    private void run(final String bootstrap, final IntFunction<String> interfaces,
        final IntFunction<List<String>> prefixes) throws IOException, InterruptedException
    {
        final Path shm = Files.createDirectories(dir.resolve("shm"));
        final long started = System.nanoTime();
        final List<Process> ranksStarted = new ArrayList<>();
        for (int r = 0; r < ranks; r++)
        {
            ranksStarted.add(start(r, bootstrap, shm, prefixes.apply(r), interfaces.apply(r)));
        }
        final Process rank0 = ranksStarted.get(0);
        try
        {
            whileRunning.act(List.copyOf(ranksStarted));
            boolean ended = rank0.waitFor(deadlineSeconds, TimeUnit.SECONDS);
            for (int r = 1; r < ranks; r++)
            {
                ended = ended && ranksStarted.get(r).waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS);
            }
            final String out = Files.readString(dir.resolve("rank0.out"));
            final StringBuilder errs = new StringBuilder();
            for (int r = 0; r < ranks; r++)
            {
                errs.append(Files.readString(dir.resolve("rank" + r + ".err")));
            }
            final String err = errs.toString();
            assertTrue(ended, "the job did not end within " + deadlineSeconds + " s: " + out + err);
            System.out.printf("# %s on the kernel provider over %s: %.1f s in the guest%n",
                mainClass.substring(mainClass.lastIndexOf('.') + 1), interfaces.apply(0), (System.nanoTime() - started) / 1e9);
            out.lines().filter(line -> line.startsWith("# "))
                .forEach(line -> System.out.println("#   " + line.substring(2)));
            err.lines().filter(line -> line.contains("measured the cost model"))
                .forEach(line -> System.out.println("#   " + line));
            for (int r = 0; r < ranks; r++)
            {
                assertEquals(0, ranksStarted.get(r).exitValue(), "rank " + r + ": " + out + err);
            }
            for (final String line : requiredLines)
            {
                assertTrue(out.lines().map(String::trim).anyMatch(line::equals), "no '" + line + "': " + out + err);
            }
            try (var left = Files.list(shm))
            {
                assertEquals(List.of(), left.toList(), "shared files left behind");
            }
        }
        finally
        {
            ranksStarted.forEach(Process::destroyForcibly);
        }
    }

    private Process start(final int rank, final String bootstrap, final Path shm, final List<String> prefix,
        final String interfaceName) throws IOException
    {
        final List<String> command = new ArrayList<>(prefix);
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(arguments);
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("rank" + rank + ".out").toFile())
            .redirectError(dir.resolve("rank" + rank + ".err").toFile());
        pb.environment().keySet()
            .removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_RANK", Integer.toString(rank));
        pb.environment().put("PINMX_SIZE", Integer.toString(ranks));
        pb.environment().put("PINMX_BOOTSTRAP", bootstrap);
        pb.environment().put("PINMX_BOOTSTRAP_TIMEOUT_MS", "120000");
        pb.environment().put("PINMX_DRIVER", "kernel");
        pb.environment().put(RankAddress.INTERFACE_VARIABLE, interfaceName);
        pb.environment().put("PINMX_PEER_TIMEOUT_MS", peerTimeoutMs);
        pb.environment().put("PINMX_RMA_SHARED_MEMORY", "0");
        pb.environment().put("PINMX_RMA_DIR", shm.toString());
        // The default model file is under user.home, which Java takes from the password file (/root), not HOME: in
        // the guest that is the host's read-only root, so every job would measure the model again (most of a job's
        // start-up under TCG). One file per interface in the guest's /tmp lets the next job on the same
        // interfaces (the other rma test class) reuse it; per interface, since the two ranks' keys differ on a veth.
        pb.environment().put("PINMX_RMA_MODEL_FILE", Path.of(System.getProperty("java.io.tmpdir"),
            "pinmx-kernel-tests", "rma-model-" + interfaceName + ".properties").toString());
        // A full measurement under TCG takes minutes a rank: the scenarios check results, not the protocols' speed,
        // so a quick model does.
        pb.environment().put("PINMX_RMA_CALIBRATION", "quick");
        pb.environment().putAll(extraEnvironment);
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
