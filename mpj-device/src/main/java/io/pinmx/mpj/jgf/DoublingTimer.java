package io.pinmx.mpj.jgf;

import mpi.Intracomm;
import mpi.MPI;

/**
 * The suite's timing rule for section 1: run the operation 1, 2, 4, ... times until one run lasts at least the
 * target time (rank 0's clock, broadcast so every rank stops together) or reaches the repetition cap; a collective is
 * followed by a barrier each time, and the time of as many bare barriers is subtracted from the last run.
 */
final class DoublingTimer
{
    /** The suite's cap on repetitions of one run. */
    static final int MAX_REPETITIONS = 1_000_000;

    /** What one measurement found: the last run's repetitions and its seconds, barriers subtracted. */
    record Measurement(int repetitions, double seconds)
    {
    }

    private final double targetSeconds;

    DoublingTimer(final double targetSeconds)
    {
        this.targetSeconds = targetSeconds;
    }

    Measurement measure(final Intracomm comm, final Section1Kernel kernel, final Payload payload)
    {
        final double[] seconds = {0.0};
        int repetitions = 1;
        int last = 1;
        while (seconds[0] < targetSeconds && repetitions < MAX_REPETITIONS)
        {
            comm.Barrier();
            final long startNs = System.nanoTime();
            for (int i = 0; i < repetitions; i++)
            {
                kernel.once(comm, payload);
                if (kernel.isCollective())
                {
                    comm.Barrier();
                }
            }
            seconds[0] = (System.nanoTime() - startNs) / 1e9;
            comm.Barrier();
            comm.Bcast(seconds, 0, 1, MPI.DOUBLE, 0);
            last = repetitions;
            repetitions *= 2;
        }
        if (!kernel.isCollective())
        {
            return new Measurement(last, seconds[0]);
        }
        comm.Barrier();
        final long barriersStartNs = System.nanoTime();
        for (int i = 0; i < last; i++)
        {
            comm.Barrier();
        }
        final double[] barrierSeconds = {(System.nanoTime() - barriersStartNs) / 1e9};
        comm.Bcast(barrierSeconds, 0, 1, MPI.DOUBLE, 0);
        return new Measurement(last, seconds[0] - barrierSeconds[0]);
    }
}
