package io.pinmx.mpj.npb;

import mpi.Intracomm;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * NPB's optional timers for IS: enabled, as in NPB, by a file {@code timer.flag} in the working directory (or
 * {@code NPB_TIMERS=1} in the environment, for launchers that start ranks elsewhere). Each rank sums the time of
 * every timed iteration spent in its own computation and in each collective; rank 0 prints, per stage, the largest
 * and smallest rank's seconds, then each rank's, so a reader sees how much of the run any device could shorten and
 * which rank the others waited for. Off, it costs nothing but a branch per stage.
 */
final class StageTimers
{
    /** The stages of one ranking iteration, in order. */
    enum Stage
    {
        COMPUTE("computation (bucket sort, counting, partial verification)"),
        ALLREDUCE("Allreduce of the bucket counts"),
        ALLTOALL("Alltoall of the send counts"),
        ALLTOALLV("Alltoallv of the keys");

        private final String description;

        Stage(final String description)
        {
            this.description = description;
        }

        /** The stage's short name on a rank's line: the description's first word. */
        String label()
        {
            return description.substring(0, description.indexOf(' '));
        }
    }

    private final boolean enabled;
    private final long[] stageNs = new long[Stage.values().length];
    private boolean counting;
    private long markNs;

    private StageTimers(final boolean enabled)
    {
        this.enabled = enabled;
    }

    /** Enabled by NPB's {@code timer.flag} in the working directory, or by {@code NPB_TIMERS=1}. */
    static StageTimers fromEnvironment()
    {
        return new StageTimers(Files.exists(Path.of("timer.flag")) || "1".equals(System.getenv("NPB_TIMERS")));
    }

    /** Starts counting (the timed iterations): the stages before this are not summed. */
    void start()
    {
        counting = enabled;
        markNs = counting ? System.nanoTime() : 0;
    }

    /** Ends {@code stage}, which ran since the last mark, and starts the next. */
    void mark(final Stage stage)
    {
        if (counting)
        {
            final long nowNs = System.nanoTime();
            stageNs[stage.ordinal()] += nowNs - markNs;
            markNs = nowNs;
        }
    }

    /**
     * Collective: every rank's sums to rank 0, which prints, per stage, the slowest and fastest rank's seconds, then
     * each rank's own line (which rank computed longer, and which waited for it). Does nothing when the timers are
     * off.
     */
    void report(final Intracomm comm)
    {
        if (!enabled)
        {
            return;
        }
        counting = false;
        final int stages = stageNs.length;
        final int ranks = comm.Size();
        final double[] seconds = new double[stages];
        for (int s = 0; s < stages; s++)
        {
            seconds[s] = stageNs[s] / 1e9;
        }
        final double[] all = new double[stages * ranks];
        comm.Gather(seconds, 0, stages, MPI.DOUBLE, all, 0, stages, MPI.DOUBLE, 0);
        if (0 != comm.Rank())
        {
            return;
        }
        System.out.printf("%n Timers (s, summed over the timed iterations: slowest rank / fastest rank)%n");
        for (final Stage stage : Stage.values())
        {
            double most = Double.NEGATIVE_INFINITY;
            double least = Double.POSITIVE_INFINITY;
            for (int r = 0; r < ranks; r++)
            {
                most = Math.max(most, all[r * stages + stage.ordinal()]);
                least = Math.min(least, all[r * stages + stage.ordinal()]);
            }
            System.out.printf(Locale.ROOT, " %-60s %8.4f %8.4f%n", stage.description, most, least);
        }
        for (int r = 0; r < ranks; r++)
        {
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, " rank %d (s):", r));
            for (final Stage stage : Stage.values())
            {
                line.append(String.format(Locale.ROOT, " %s %.4f", stage.label(), all[r * stages + stage.ordinal()]));
            }
            System.out.println(line);
        }
    }
}
