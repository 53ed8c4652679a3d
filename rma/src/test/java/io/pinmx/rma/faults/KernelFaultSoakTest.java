package io.pinmx.rma.faults;

import io.pinmx.job.LaunchedJob;
import io.pinmx.pin.user.UserEndpointFile;
import io.pinmx.rma.RmaOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real faults done by the kernel, not injected by the user driver: the two ranks of a job ({@link FaultSoakRank}),
 * each in its own network namespace, exchange two-sided messages of every size class and one-sided operations at
 * once through the driver tier while {@link KernelFaults} drops, duplicates, delays, reorders and corrupts their UDP
 * frames on the veth pair between them; then rank 1 is killed with SIGKILL mid-transfer and rank 0 must fail its
 * operations on it within the peer timeout, naming it. The kernel's counters must show that the damage really
 * happened, the ranks' that they resent what was lost; afterwards no namespace, process or file of the job is left.
 * <p>
 * Needs root, ip, tc, nft and ethtool (skipped otherwise). {@value #LONG_VARIABLE}=1 runs ten times the messages.
 */
class KernelFaultSoakTest
{
    static final String LONG_VARIABLE = "PINMX_FAULT_SOAK_LONG";
    /** Each way: 4,000 messages in all, thousands of frames damaged each way. */
    private static final int MESSAGES = 2_000;
    private static final long PEER_TIMEOUT_MS = 5_000;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    /** For {@value #MESSAGES} messages each way; a long run has ten times as long. */
    private static final Duration SOAK_TIMEOUT = Duration.ofSeconds(240);
    private static final KernelFaults.Damage A_TO_B = new KernelFaults.Damage(100, 20, 50, 20);
    private static final KernelFaults.Damage B_TO_A = new KernelFaults.Damage(10, 50, 100, 10);
    private static final Pattern COUNTER = Pattern.compile("(\\w+)=(\\d+)");
    private static final Pattern SILENT = Pattern.compile("SURVIVOR_FAILED silentMs=(\\d+) rma=\\[(.*)] twoSided=\\[(.*)]");

    private KernelFaults faults;

    /** Kept when the test fails: the ranks' output is there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void twoSidedAndOneSidedTrafficSurviveKernelDamageThenAKilledRankIsNamed() throws Exception
    {
        final String unavailable = KernelFaults.unavailableBecause();
        assumeTrue(null == unavailable, unavailable);
        final int scale = "1".equals(System.getenv(LONG_VARIABLE)) ? 10 : 1;
        final int messages = scale * MESSAGES;
        final Duration soakTimeout = SOAK_TIMEOUT.multipliedBy(scale);
        final long id = ProcessHandle.current().pid() % 100_000;
        final Path home = Files.createDirectories(dir.resolve("home"));
        final Path rmaDirectory = Files.createDirectories(dir.resolve("rma"));
        final Path go = dir.resolve("go");
        final List<Process> ranks = new ArrayList<>();
        final List<Long> jvms = new ArrayList<>();
        try (KernelFaults faults = KernelFaults.create("pxf" + id, "235." + id % 250))
        {
            this.faults = faults;
            for (int rank = 0; rank < 2; rank++)
            {
                ranks.add(startRank(faults, rank, home, rmaDirectory, "pxf" + id, messages, go, soakTimeout));
            }
            awaitLine(ranks, 0, "READY", READY_TIMEOUT);
            awaitLine(ranks, 1, "READY", READY_TIMEOUT);
            jvms.add(java(ranks.get(0)).pid());
            jvms.add(java(ranks.get(1)).pid());
            faults.damage(A_TO_B, B_TO_A);
            Files.createFile(go);

            final String passed0 = awaitLine(ranks, 0, "SOAK_PASSED", soakTimeout);
            final String passed1 = awaitLine(ranks, 1, "SOAK_PASSED", soakTimeout);
            assertTrue(passed0.contains(" messages=" + messages + " ") && passed1.contains(" messages=" + messages + " "),
                passed0 + " / " + passed1);
            final Map<String, Map<String, Long>> kernel = faults.counters();
            final Map<String, Long> rank0 = counters(awaitLine(ranks, 0, "COUNTERS", SOAK_TIMEOUT));
            final Map<String, Long> rank1 = counters(awaitLine(ranks, 1, "COUNTERS", SOAK_TIMEOUT));
            final String seen = "kernel " + kernel + ", rank 0 " + rank0 + ", rank 1 " + rank1;
            System.out.println("fault soak: " + messages + " messages each way, " + A_TO_B + " a>b, " + B_TO_A +
                " b>a; " + seen + "; " + passed0 + "; " + passed1);
            for (final String direction : List.of("a>b", "b>a"))
            {
                final Map<String, Long> k = kernel.get(direction);
                for (final String what : List.of("lost", "duplicated", "delayed", "slow-overlimits", "checksum-errors"))
                {
                    assertTrue(k.getOrDefault(what, 0L) > 0, direction + ": the kernel's '" + what + "' is 0: " + seen);
                }
                assertTrue(k.getOrDefault("corrupted-header", 0L) + k.getOrDefault("corrupted-payload", 0L) > 0,
                    direction + ": no frame corrupted: " + seen);
            }
            assertTrue(rank0.get("resent") > 0 && rank1.get("resent") > 0, "a rank resent nothing: " + seen);
            assertTrue(rank0.get("badCrc") + rank1.get("badCrc") > 0,
                "no damaged frame passed the UDP checksum to meet the driver's frame check: " + seen);
            assertTrue(rank0.get("stale") + rank1.get("stale") + rank0.get("pullDuplicates") +
                rank1.get("pullDuplicates") > 0, "no duplicate or stale frame reached the library: " + seen);
            assertTrue(rank0.get("rmaRounds") > 0 && rank1.get("rmaRounds") > 0, seen);

            awaitLine(ranks, 1, "KILL_PHASE", soakTimeout);
            awaitLine(ranks, 0, "KILL_PHASE", soakTimeout);
            final ProcessHandle victim = java(ranks.get(1));
            final long killedAt = System.nanoTime();
            assertTrue(victim.destroyForcibly(), "SIGKILL to rank 1's JVM " + victim.pid());
            final long withinMs = 2 * PEER_TIMEOUT_MS + 10_000;
            assertTrue(ranks.get(0).waitFor(withinMs, TimeUnit.MILLISECONDS),
                "rank 0 still runs " + withinMs + " ms after rank 1 was killed: " + err(0));
            final long exitMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            assertEquals(0, ranks.get(0).exitValue(), err(0));
            final Matcher failed = SILENT.matcher(out(0));
            assertTrue(failed.find(), "rank 0 printed no SURVIVOR_FAILED: " + out(0) + err(0));
            System.out.println("fault soak: rank 0 exited " + exitMs + " ms after the kill; " + failed.group());
            assertTrue(Long.parseLong(failed.group(1)) <= 2 * PEER_TIMEOUT_MS,
                "rank 0 failed " + failed.group(1) + " ms after its last operation, peer timeout " + PEER_TIMEOUT_MS);
            assertTrue(failed.group(2).contains("rank 1"), "one-sided error does not name rank 1: " + failed.group());
            assertTrue(failed.group(3).contains(faults.address(1)),
                "the two-sided error does not name rank 1's endpoint at " + faults.address(1) + ": " + failed.group());
            assertTrue(ranks.get(1).waitFor(30, TimeUnit.SECONDS), "rank 1's launcher outlived its JVM");
        }
        finally
        {
            for (final Process p : ranks)
            {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        for (final Process p : ranks)
        {
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(List.of(), p.descendants().filter(ProcessHandle::isAlive).toList(), "processes left");
        }
        assertFalse(KernelFaults.namespaces().stream().anyMatch(ns -> ns.startsWith("pxf" + id)), "namespace left");
        assertEquals(List.of(), list(rmaDirectory), "rma shared files left");
        assertEquals(List.of(), list(home.resolve(".pinmx")), "bootstrap files left");
        assertEquals(List.of(), UserEndpointFile.list(Path.of("/dev/shm")).stream()
            .filter(f -> jvms.contains((long)f.pid())).toList(), "user driver endpoint files left in /dev/shm");
    }

    /** Rank {@code rank} through bin/pinmx-run as one task of a Slurm-like launcher, inside its namespace. */
    private Process startRank(final KernelFaults faults, final int rank, final Path home, final Path rmaDirectory,
        final String job, final int messages, final Path go, final Duration soakTimeout) throws IOException
    {
        final List<String> command = KernelFaults.inNamespace(faults.namespace(rank));
        command.addAll(List.of(LaunchedJob.LAUNCHER.toString(), FaultSoakRank.class.getName(), Integer.toString(messages),
            go.toString(), Long.toString(soakTimeout.toSeconds())));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out-" + rank).toFile())
            .redirectError(dir.resolve("err-" + rank).toFile());
        final Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        env.put("PATH", env.getOrDefault("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin");
        env.put("HOME", home.toString());
        env.put("SLURM_JOB_ID", job);
        env.put("SLURM_STEP_ID", "0");
        env.put("SLURM_PROCID", Integer.toString(rank));
        env.put("SLURM_NTASKS", "2");
        env.put("PINMX_ADDRESS", faults.address(rank));
        env.put("PINMX_DRIVER", "user");
        env.put("PINMX_PEER_TIMEOUT_MS", Long.toString(PEER_TIMEOUT_MS));
        env.put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        env.put(RmaOptions.SHARED_MEMORY_VARIABLE, "0");
        env.put(RmaOptions.DIRECTORY_VARIABLE, rmaDirectory.toString());
        env.put(RmaOptions.CALIBRATION_VARIABLE, "quick");
        env.put(RmaOptions.MODEL_FILE_VARIABLE, dir.resolve("model-" + rank + ".properties").toString());
        env.put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        return pb.start();
    }

    /** @return the first line of rank {@code rank}'s stdout that starts with {@code prefix}; fails if the rank died. */
    private String awaitLine(final List<Process> ranks, final int rank, final String prefix, final Duration timeout)
    {
        final String[] found = new String[1];
        await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() ->
        {
            final Optional<String> line = out(rank).lines().filter(l -> l.startsWith(prefix)).findFirst();
            if (line.isPresent())
            {
                found[0] = line.get();
                return true;
            }
            if (!ranks.get(rank).isAlive())
            {
                fail("rank " + rank + " exited " + ranks.get(rank).exitValue() + " before '" + prefix + "' (output in " +
                    dir + "): " + out(rank) + err(rank) + "\nrank " + (1 - rank) + ": " + err(1 - rank) + "\nkernel: " +
                    faults.counters());
            }
            return false;
        });
        return found[0];
    }

    private static Map<String, Long> counters(final String line)
    {
        final Map<String, Long> c = new java.util.HashMap<>();
        final Matcher m = COUNTER.matcher(line);
        while (m.find())
        {
            c.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return c;
    }

    /** @return the rank's JVM: the launcher's process itself once it exec'd java, else its java descendant. */
    private static ProcessHandle java(final Process launcher)
    {
        return Stream.concat(Stream.of(launcher.toHandle()), launcher.descendants())
            .filter(h -> h.info().command().map(c -> c.endsWith("/java")).orElse(false))
            .findFirst().orElseThrow(() -> new AssertionError("no JVM under rank process " + launcher.pid()));
    }

    private String out(final int rank) throws IOException
    {
        return Files.readString(dir.resolve("out-" + rank));
    }

    private String err(final int rank) throws IOException
    {
        return Files.readString(dir.resolve("err-" + rank));
    }

    private static List<String> list(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory))
        {
            return files.map(Path::toString).sorted().toList();
        }
    }
}
