package io.pinmx.mpj;

import io.pinmx.job.Job;
import io.pinmx.job.RankBinding;

/**
 * The job this JVM belongs to, joined at the first MPI.Init and kept until the JVM exits: the bootstrap rendezvous
 * happens once per process, while MPI.Init may come again after MPI.Finalize (each init opens a fresh endpoint over
 * the same control plane). Also counts the inits, which gives each one its epoch, and binds the rank's thread to its
 * CPU once when asked, for the JVM's life, as an MPI launcher binds a rank's process.
 */
final class JvmJob
{
    private static Job job;
    private static int inits;
    private static RankBinding binding;

    private JvmJob()
    {
    }

    static synchronized Job job()
    {
        if (null == job)
        {
            job = Job.join(System.getenv());
        }
        return job;
    }

    /**
     * Binds the calling thread (the one that called MPI.Init, whose waits poll the endpoint) to this rank's CPU when
     * PINMX_BIND=core asks for it ({@link RankBinding#bindWhenAsked}: unset means unbound), the first time only.
     *
     * @throws IllegalArgumentException naming PINMX_BIND if it is neither core nor none.
     */
    static synchronized void bindRankThread(final Job job)
    {
        if (null == binding)
        {
            binding = RankBinding.bindWhenAsked(job.rank(), job.size(), System.getenv());
        }
    }

    /**
     * @return this init's number, 1 for the first in this JVM.
     */
    static synchronized int nextEpoch()
    {
        return ++inits;
    }
}
