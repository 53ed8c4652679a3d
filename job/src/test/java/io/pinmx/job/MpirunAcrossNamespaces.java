package io.pinmx.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A two-rank job of Open MPI's mpirun across the two "hosts" of a {@link VethNamespaces} pair, one rank each, with
 * a HOME and a shared-memory directory of its own per host (PINMX_SHM_DIR, PINMX_RMA_DIR: on one kernel both
 * namespaces would otherwise see the same /dev/shm, where rma finds the other rank's files and maps its memory),
 * so that no shared file can be what joins it or carries its data: mpirun runs in the first namespace and
 * starts its daemon in the second through rma/bench/netns-rsh (each with its own host name, both on every CPU of
 * this process, ranks unbound); the ranks meet
 * through mpirun's PMIx servers and reach each other over the veth. Shipped in this module's test-jar for every
 * module's cross-namespace PMIx tests; {@link #assumeReady} skips the calling test, saying why, where mpirun,
 * netns-rsh or unshare is missing.
 */
public final class MpirunAcrossNamespaces
{
    /** Open MPI's remote-shell agent for namespaces of this machine, from any module's directory. */
    public static final Path NETNS_RSH = Path.of("..", "rma", "bench", "netns-rsh").toAbsolutePath().normalize();
    private static final Path UNSHARE = Path.of("/usr/bin/unshare");
    private static final String CPUS_ALLOWED = "Cpus_allowed_list:";

    private final VethNamespaces hosts;
    private final Path dir;
    private final Path[] homes;
    private final Path[] sharedMemoryDirectories;

    private MpirunAcrossNamespaces(final VethNamespaces hosts, final Path dir)
    {
        this.hosts = hosts;
        this.dir = dir;
        homes = new Path[] {dir.resolve("home-a"), dir.resolve("home-b")};
        sharedMemoryDirectories = new Path[] {dir.resolve("shm-a"), dir.resolve("shm-b")};
    }

    /**
     * @throws org.opentest4j.TestAbortedException without mpirun, libpmix.so.2, netns-rsh or util-linux's unshare.
     */
    public static void assumeReady()
    {
        MpirunJob.assumeMpirun();
        assumeTrue(Files.isExecutable(NETNS_RSH), "needs " + NETNS_RSH);
        assumeTrue(Files.isExecutable(UNSHARE), "needs util-linux's unshare");
    }

    /**
     * The homes and the remote-shell agent in {@code dir} for the pair {@code hosts}.
     */
    public static MpirunAcrossNamespaces over(final VethNamespaces hosts, final Path dir) throws IOException
    {
        final MpirunAcrossNamespaces job = new MpirunAcrossNamespaces(hosts, dir);
        final StringBuilder agent = new StringBuilder("#!/bin/sh\ncase \"$1\" in\n");
        for (int side = 0; side < 2; side++)
        {
            Files.createDirectories(job.homes[side]);
            Files.createDirectories(job.sharedMemoryDirectories[side]);
            agent.append("  ").append(hosts.address(side)).append(") export HOME=").append(job.homes[side])
                .append(" PINMX_SHM_DIR=").append(job.sharedMemoryDirectories[side])
                .append(" PINMX_RMA_DIR=").append(job.sharedMemoryDirectories[side]).append(" ;;\n");
        }
        // Each "host" gets its own directories, then netns-rsh enters its namespace.
        Files.writeString(job.agent(), agent.append("esac\nexec ").append(NETNS_RSH).append(" \"$@\"\n"));
        Files.setPosixFilePermissions(job.agent(), PosixFilePermissions.fromString("rwx------"));
        Files.writeString(job.hostfile(), hosts.address(0) + " slots=1\n" + hosts.address(1) + " slots=1\n");
        return job;
    }

    /**
     * @param side 0 or 1.
     * @return the HOME of that side's "host".
     */
    public Path home(final int side)
    {
        return homes[side];
    }

    /**
     * Runs bin/pinmx-run {@code args} as rank 0 in the first namespace and rank 1 in the second to the end (deadline
     * in s), with {@code environment} forwarded to both ranks and {@code options} given to mpirun.
     */
    public LaunchedJob.Result run(
        final long deadlineS, final Map<String, String> environment, final List<String> options, final String... args)
        throws IOException, InterruptedException
    {
        final String network = hosts.address(0).substring(0, hosts.address(0).lastIndexOf('.')) + ".0/24";
        final List<String> command = new ArrayList<>(List.of(agent().toString(), hosts.address(0)));
        command.addAll(MpirunJob.mpirun(2, List.copyOf(environment.keySet())));
        command.addAll(List.of("--hostfile", hostfile().toString(), "--map-by", "node", "--bind-to", "none",
            "--mca", "plm_rsh_agent", agent().toString(), "--mca", "oob_tcp_if_include", network));
        command.addAll(options);
        command.add(LaunchedJob.LAUNCHER.toString());
        command.addAll(List.of(args));
        final Map<String, String> variables = new HashMap<>(environment);
        // Every CPU for both "hosts", as two hosts would have: netns-rsh's one CPU per host (its benchmarks' choice)
        // leaves a JVM one core (serial GC, one compiler thread), so on a loaded machine a collection stops a rank
        // for seconds, longer than its partner's peer timeout, which then gives it up (BAD_SESSION).
        final String cpus = allowedCpus();
        variables.put("PINMX_NETNS_HOSTS", hosts.address(0) + "=" + hosts.name(0) + "/" + cpus + " " +
            hosts.address(1) + "=" + hosts.name(1) + "/" + cpus);
        return LaunchedJob.finish(MpirunJob.start(dir, "", homes[0], variables, command), dir, "", deadlineS);
    }

    /**
     * Asserts that neither host's HOME got a .pinmx directory (no bootstrap file was made).
     */
    public void assertNoBootstrapFile()
    {
        for (final Path home : homes)
        {
            assertFalse(Files.exists(home.resolve(".pinmx")), "a bootstrap file was made under " + home);
        }
    }

    /** @return the CPUs this process may run on, as taskset takes them (e.g. "0-1"). */
    private static String allowedCpus() throws IOException
    {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
            .filter(line -> line.startsWith(CPUS_ALLOWED))
            .map(line -> line.substring(CPUS_ALLOWED.length()).trim())
            .findFirst()
            .orElse("0-" + (Runtime.getRuntime().availableProcessors() - 1));
    }

    private Path agent()
    {
        return dir.resolve("rsh");
    }

    private Path hostfile()
    {
        return dir.resolve("hosts");
    }
}
