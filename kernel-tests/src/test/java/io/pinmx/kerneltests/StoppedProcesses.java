package io.pinmx.kerneltests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stopping a process with SIGSTOP until every one of its threads is in state T, and letting it go on. */
final class StoppedProcesses
{
    private static final long STOP_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    private StoppedProcesses()
    {
    }

    /** Sends SIGSTOP and waits until every thread of the process is stopped (state T in /proc). */
    static void stop(final long pid) throws IOException, InterruptedException
    {
        signal("STOP", pid);
        final long deadline = System.nanoTime() + STOP_TIMEOUT_NS;
        while (!allThreadsStopped(pid))
        {
            assertTrue(System.nanoTime() - deadline < 0, "process " + pid + " did not stop within the deadline");
            Thread.onSpinWait();
        }
    }

    /** Sends SIGCONT. */
    static void resume(final long pid) throws IOException, InterruptedException
    {
        signal("CONT", pid);
    }

    static boolean allThreadsStopped(final long pid) throws IOException
    {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task")))
        {
            return tasks.allMatch(task ->
            {
                try
                {
                    final String stat = Files.readString(task.resolve("stat"));
                    return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
                }
                catch (final IOException e)
                {
                    // a thread that ended while listed
                    return true;
                }
            });
        }
    }

    private static void signal(final String name, final long pid) throws IOException, InterruptedException
    {
        NetworkNamespaces.run("kill", "-" + name, Long.toString(pid));
    }
}
