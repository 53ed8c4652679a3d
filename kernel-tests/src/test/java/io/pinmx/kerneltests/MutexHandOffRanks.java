package io.pinmx.kerneltests;

import io.pinmx.job.Job;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaMutexes;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The ranks of {@link PassiveMutexLatency}'s hand-off job: rank {@value #HOST} hosts one mutex, says it is ready (file
 * {@value PassiveMutexRanks#HOST_READY}) and waits in a barrier, where the benchmark stops it. Once it is stopped (file
 * {@value PassiveMutexRanks#HOST_STOPPED}) ranks 0 and 1 run rounds: rank 0 holds the mutex, rank 1 asks for it and
 * waits, rank 0 lets it wait {@value #WAITING_MS} ms (long enough to be parked) and lets go; the hand-off is the time
 * from rank 0's unlock to rank 1's lock returning (one monotonic clock in the guest). A last round holds the mutex
 * {@value #LONG_WAIT_MS} ms while rank 1 counts the CPU its process (every thread, /proc/self/task/N/stat) and its
 * waiting thread use meanwhile. Rank 0 prints the median, 10th and 90th percentile and the CPU, creates
 * {@value PassiveMutexRanks#WORKERS_DONE}, and prints "PASSED handoff". Arguments: {@code handoff DIRECTORY}.
 */
public final class MutexHandOffRanks
{
    private static final int HOST = 2;
    private static final int WARM_UP_ROUNDS = 5;
    private static final int ROUNDS = 40;
    private static final long WAITING_MS = 20;
    private static final long LONG_WAIT_MS = 5_000;
    private static final String RANK_1_FIGURES = "rank-1-figures";
    private static final long FILE_DEADLINE_NS = TimeUnit.SECONDS.toNanos(900);
    private static final long FILE_POLL_MS = 1;

    private MutexHandOffRanks()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path dir = Path.of(args[1]);
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
                awaitFile(dir.resolve(PassiveMutexRanks.HOST_STOPPED));
                if (0 == rma.rank())
                {
                    holder(dir, mutexes);
                    Files.createFile(dir.resolve(PassiveMutexRanks.WORKERS_DONE));
                }
                else
                {
                    waiter(dir, mutexes);
                }
            }
            rma.barrier();
            rma.locks().destroyMutexes(mutexes);
            if (0 == rma.rank())
            {
                System.out.println("PASSED handoff");
            }
        }
    }

    private static void holder(final Path dir, final RmaMutexes mutexes) throws IOException, InterruptedException
    {
        final long[] unlockedAt = new long[ROUNDS + 1];
        for (int i = -WARM_UP_ROUNDS; i <= ROUNDS; i++)
        {
            mutexes.lock(0, HOST);
            Files.createFile(dir.resolve("held-" + i));
            awaitFile(dir.resolve("asking-" + i));
            Thread.sleep(ROUNDS == i ? LONG_WAIT_MS : WAITING_MS);
            final long now = System.nanoTime();
            mutexes.unlock(0, HOST);
            if (i >= 0)
            {
                unlockedAt[i] = now;
            }
        }
        awaitFile(dir.resolve(RANK_1_FIGURES));
        final long[] figures = Stream.of(Files.readString(dir.resolve(RANK_1_FIGURES)).trim().split(" "))
            .mapToLong(Long::parseLong).toArray();
        final long[] ns = new long[ROUNDS];
        for (int i = 0; i < ROUNDS; i++)
        {
            ns[i] = figures[i] - unlockedAt[i];
        }
        Arrays.sort(ns);
        System.out.printf("# hand-off to a parked waiter, host stopped: median %.1f us (p10 %.1f, p90 %.1f) of %d%n",
            ns[ROUNDS / 2] / 1e3, ns[ROUNDS / 10] / 1e3, ns[ROUNDS * 9 / 10] / 1e3, ROUNDS);
        System.out.printf("# a waiter of %.1f s used %d ms of CPU in its process, %.1f ms in its waiting thread%n",
            figures[ROUNDS + 1] / 1e9, figures[ROUNDS + 2],
            figures[ROUNDS + 3] / 1e6);
    }

    /** Writes, for the holder: each round's lock time, the long wait in ns, its process CPU ms and thread CPU ns. */
    private static void waiter(final Path dir, final RmaMutexes mutexes) throws IOException, InterruptedException
    {
        final long[] lockedAt = new long[ROUNDS + 1];
        long processCpuMs = 0;
        long threadCpuNs = 0;
        long longWaitNs = 0;
        for (int i = -WARM_UP_ROUNDS; i <= ROUNDS; i++)
        {
            awaitFile(dir.resolve("held-" + i));
            final long cpuBefore = processCpuMs();
            final long threadBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            final long askedAt = System.nanoTime();
            Files.createFile(dir.resolve("asking-" + i));
            mutexes.lock(0, HOST);
            final long now = System.nanoTime();
            if (ROUNDS == i)
            {
                processCpuMs = processCpuMs() - cpuBefore;
                threadCpuNs = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadBefore;
                longWaitNs = now - askedAt;
            }
            mutexes.unlock(0, HOST);
            if (i >= 0)
            {
                lockedAt[i] = now;
            }
        }
        final StringBuilder figures = new StringBuilder();
        for (final long t : lockedAt)
        {
            figures.append(t).append(' ');
        }
        figures.append(longWaitNs).append(' ');
        figures.append(processCpuMs).append(' ').append(threadCpuNs);
        final Path part = dir.resolve(RANK_1_FIGURES + ".part");
        Files.writeString(part, figures.toString());
        Files.move(part, dir.resolve(RANK_1_FIGURES), StandardCopyOption.ATOMIC_MOVE);
    }

    /** @return the CPU (user + system) every thread of this process used so far, in ms. */
    private static long processCpuMs() throws IOException
    {
        final long ticksPerSecond = 100;
        long ticks = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks.toList())
            {
                final String stat;
                try
                {
                    stat = Files.readString(task.resolve("stat"));
                }
                catch (final IOException gone)
                {
                    continue;
                }
                // fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th
                final List<String> fields = List.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
                ticks += Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12));
            }
        }
        return ticks * 1000 / ticksPerSecond;
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
            Thread.sleep(FILE_POLL_MS);
        }
    }
}
