package io.pinmx.kerneltests;

import io.pinmx.job.Job;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaMutexes;
import io.pinmx.rma.RmaOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The ranks of {@link PassiveMutexLatency}: rank 1 hosts one mutex, says it is ready (file
 * {@value PassiveMutexRanks#HOST_READY}) and waits in a barrier; rank 0, once the host is stopped (mode
 * {@code stopped}: file {@value PassiveMutexRanks#HOST_STOPPED}) or at once (mode {@code running}), times
 * uncontended lock + unlock rounds of it, prints their median and spread, and creates
 * {@value PassiveMutexRanks#WORKERS_DONE}. Prints "PASSED latency" on rank 0. Arguments: {@code latency DIRECTORY MODE}.
 */
public final class MutexLatencyRanks
{
    private static final int HOST = 1;
    private static final int WARM_UP_ROUNDS = 20;
    private static final int ROUNDS = 200;
    private static final long FILE_DEADLINE_NS = TimeUnit.SECONDS.toNanos(900);

    private MutexLatencyRanks()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path dir = Path.of(args[1]);
        final boolean stopped = "stopped".equals(args[2]);
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job))
        {
            final RmaMutexes mutexes = rma.locks().createMutexes(HOST == rma.rank() ? 1 : 0);
            rma.barrier();
            if (HOST == rma.rank())
            {
                Files.createFile(dir.resolve(PassiveMutexRanks.HOST_READY));
            }
            else
            {
                if (stopped)
                {
                    awaitFile(dir.resolve(PassiveMutexRanks.HOST_STOPPED));
                }
                final long[] ns = new long[ROUNDS];
                for (int i = -WARM_UP_ROUNDS; i < ROUNDS; i++)
                {
                    final long started = System.nanoTime();
                    mutexes.lock(0, HOST);
                    mutexes.unlock(0, HOST);
                    if (i >= 0)
                    {
                        ns[i] = System.nanoTime() - started;
                    }
                }
                Arrays.sort(ns);
                System.out.printf("# lock + unlock, host %s, mutex through %s: median %.1f us (p10 %.1f, p90 %.1f) " +
                    "of %d%n", stopped ? "stopped" : "running",
                    "1".equals(System.getenv(RmaOptions.DRIVER_WRITES_VARIABLE)) ? "its driver" : "its data server", ns[ROUNDS / 2] / 1e3, ns[ROUNDS / 10] / 1e3,
                    ns[ROUNDS * 9 / 10] / 1e3, ROUNDS);
                Files.createFile(dir.resolve(PassiveMutexRanks.WORKERS_DONE));
            }
            rma.barrier();
            rma.locks().destroyMutexes(mutexes);
            if (0 == rma.rank())
            {
                System.out.println("PASSED latency");
            }
        }
    }

    private static void awaitFile(final Path file) throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + FILE_DEADLINE_NS;
        while (!Files.exists(file))
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IOException("no " + file + " within the deadline");
            }
            Thread.sleep(10);
        }
    }
}
