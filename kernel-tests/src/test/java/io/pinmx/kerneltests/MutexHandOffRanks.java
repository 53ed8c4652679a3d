package io.pinmx.kerneltests;

import io.pinmx.rma.RmaMutexes;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The ranks of {@link PassiveMutexLatency}'s hand-off job ({@link HostedMutexJob}): rank {@value #HOST} hosts one
 * mutex. Once the benchmark stopped it, ranks 0 and 1 run rounds: rank 0 holds the mutex, rank 1 asks for it and
 * waits, rank 0 lets it wait {@value #WAITING_MS} ms (long enough to be parked) and lets go, and starts the next
 * round once rank 1 had the mutex; the hand-off is the time from rank 0's unlock to rank 1's lock returning (one
 * monotonic clock in the guest). A last round holds the mutex
 * {@value #LONG_WAIT_MS} ms while rank 1 counts the CPU its process (every thread, /proc/self/task/N/stat) and its
 * waiting thread use meanwhile, and the threads that used most of it. Rank 0 prints the median, 10th and 90th
 * percentile and the CPU, creates
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
    private static final String RANK_1_THREADS = "rank-1-threads";
    private static final int THREADS_SHOWN = 4;
    private static final long TICKS_PER_SECOND = 100;

    private MutexHandOffRanks()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        HostedMutexJob.run("handoff", Path.of(args[1]), HOST, true, (rma, mutexes, files) ->
        {
            if (0 == rma.rank())
            {
                holder(files, mutexes);
                files.create(PassiveMutexRanks.WORKERS_DONE);
            }
            else
            {
                waiter(files, mutexes);
            }
        });
    }

    private static void holder(final RankFiles files, final RmaMutexes mutexes) throws IOException, InterruptedException
    {
        final long[] unlockedAt = new long[ROUNDS + 1];
        for (int i = -WARM_UP_ROUNDS; i <= ROUNDS; i++)
        {
            mutexes.lock(0, HOST);
            files.create("held-" + i);
            files.await("asking-" + i, "rank 1 did not ask for the mutex");
            Thread.sleep(ROUNDS == i ? LONG_WAIT_MS : WAITING_MS);
            final long now = System.nanoTime();
            mutexes.unlock(0, HOST);
            if (i >= 0)
            {
                unlockedAt[i] = now;
            }
            // Rank 1 says "asking" just before its lock takes a ticket: locking again at once could take the next
            // ticket before it (a slow guest), and then each waits for the other's next step.
            files.await("locked-" + i, "rank 1 did not take the mutex after the unlock");
        }
        files.await(RANK_1_FIGURES, "rank 1 did not write its figures");
        final long[] figures = Stream.of(Files.readString(files.file(RANK_1_FIGURES)).trim().split(" "))
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
        System.out.println("# the waiter's threads that used most of it: " +
            Files.readString(files.file(RANK_1_THREADS)).trim());
    }

    /** Writes, for the holder: each round's lock time, the long wait in ns, its process CPU ms and thread CPU ns. */
    private static void waiter(final RankFiles files, final RmaMutexes mutexes) throws IOException
    {
        final long[] lockedAt = new long[ROUNDS + 1];
        long processCpuMs = 0;
        long threadCpuNs = 0;
        long longWaitNs = 0;
        String busiest = "";
        for (int i = -WARM_UP_ROUNDS; i <= ROUNDS; i++)
        {
            files.await("held-" + i, "rank 0 did not take the mutex");
            final Map<String, Long> threadsBefore = threadTicks();
            final long cpuBefore = processCpuMs();
            final long threadBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            final long askedAt = System.nanoTime();
            files.create("asking-" + i);
            mutexes.lock(0, HOST);
            final long now = System.nanoTime();
            if (ROUNDS == i)
            {
                processCpuMs = processCpuMs() - cpuBefore;
                threadCpuNs = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadBefore;
                longWaitNs = now - askedAt;
                busiest = busiest(threadsBefore, threadTicks());
            }
            mutexes.unlock(0, HOST);
            files.create("locked-" + i);
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
        final Path threadsPart = files.file(RANK_1_THREADS + ".part");
        Files.writeString(threadsPart, busiest);
        Files.move(threadsPart, files.file(RANK_1_THREADS), StandardCopyOption.ATOMIC_MOVE);
        final Path part = files.file(RANK_1_FIGURES + ".part");
        Files.writeString(part, figures.toString());
        Files.move(part, files.file(RANK_1_FIGURES), StandardCopyOption.ATOMIC_MOVE);
    }

    /** @return the CPU (user + system) every thread of this process used so far, in ms. */
    private static long processCpuMs() throws IOException
    {
        long ticks = 0;
        for (final long t : threadTicks().values())
        {
            ticks += t;
        }
        return ticks * 1000 / TICKS_PER_SECOND;
    }

    /** @return each live thread's CPU ticks (user + system), by its name and id ("name/tid"). */
    private static Map<String, Long> threadTicks() throws IOException
    {
        final Map<String, Long> ticks = new HashMap<>();
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
                // the command is in parentheses; after them the state is the 3rd field, utime the 14th, stime the 15th
                final String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                final List<String> fields = List.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
                ticks.put(name + "/" + task.getFileName(), Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12)));
            }
        }
        return ticks;
    }

    /** @return the threads that used the most CPU between the two readings, each with its ms, busiest first. */
    private static String busiest(final Map<String, Long> before, final Map<String, Long> after)
    {
        return after.entrySet().stream()
            .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
            .filter(e -> e.getValue() > 0)
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .limit(THREADS_SHOWN)
            .map(e -> e.getKey() + " " + e.getValue() * 1000 / TICKS_PER_SECOND + " ms")
            .reduce((a, b) -> a + ", " + b)
            .orElse("none");
    }
}
