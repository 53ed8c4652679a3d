package io.pinmx.pin.user;

import io.pinmx.pin.node.NodeFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A second real JVM for multi-process tests: same java binary, same classpath, same --add-opens /
 * --enable-native-access flags as this one. Talks line by line over stdin/stdout; stderr goes to a log file.
 * Always used in try-with-resources so the child is killed whatever happens.
 */
final class ChildJvm implements AutoCloseable
{
    private final Process process;
    private final PrintWriter stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path stderrLog;

    private ChildJvm(final Process process, final Path stderrLog)
    {
        this.process = process;
        this.stderrLog = stderrLog;
        this.stdin = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        final Thread reader = new Thread(this::pumpStdout, "child-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static ChildJvm start(final Class<?> mainClass, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") ||
                arg.startsWith("--enable-native-access") || arg.startsWith("-Dchronicle"))
            {
                command.add(arg);
            }
        }
        // the parent's counters file came from surefire's system properties, not from its command line
        command.add("-D" + NodeFiles.COUNTERS_FILE_PROPERTY + "=" + NodeFiles.countersFile());
        command.add("-Xmx512m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        // Under the module's target/ (Surefire runs in the module's directory): kept for a failure's reader, gone
        // with the build, never piling up in /tmp.
        final Path stderrLog = Files.createDirectories(Path.of("target", "child-logs"))
            .resolve("pinmx-child-" + mainClass.getSimpleName() + "-" + System.nanoTime() + ".log");
        final Process process = new ProcessBuilder(command)
            .redirectError(stderrLog.toFile())
            .start();
        return new ChildJvm(process, stderrLog);
    }

    long pid()
    {
        return process.pid();
    }

    void send(final String line)
    {
        stdin.println(line);
    }

    /** The next stdout line starting with {@code prefix} (others are skipped), within the timeout. */
    String awaitLine(final String prefix, final long timeoutMs) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true)
        {
            final long leftNs = deadlineNs - System.nanoTime();
            final String line = lines.poll(Math.max(0, leftNs), TimeUnit.NANOSECONDS);
            if (line == null)
            {
                throw new AssertionError("child " + process.pid() + " printed no line starting with '" + prefix +
                    "' within " + timeoutMs + " ms (alive=" + process.isAlive() + ", stderr in " + stderrLog + ")");
            }
            if (line.startsWith(prefix))
            {
                return line.substring(prefix.length()).trim();
            }
        }
    }

    /** Kill the child now (SIGKILL) and wait until it is gone. */
    void kill() throws InterruptedException
    {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            throw new AssertionError("child " + process.pid() + " still alive 30 s after SIGKILL");
        }
    }

    @Override
    public void close()
    {
        stdin.close();
        process.destroyForcibly();
        try
        {
            process.waitFor(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void pumpStdout()
    {
        try (BufferedReader reader = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                lines.add(line);
            }
        }
        catch (final IOException ignored)
        {
            // The child died or was killed: awaitLine reports the missing line.
        }
    }
}
