package io.pinmx.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What a job's processes were doing when it overran its deadline: each descendant's pid, parent, scheduler state and
 * command line, and the threads of each JVM among them (so a failure message tells a rank stuck in exit from a
 * launcher that missed a rank's end).
 */
final class JobProcesses
{
    private static final int COMMAND_CHARS = 160;
    private static final int THREAD_DUMP_CHARS = 6_000;
    private static final long THREAD_DUMP_TIMEOUT_S = 20;

    private JobProcesses()
    {
    }

    static String describe(final ProcessHandle root)
    {
        final StringBuilder out = new StringBuilder();
        root.descendants().forEach(p ->
        {
            final String command = p.info().commandLine().orElse("?");
            out.append("pid ").append(p.pid()).append(" parent ")
                .append(p.parent().map(ProcessHandle::pid).map(String::valueOf).orElse("?"))
                .append(" state ").append(state(p.pid())).append(": ")
                .append(command, 0, Math.min(command.length(), COMMAND_CHARS)).append('\n');
            if (p.info().command().map(c -> c.endsWith("/java")).orElse(false))
            {
                out.append(threads(p.pid())).append('\n');
            }
        });
        return out.toString();
    }

    /** The state letter of /proc/PID/stat (R, S, D, T, Z...), after the command name in parentheses. */
    private static String state(final long pid)
    {
        try
        {
            final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        }
        catch (final IOException | RuntimeException e)
        {
            return "gone";
        }
    }

    private static String threads(final long pid)
    {
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try
        {
            final Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
                .redirectErrorStream(true).start();
            if (!p.waitFor(THREAD_DUMP_TIMEOUT_S, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
                return "  (jcmd Thread.print did not answer within " + THREAD_DUMP_TIMEOUT_S + " s)";
            }
            final String dump = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return dump.substring(0, Math.min(dump.length(), THREAD_DUMP_CHARS));
        }
        catch (final IOException e)
        {
            return "  (jcmd: " + e.getMessage() + ")";
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return "  (interrupted)";
        }
    }
}
