package io.pinmx.kerneltests;

import io.pinmx.rma.RmaOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark (a program, run in the guest by {@code kernel-tests/bench/mutex-latency.sh}): the latency of an
 * uncontended lock + unlock of a mutex on another rank over {@code lo} on pinmx.ko, in three jobs of 2 rank JVMs
 * ({@link KernelRmaJob}, {@link MutexLatencyRanks}) one after another in one boot: the host a passive target and
 * stopped with SIGSTOP (tickets and hand-offs through its driver), the same host running, and a host that is not
 * passive (its data server grants the mutex); then a job of 3 ranks whose host is stopped while one rank hands the
 * mutex to another that waits for it ({@link MutexHandOffRanks}: the hand-off's latency and the CPU a waiter uses).
 * Each job prints its median, 10th and 90th percentile. Arguments: a scratch directory, then {@code handoff} to run
 * the hand-off job alone, and its file deadline in seconds (default {@value #JOB_DEADLINE_S}). A hand-off job whose
 * ranks do not finish in time prints the running ranks' thread dumps (SIGQUIT) before it fails.
 */
public final class PassiveMutexLatency
{
    private static final long JOB_DEADLINE_S = 900;
    private static final String PEER_TIMEOUT_MS = "600000";
    private static final long DUMP_DEADLINE_NS = TimeUnit.SECONDS.toNanos(60);

    private PassiveMutexLatency()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path dir = Files.createDirectories(Path.of(args[0]));
        if (args.length > 1 && "handoff".equals(args[1]))
        {
            handOffJob(dir.resolve("hand-off"), args.length > 2 ? Long.parseLong(args[2]) : JOB_DEADLINE_S);
            return;
        }
        job(dir.resolve("stopped"), "1", true);
        job(dir.resolve("passive-running"), "1", false);
        job(dir.resolve("server-running"), "0", false);
        handOffJob(dir.resolve("hand-off"), JOB_DEADLINE_S);
    }

    private static void handOffJob(final Path dir, final long deadlineS) throws Exception
    {
        Files.createDirectories(dir);
        System.out.println("# " + RmaOptions.DRIVER_WRITES_VARIABLE + "=1, 3 ranks, host stopped, hand-offs");
        new KernelRmaJob(dir, MutexHandOffRanks.class.getName(), List.of("handoff", dir.toString()), deadlineS,
            PEER_TIMEOUT_MS).ranks(3).environment(RmaOptions.DRIVER_WRITES_VARIABLE, "1")
            .whileRanksRun(ranks ->
            {
                try
                {
                    stopWhileTimed(dir, ranks.get(2), deadlineS);
                }
                catch (final IOException late)
                {
                    printThreadDumps(dir, ranks);
                    throw late;
                }
            }).runOverLoopback();
    }

    /** Has each rank print its threads (SIGQUIT: to its stdout, the job's rank file) and prints them here. */
    private static void printThreadDumps(final Path dir, final List<Process> ranks)
        throws IOException, InterruptedException
    {
        for (int r = 0; r < ranks.size(); r++)
        {
            final Path out = dir.resolve("rank" + r + ".out");
            NetworkNamespaces.run("kill", "-QUIT", Long.toString(ranks.get(r).pid()));
            final long deadline = System.nanoTime() + DUMP_DEADLINE_NS;
            // the JVM ends a thread dump with its JNI reference counts
            while (!Files.readString(out).contains("JNI global refs") && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(100);
            }
            final int rank = r;
            Files.readString(out).lines().forEach(line -> System.out.println("# rank " + rank + " dump: " + line));
        }
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
            job.whileRunning((rank0, host) -> stopWhileTimed(dir, host, JOB_DEADLINE_S));
        }
        job.runOverLoopback();
    }

    private static void stopWhileTimed(final Path dir, final Process host, final long deadlineS)
        throws IOException, InterruptedException
    {
        final RankFiles files = new RankFiles(dir, deadlineS);
        files.await(PassiveMutexRanks.HOST_READY, "the host did not get ready");
        StoppedProcesses.stop(host.pid());
        try
        {
            files.create(PassiveMutexRanks.HOST_STOPPED);
            files.await(PassiveMutexRanks.WORKERS_DONE, "the other ranks did not finish");
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
}
