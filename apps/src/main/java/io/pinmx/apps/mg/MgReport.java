package io.pinmx.apps.mg;

import java.io.PrintStream;
import java.util.Locale;

/** NPB's report of an MG run, with the version (serial, one-sided, message-passing) and its transport time. */
final class MgReport
{
    private MgReport()
    {
    }

    static void header(final PrintStream out, final MgClass cls, final int ranks, final String version)
    {
        out.printf(Locale.ROOT, "%n%n NAS Parallel Benchmarks (pinmx, Java) -- MG Benchmark%n%n");
        out.printf(Locale.ROOT, " Size: %dx%dx%d  (class %s)%n", cls.points(), cls.points(), cls.points(), cls);
        out.printf(Locale.ROOT, " Iterations: %d%n", cls.iterations());
        out.printf(Locale.ROOT, " Number of processes: %d%n", ranks);
        out.printf(Locale.ROOT, " Version: %s%n", version);
        out.flush();
    }

    static void print(final PrintStream out, final MgRun run, final String version)
    {
        final MgClass cls = run.cls();
        out.printf(Locale.ROOT, "%n L2 Norm is %.13E%n", run.norm());
        out.printf(Locale.ROOT, " Error is   %.13E%n", Math.abs(run.norm() - cls.verificationNorm()) / cls.verificationNorm());
        out.printf(Locale.ROOT, "%n%n MG Benchmark Completed.%n");
        line(out, "Class", cls.name());
        line(out, "Size", String.format(Locale.ROOT, "%4dx%4dx%4d", cls.points(), cls.points(), cls.points()));
        line(out, "Iterations", Integer.toString(cls.iterations()));
        line(out, "Time in seconds", String.format(Locale.ROOT, "%.4f", run.seconds()));
        line(out, "Transport secs", String.format(Locale.ROOT, "%.4f", run.transportSeconds()));
        line(out, "Total processes", Integer.toString(run.ranks()));
        line(out, "Mop/s total", String.format(Locale.ROOT, "%.2f", run.mops()));
        line(out, "Mop/s/process", String.format(Locale.ROOT, "%.2f", run.mops() / run.ranks()));
        line(out, "Operation type", "floating point");
        line(out, "Version", version);
        line(out, "Verification", run.verified() ? "SUCCESSFUL" : "UNSUCCESSFUL");
        out.flush();
    }

    /**
     * The one-sided ghost exchanges' phases. PUT: puts issued, notifications, waiting to be notified. GET:
     * planes posted in the own slots and neighbours notified, gets, waiting to be notified. Either: progress calls
     * between the planes computed.
     */
    static void exchangePhases(final PrintStream out, final GhostMotion motion, final double[] seconds)
    {
        final boolean puts = GhostMotion.PUT == motion;
        line(out, puts ? "Ghost put secs" : "Ghost post secs", String.format(Locale.ROOT, "%.4f", seconds[0]));
        line(out, puts ? "Ghost notify secs" : "Ghost get secs", String.format(Locale.ROOT, "%.4f", seconds[1]));
        line(out, "Ghost wait secs", String.format(Locale.ROOT, "%.4f", seconds[2]));
        line(out, "Progress secs", String.format(Locale.ROOT, "%.4f", seconds[3]));
        out.flush();
    }

    /**
     * Per level with exchanges, finest last: how many, the bytes a rank moves in each (two planes) and the seconds
     * of their gets (PUT: notify waits) and the longest exchange's, as {@link RmaSlabTransport#levelSeconds()} gives
     * them.
     */
    static void levelPhases(final PrintStream out, final GhostMotion motion, final double[] levels)
    {
        final String what = GhostMotion.PUT == motion ? "wait" : "get";
        final int fields = RmaSlabTransport.LEVEL_FIELDS;
        for (int k = 0; k < levels.length / fields; k++)
        {
            if (levels[fields * k] > 0)
            {
                out.printf(Locale.ROOT, " %-16s= %.0f x %d B %.4f s max %.4f%n", "Level " + k + " " + what + "s",
                    levels[fields * k], 2 * RmaSlabTransport.planeBytes(k), levels[fields * k + 1],
                    levels[fields * k + 2]);
            }
        }
        out.flush();
    }

    private static void line(final PrintStream out, final String name, final String value)
    {
        out.printf(Locale.ROOT, " %-16s=%25s%n", name, value);
    }
}
