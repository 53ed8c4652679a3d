package io.pinmx.mx;

import io.pinmx.pin.node.NodeFiles;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.EndpointAddress;

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
 * A {@link PeerMain} in its own JVM (same java, classpath and flags as the test's), driven line
 * by line. Closing it kills the process whatever state it is in.
 */
final class PeerProcess implements AutoCloseable
{
    private final Process process;
    private final PrintWriter stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path stderrLog;
    final EndpointAddress address;

    private PeerProcess(final Process process, final Path stderrLog) throws InterruptedException
    {
        this.process = process;
        this.stderrLog = stderrLog;
        this.stdin = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        final Thread reader = new Thread(this::pumpStdout, "peer-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        final String[] w = awaitLine("ADDRESS", 60_000).split(" ");
        address = new EndpointAddress(BoardAddress.parse(w[1]), Integer.parseInt(w[2]), 0);
    }

    static PeerProcess start(
        final int endpointIndex, final int key, final boolean sameHost, final double loss,
        final long resendTimeoutMs, final int maxResends) throws IOException, InterruptedException
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
        command.add("-Xmx1g");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PeerMain.class.getName());
        command.add(Integer.toString(endpointIndex));
        command.add(Integer.toString(key));
        command.add(Boolean.toString(sameHost));
        command.add(Double.toString(loss));
        command.add(Long.toString(resendTimeoutMs));
        command.add(Integer.toString(maxResends));
        // Under the module's target/ (Surefire runs in the module's directory): kept for a failure's reader, gone
        // with the build, never piling up in /tmp.
        final Path log = Files.createTempFile(Files.createDirectories(Path.of("target", "peer-logs")), "pinmx-peer-",
            ".log");
        final Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        return new PeerProcess(process, log);
    }

    void send(final String line)
    {
        stdin.println(line);
    }

    /**
     * @return the next line starting with the prefix; an ERROR line or the deadline fails the test with it.
     */
    String awaitLine(final String prefix, final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true)
        {
            final String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (null == line)
            {
                throw new AssertionError("peer " + process.pid() + " printed no '" + prefix + "' line within " +
                    timeoutMs + " ms (alive=" + process.isAlive() + ", stderr in " + stderrLog + ")");
            }
            if (line.startsWith(prefix))
            {
                return line;
            }
            if (line.startsWith("ERROR"))
            {
                throw new AssertionError("peer " + process.pid() + " failed: " + line + " (stderr in " + stderrLog + ")");
            }
        }
    }

    String command(final String line, final String replyPrefix, final long timeoutMs) throws InterruptedException
    {
        send(line);
        return awaitLine(replyPrefix, timeoutMs);
    }

    void kill()
    {
        process.destroyForcibly();
        try
        {
            process.waitFor(30, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    long pid()
    {
        return process.pid();
    }

    private void pumpStdout()
    {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while (null != (line = r.readLine()))
            {
                lines.add(line);
            }
        }
        catch (final IOException ignored)
        {
            // the process is gone; awaitLine reports it by its deadline
        }
    }

    public void close()
    {
        if (process.isAlive())
        {
            send("EXIT");
            try
            {
                if (process.waitFor(5, TimeUnit.SECONDS))
                {
                    return;
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            kill();
        }
    }
}
