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
 * and smallest rank's seconds, so a reader sees how much of the run any device could shorten. Off, it costs nothing
 * but a branch per stage.
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

    /** Collective: every rank's sums to rank 0, which prints them. Does nothing when the timers are off. */
    void report(final Intracomm comm)
    {
        if (!enabled)
        {
            return;
        }
        counting = false;
        final int stages = stageNs.length;
        final double[] seconds = new double[stages];
        for (int s = 0; s < stages; s++)
        {
            seconds[s] = stageNs[s] / 1e9;
        }
        final double[] most = new double[stages];
        final double[] least = new double[stages];
        comm.Reduce(seconds, 0, most, 0, stages, MPI.DOUBLE, MPI.MAX, 0);
        comm.Reduce(seconds, 0, least, 0, stages, MPI.DOUBLE, MPI.MIN, 0);
        if (0 == comm.Rank())
        {
            System.out.printf("%n Timers (s, summed over the timed iterations: slowest rank / fastest rank)%n");
            for (final Stage stage : Stage.values())
            {
                System.out.printf(Locale.ROOT, " %-60s %8.4f %8.4f%n", stage.description,
                    most[stage.ordinal()], least[stage.ordinal()]);
            }
        }
    }
}
