package io.pinmx.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Tasks of a 2-rank Slurm job step as srun would start them, simulated: bin/pinmx-run per rank with SLURM_JOB_ID,
 * SLURM_STEP_ID, SLURM_PROCID and SLURM_NTASKS set, a home directory of the test's (where the bootstrap file goes),
 * the test's classpath, and no launcher variables from outside. Each task's stdout and stderr go to
 * {@code out-RANK} and {@code err-RANK} in that home.
 */
public final class SimulatedSlurm
{
    public static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    public static final long RUN_DEADLINE_S = 240;
    public static final String JOB_ID = "4242";

    private SimulatedSlurm()
    {
    }

    /**
     * @return bin/pinmx-run for one rank of a 2-rank Slurm job step, with this test's classpath, home and no
     *         launcher variables from outside.
     */
    public static ProcessBuilder task(
        final Path home, final int rank, final List<String> command, final Map<String, String> extraEnv)
    {
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(home.resolve("out-" + rank).toFile())
            .redirectError(home.resolve("err-" + rank).toFile());
        pb.environment().keySet().removeIf(k -> Stream.of("SLURM_", "PMI_", "PMIX_", "OMPI_", "PINMX_")
            .anyMatch(k::startsWith));
        pb.environment().putAll(Map.of("PINMX_CLASSPATH", System.getProperty("java.class.path"),
            "HOME", home.toString(), "SLURM_JOB_ID", JOB_ID, "SLURM_STEP_ID", "0",
            "SLURM_PROCID", Integer.toString(rank), "SLURM_NTASKS", "2",
            // Under this host's load a rank's JIT warm-up can leave its partner waiting for seconds.
            JobEndpoint.PEER_TIMEOUT_VARIABLE, "30000"));
        pb.environment().putAll(extraEnv);
        return pb;
    }

    /**
     * Runs bin/pinmx-run with {@code arguments} as rank 0 in side 0 of {@code hosts} (with {@code rank0Env} added)
     * and as rank 1 in side 1, and asserts both exit 0.
     */
    public static void runAcross(
        final Path home, final VethNamespaces hosts, final Map<String, String> rank0Env, final String... arguments)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(arguments));
        final List<Process> ranks = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++)
        {
            ranks.add(task(home, rank, hosts.inside(rank, command), 0 == rank ? rank0Env : Map.of()).start());
        }
        for (int rank = 0; rank < 2; rank++)
        {
            assertEquals(0, finish(ranks.get(rank)), "rank " + rank + ": " + output(home, "err", rank));
        }
    }

    public static int finish(final Process p) throws InterruptedException
    {
        if (!p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("pinmx-run did not finish within " + RUN_DEADLINE_S + " s");
        }
        return p.exitValue();
    }

    public static String output(final Path home, final String stream, final int rank) throws IOException
    {
        return Files.readString(home.resolve(stream + "-" + rank));
    }
}
