package io.pinmx.kerneltests;

import io.pinmx.job.Job;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaMutexes;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What the mutex benchmarks' rank programs ({@link MutexLatencyRanks}, {@link MutexHandOffRanks}) share: one rank
 * hosts one mutex, says it is ready (file {@value PassiveMutexRanks#HOST_READY}) and waits in a barrier, where the
 * benchmark may stop it; every other rank, once the host is stopped (file {@value PassiveMutexRanks#HOST_STOPPED}) if
 * the job asks for that, runs its part; then all meet in a barrier, the mutex is destroyed and rank 0 prints
 * "PASSED scenario".
 */
final class HostedMutexJob
{
    /** File waits: a loaded host's TCG guest takes minutes for what an idle one does in seconds. */
    static final long FILE_DEADLINE_S = 900;

    /** A rank's part while the host waits. */
    @FunctionalInterface
    interface Part
    {
        void run(Rma rma, RmaMutexes mutexes, RankFiles files) throws IOException, InterruptedException;
    }

    private HostedMutexJob()
    {
    }

    /**
     * @param dir         the job's scratch directory.
     * @param hostStopped whether the other ranks wait until the benchmark stopped the host.
     */
    static void run(final String scenario, final Path dir, final int host, final boolean hostStopped, final Part part)
        throws IOException, InterruptedException
    {
        final RankFiles files = new RankFiles(dir, FILE_DEADLINE_S);
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job))
        {
            final RmaMutexes mutexes = rma.locks().createMutexes(host == rma.rank() ? 1 : 0);
            rma.barrier();
            if (host == rma.rank())
            {
                files.create(PassiveMutexRanks.HOST_READY);
            }
            else
            {
                if (hostStopped)
                {
                    files.await(PassiveMutexRanks.HOST_STOPPED, "the benchmark did not stop the host");
                }
                part.run(rma, mutexes, files);
            }
            rma.barrier();
            rma.locks().destroyMutexes(mutexes);
            if (0 == rma.rank())
            {
                System.out.println("PASSED " + scenario);
            }
        }
    }
}
