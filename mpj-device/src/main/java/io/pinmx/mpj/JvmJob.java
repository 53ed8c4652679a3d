package io.pinmx.mpj;

import io.pinmx.job.Job;

/**
 * The job this JVM belongs to, joined at the first MPI.Init and kept until the JVM exits: the bootstrap rendezvous
 * happens once per process, while MPI.Init may come again after MPI.Finalize (each init opens a fresh endpoint over
 * the same control plane). Also counts the inits, which gives each one its epoch.
 */
final class JvmJob
{
    private static Job job;
    private static int inits;

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
     * @return this init's number, 1 for the first in this JVM.
     */
    static synchronized int nextEpoch()
    {
        return ++inits;
    }
}
