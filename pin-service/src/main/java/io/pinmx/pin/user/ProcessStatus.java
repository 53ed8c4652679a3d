package io.pinmx.pin.user;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process of this host still runs, from {@code /proc/PID/stat}: a zombie (killed, not yet reaped) counts
 * as exited, a stopped or starved one as running, and the process start time tells a reused pid from the original.
 */
final class ProcessStatus
{
    /** Start time of a process that does not run. */
    static final long EXITED = -1;

    private ProcessStatus()
    {
    }

    /**
     * @return the process's start time (clock ticks after boot) while it runs, or {@link #EXITED}.
     */
    static long startTime(final int pid)
    {
        if (pid <= 0)
        {
            return EXITED;
        }
        final String stat;
        try
        {
            stat = new String(Files.readAllBytes(Path.of("/proc", Integer.toString(pid), "stat")),
                StandardCharsets.US_ASCII);
        }
        catch (final IOException e)
        {
            return EXITED;
        }
        // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so fields count from the last ')'
        final int commEnd = stat.lastIndexOf(')');
        if (commEnd < 0 || commEnd + 2 >= stat.length())
        {
            return EXITED;
        }
        final String[] fields = stat.substring(commEnd + 2).split(" ");
        final char state = fields[0].isEmpty() ? 'X' : fields[0].charAt(0);
        if (state == 'Z' || state == 'X' || state == 'x' || fields.length < 20)
        {
            return EXITED;
        }
        try
        {
            return Long.parseLong(fields[19]);
        }
        catch (final NumberFormatException e)
        {
            return EXITED;
        }
    }
}
