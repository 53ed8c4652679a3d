package io.pinmx.mpj;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads of the test's JVM that keep every CPU busy while a job runs, so that its ranks are descheduled as on a
 * loaded host: each spins until {@link #close}, which waits for them to end.
 */
final class CpuHogs implements AutoCloseable
{
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;
    /** Written so that the spin cannot be optimised away. */
    private volatile long sink;

    /**
     * @param perCpu busy threads per CPU this JVM may use.
     */
    CpuHogs(final int perCpu)
    {
        final int count = perCpu * Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < count; i++)
        {
            final Thread t = Thread.ofPlatform().daemon().name("cpu-hog-" + i).start(this::spin);
            threads.add(t);
        }
    }

    private void spin()
    {
        long x = 1;
        while (running)
        {
            for (int i = 0; i < 100_000; i++)
            {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }

    @Override
    public void close() throws InterruptedException
    {
        running = false;
        for (final Thread t : threads)
        {
            t.join();
        }
    }
}
