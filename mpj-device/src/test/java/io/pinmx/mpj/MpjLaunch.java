package io.pinmx.mpj;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs {@code bin/pinmx-run} (or one task of it) as a real process with this test JVM's class path (the device's
 * classes ahead of mpj.jar), a clean pinmx/Slurm/PMI environment plus the given variables, and its output in files.
 * kernel-tests uses it too (this module's test-jar).
 */
public record MpjLaunch(int exitStatus, String out, String err)
{
    static final Path LAUNCHER = Path.of("..", "bin", "pinmx-run").toAbsolutePath().normalize();
    static final long RUN_DEADLINE_S = 900;

    /** Starts the launcher with {@code args}; {@link #await} collects it. */
    public static Process start(final Path dir, final String name, final Map<String, String> env, final String... args)
        throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(LAUNCHER.toString());
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_CLASSPATH", System.getProperty("java.class.path"));
        // The library's default endpoint publishes node-wide counters: keep the host's file out of the test.
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve(name + "-counters.dat"));
        pb.environment().putAll(env);
        return pb.start();
    }

    /** Waits for a started launcher (killing it and its ranks past the deadline) and reads its output. */
    public static MpjLaunch await(final Process p, final Path dir, final String name) throws Exception
    {
        if (!p.waitFor(RUN_DEADLINE_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail(name + " did not finish within " + RUN_DEADLINE_S + " s:\n" +
                Files.readString(dir.resolve(name + ".err")));
        }
        return new MpjLaunch(p.exitValue(), Files.readString(dir.resolve(name + ".out")),
            Files.readString(dir.resolve(name + ".err")));
    }

    public static MpjLaunch run(final Path dir, final String... args) throws Exception
    {
        return await(start(dir, "run", Map.of(), args), dir, "run");
    }
}
