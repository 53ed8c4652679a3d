package io.pinmx.kerneltests;

import io.pinmx.rma.RmaOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Benchmark (a program, run in the guest by {@code kernel-tests/bench/mutex-latency.sh}): the latency of an
 * uncontended lock + unlock of a mutex on another rank over {@code lo} on pinmx.ko, in three jobs of 2 rank JVMs
 * ({@link KernelRmaJob}, {@link MutexLatencyRanks}) one after another in one boot: the host a passive target and
 * stopped with SIGSTOP (tickets and hand-offs through its driver), the same host running, and a host that is not
 * passive (its data server grants the mutex); then a job of 3 ranks whose host is stopped while one rank hands the
 * mutex to another that waits for it ({@link MutexHandOffRanks}: the hand-off's latency and the CPU a waiter uses).
 * Each job prints its median, 10th and 90th percentile. Argument: a scratch directory.
 */
public final class PassiveMutexLatency
{
    private static final long JOB_DEADLINE_S = 900;
    private static final String PEER_TIMEOUT_MS = "600000";

    private PassiveMutexLatency()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path dir = Files.createDirectories(Path.of(args[0]));
        job(dir.resolve("stopped"), "1", true);
        job(dir.resolve("passive-running"), "1", false);
        job(dir.resolve("server-running"), "0", false);
        handOffJob(dir.resolve("hand-off"));
    }

    private static void handOffJob(final Path dir) throws Exception
    {
        Files.createDirectories(dir);
        System.out.println("# " + RmaOptions.DRIVER_WRITES_VARIABLE + "=1, 3 ranks, host stopped, hand-offs");
        new KernelRmaJob(dir, MutexHandOffRanks.class.getName(), List.of("handoff", dir.toString()), JOB_DEADLINE_S,
            PEER_TIMEOUT_MS).ranks(3).environment(RmaOptions.DRIVER_WRITES_VARIABLE, "1")
            .whileRanksRun(ranks -> stopWhileTimed(dir, ranks.get(2))).runOverLoopback();
    }

    private static void job(final Path dir, final String driverWrites, final boolean stop) throws Exception
    {
        Files.createDirectories(dir);
        System.out.println("# " + RmaOptions.DRIVER_WRITES_VARIABLE + "=" + driverWrites + ", host " +
            (stop ? "stopped" : "running"));
        final KernelRmaJob job = new KernelRmaJob(dir, MutexLatencyRanks.class.getName(),
            List.of("latency", dir.toString(), stop ? "stopped" : "running"), JOB_DEADLINE_S, PEER_TIMEOUT_MS)
            .environment(RmaOptions.DRIVER_WRITES_VARIABLE, driverWrites);
        if (stop)
        {
            job.whileRunning((rank0, host) -> stopWhileTimed(dir, host));
        }
        job.runOverLoopback();
    }

    private static void stopWhileTimed(final Path dir, final Process host) throws IOException, InterruptedException
    {
        awaitFile(dir.resolve(PassiveMutexRanks.HOST_READY));
        StoppedProcesses.stop(host.pid());
        try
        {
            Files.createFile(dir.resolve(PassiveMutexRanks.HOST_STOPPED));
            awaitFile(dir.resolve(PassiveMutexRanks.WORKERS_DONE));
            if (!StoppedProcesses.allThreadsStopped(host.pid()))
            {
                throw new IllegalStateException("the host ran while rank 0 timed its mutex");
            }
        }
        finally
        {
            StoppedProcesses.resume(host.pid());
        }
    }

    private static void awaitFile(final Path file) throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + JOB_DEADLINE_S * 1_000_000_000L;
        while (!Files.exists(file))
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IOException("no " + file + " within the deadline");
            }
            Thread.sleep(20);
        }
    }
}
