package io.pinmx.kerneltests;

import io.pinmx.rma.RmaMutexes;
import io.pinmx.rma.RmaOptions;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * The ranks of {@link PassiveMutexLatency} ({@link HostedMutexJob}): rank 1 hosts one mutex; rank 0, once the host is
 * stopped (mode {@code stopped}) or at once (mode {@code running}), times uncontended lock + unlock rounds of it,
 * prints their median and spread, and creates {@value PassiveMutexRanks#WORKERS_DONE}. Prints "PASSED latency" on
 * rank 0. Arguments: {@code latency DIRECTORY MODE}.
 */
public final class MutexLatencyRanks
{
    private static final int HOST = 1;
    private static final int WARM_UP_ROUNDS = 20;
    private static final int ROUNDS = 200;

    private MutexLatencyRanks()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final boolean stopped = "stopped".equals(args[2]);
        HostedMutexJob.run("latency", Path.of(args[1]), HOST, stopped, (rma, mutexes, files) ->
        {
            final long[] ns = lockUnlockNs(mutexes);
            final String through = "0".equals(System.getenv(RmaOptions.DRIVER_WRITES_VARIABLE)) ? "its data server" :
                "its driver";
            System.out.printf("# lock + unlock, host %s, mutex through %s: median %.1f us (p10 %.1f, p90 %.1f) " +
                "of %d%n", stopped ? "stopped" : "running", through, ns[ROUNDS / 2] / 1e3, ns[ROUNDS / 10] / 1e3,
                ns[ROUNDS * 9 / 10] / 1e3, ROUNDS);
            files.create(PassiveMutexRanks.WORKERS_DONE);
        });
    }

    /** @return each timed round's lock + unlock, sorted. */
    private static long[] lockUnlockNs(final RmaMutexes mutexes)
    {
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
        return ns;
    }
}
