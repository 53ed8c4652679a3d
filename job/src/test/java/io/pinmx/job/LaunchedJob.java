package io.pinmx.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A job of real JVMs started by bin/pinmx-run on the calling test's class path, for the launcher tests of every
 * module (shipped in this module's test-jar): no launcher variables inherited (SLURM_, PMI_, PINMX_), the node-wide
 * counters file kept in the test's directory, stdout and stderr in files there, waited for with a deadline.
 */
public final class LaunchedJob
{
    /** bin/pinmx-run, from any module's directory. */
    public static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();

    /** What the job printed: rank 0's stdout, every rank's stderr (prefixed by rank), and the launcher's status. */
    public record Result(int exitStatus, String out, String err)
    {
    }

    private LaunchedJob()
    {
    }

    /**
     * Start pinmx-run with {@code args}; its output goes to {@code dir/out<suffix>} and {@code dir/err<suffix>}.
     *
     * @param environment set after the defaults, so it may replace them.
     */
    public static Process start(
        final Path dir, final String suffix, final Map<String, String> environment, final List<String> args)
        throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(LAUNCHER.toString());
        command.addAll(args);
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out" + suffix).toFile())
            .redirectError(dir.resolve("err" + suffix).toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        // The user driver publishes node-wide counters: keep the host's file out of the test.
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        pb.environment().putAll(environment);
        return pb.start();
    }

    /** Start pinmx-run with {@code args}; output in {@code dir/out} and {@code dir/err}. */
    public static Process start(final Path dir, final Map<String, String> environment, final String... args)
        throws IOException
    {
        return start(dir, "", environment, List.of(args));
    }

    /** Wait for a job from {@link #start(Path, Map, String...)}; kill it and fail, with its stderr, past the deadline. */
    public static Result finish(final Process launcher, final Path dir, final long deadlineS)
        throws IOException, InterruptedException
    {
        return finish(launcher, dir, "", deadlineS);
    }

    /** Wait for a job from {@link #start(Path, String, Map, List)} with that suffix, as {@link #finish(Process, Path, long)}. */
    public static Result finish(final Process launcher, final Path dir, final String suffix, final long deadlineS)
        throws IOException, InterruptedException
    {
        if (!launcher.waitFor(deadlineS, TimeUnit.SECONDS))
        {
            final String processes = JobProcesses.describe(launcher.toHandle());
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
            fail("pinmx-run did not finish within " + deadlineS + " s:\n" + Files.readString(dir.resolve("err" + suffix)) +
                "\nits processes then:\n" + processes);
        }
        return new Result(launcher.exitValue(), Files.readString(dir.resolve("out" + suffix)),
            Files.readString(dir.resolve("err" + suffix)));
    }

    /** Run pinmx-run with {@code args} to the end. */
    public static Result run(
        final Path dir, final long deadlineS, final Map<String, String> environment, final String... args)
        throws IOException, InterruptedException
    {
        return finish(start(dir, environment, args), dir, deadlineS);
    }

    /** Run {@code mainClass} on {@code ranks} local ranks to the end. */
    public static Result runRanks(
        final Path dir, final long deadlineS, final Map<String, String> environment, final int ranks,
        final String mainClass, final String... args) throws IOException, InterruptedException
    {
        final List<String> all = new ArrayList<>(List.of("-np", Integer.toString(ranks), mainClass));
        all.addAll(List.of(args));
        return finish(start(dir, "", environment, all), dir, deadlineS);
    }
}
