package io.pinmx.pin.provider;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process of this host still runs, from {@code /proc/PID/stat}: a zombie (killed, not yet reaped) counts
 * as exited, a stopped or starved one as running, and the process start time tells a reused pid from the original.
 * {@link #hostIdentity()} names the kernel and pid namespace this process runs in, so two processes can tell that
 * each other's pids mean something here.
 */
public final class ProcessStatus
{
    /** Start time of a process that does not run. */
    public static final long EXITED = -1;
    private static final String HOST_IDENTITY = readHostIdentity();

    private ProcessStatus()
    {
    }

    /**
     * @return the process's start time (clock ticks after boot) while it runs, or {@link #EXITED}.
     */
    public static long startTime(final int pid)
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

    /**
     * @param startTime the start time {@link #startTime} gave for {@code pid} when it was first seen.
     * @return whether that process still runs: the pid is alive and was started at that time (not reused), and it
     *         ran when first seen ({@link #EXITED} never runs).
     */
    public static boolean runs(final int pid, final long startTime)
    {
        return startTime != EXITED && startTime(pid) == startTime;
    }

    /**
     * @return this kernel's boot id and this process's pid namespace, e.g. {@code 3f2a...:4026531836}; processes with
     *         the same identity see each other's pids; empty when /proc does not tell.
     */
    public static String hostIdentity()
    {
        return HOST_IDENTITY;
    }

    private static String readHostIdentity()
    {
        try
        {
            final String bootId = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
            final String pidNamespace = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            return bootId + ":" + pidNamespace.replaceAll("[^0-9]", "");
        }
        catch (final IOException | UnsupportedOperationException e)
        {
            return "";
        }
    }
}
