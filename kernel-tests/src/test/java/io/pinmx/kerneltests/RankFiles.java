package io.pinmx.kerneltests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The files in a job's scratch directory by which a kernel test or benchmark and its rank JVMs tell each other how far
 * they got (a rank ready, a rank stopped, a round begun): one side creates a file, the other polls for it, or for its
 * removal, until a deadline. Files rather than the job's collectives, because the test is not a rank and a rank may
 * be stopped with SIGSTOP meanwhile.
 */
final class RankFiles
{
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Path dir;
    private final long deadlineNs;

    /** @param deadlineSeconds how long each wait may take before it fails. */
    RankFiles(final Path dir, final long deadlineSeconds)
    {
        this.dir = dir;
        this.deadlineNs = TimeUnit.SECONDS.toNanos(deadlineSeconds);
    }

    Path file(final String name)
    {
        return dir.resolve(name);
    }

    /** @throws IOException if the file is there already (each says one thing once) or cannot be made. */
    void create(final String name) throws IOException
    {
        Files.createFile(dir.resolve(name));
    }

    boolean exists(final String name)
    {
        return Files.exists(dir.resolve(name));
    }

    /**
     * Waits until the file is there.
     *
     * @param late who did not get there if it never comes, for the message.
     * @throws IOException naming the file, the deadline and {@code late} once the deadline passed.
     */
    void await(final String name, final String late) throws IOException
    {
        awaitState(name, true, late);
    }

    /**
     * Waits until the file is gone.
     *
     * @param late who did not get there if it stays, for the message.
     * @throws IOException naming the file, the deadline and {@code late} once the deadline passed.
     */
    void awaitGone(final String name, final String late) throws IOException
    {
        awaitState(name, false, late);
    }

    private void awaitState(final String name, final boolean present, final String late) throws IOException
    {
        final Path file = dir.resolve(name);
        final long deadline = System.nanoTime() + deadlineNs;
        while (Files.exists(file) != present)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IOException(file + (present ? " not there" : " still there") + " after " +
                    TimeUnit.NANOSECONDS.toSeconds(deadlineNs) + " s: " + late);
            }
            LockSupport.parkNanos(POLL_NS);
        }
    }
}
