package io.pinmx.job;

import io.pinmx.pin.select.PinmxVersion;

import java.io.PrintStream;
import java.util.List;

/**
 * What every program answers before it joins a job, as bin/pinmx-run and pinmx-admin do: {@code --help} or
 * {@code -h} prints its usage, {@code --version} the version line ({@link PinmxVersion}), both on stdout; the program
 * then exits with status 0. A bad argument is said once, on stderr, with status 2 ({@link #refuse}).
 */
public final class ProgramArguments
{
    private ProgramArguments()
    {
    }

    /**
     * @param usage the program's usage, starting {@code usage: } and ending with a line end.
     * @return true if {@code args} asked for help or the version and it was printed on {@code out}.
     */
    public static boolean answered(final String[] args, final String usage, final PrintStream out)
    {
        final List<String> given = List.of(args);
        if (given.contains("--help") || given.contains("-h"))
        {
            out.print(usage);
        }
        else if (given.contains("--version"))
        {
            out.println(PinmxVersion.line());
        }
        else
        {
            return false;
        }
        out.flush();
        return true;
    }

    /** As {@link #answered(String[], String, PrintStream)} on {@link System#out}. */
    public static boolean answered(final String[] args, final String usage)
    {
        return answered(args, usage, System.out);
    }

    /**
     * Refuses a bad argument: said once, by rank 0 (or by a process outside a job; every rank parses the same command
     * line), as one line on stderr naming the program, then exit status 2.
     */
    public static void refuse(final String program, final String problem)
    {
        boolean says = true;
        try
        {
            says = 0 == JobRank.fromEnvironment(System.getenv()).rank();
        }
        catch (final IllegalArgumentException outsideAJob)
        {
            // said: nobody else will
        }
        if (says)
        {
            System.err.println(program + ": " + problem + " (" + program + " --help lists the arguments)");
        }
        System.exit(2);
    }
}
