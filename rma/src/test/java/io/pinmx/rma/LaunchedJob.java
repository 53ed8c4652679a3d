package io.pinmx.rma;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A job of real JVMs started by bin/pinmx-run on this test's classpath, with no launcher variables inherited and
 * the node-wide counters file kept in the test's directory; waited for with a deadline.
 */
final class LaunchedJob
{
    private static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();

    /** What the job printed: rank 0's stdout, every rank's stderr (prefixed by rank), and the launcher's status. */
    record Result(int exitStatus, String out, String err)
    {
    }

    private LaunchedJob()
    {
    }

    static Result run(final Path dir, final long deadlineS, final Map<String, String> environment, final int ranks,
        final String mainClass, final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "-np", Integer.toString(ranks),
            mainClass));
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        // The user driver publishes node-wide counters: keep the host's file out of the test.
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        pb.environment().putAll(environment);
        final Process p = pb.start();
        if (!p.waitFor(deadlineS, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("pinmx-run did not finish within " + deadlineS + " s");
        }
        return new Result(p.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
    }
}
