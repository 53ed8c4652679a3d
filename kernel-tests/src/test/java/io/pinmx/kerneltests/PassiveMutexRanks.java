package io.pinmx.kerneltests;

import io.pinmx.job.Job;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaMutexes;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The ranks of {@link RmaPassiveMutexKernelTest}: rank {@value #HOST}, the host, creates two mutexes and a counter
 * slice, says it is ready (file {@value #HOST_READY}) and waits in a barrier, where the test stops it. Ranks 0 and 1,
 * once file {@value #HOST_STOPPED} is there, each run {@value #CYCLES} cycles of taking mutex 0 (by {@code lock}, or
 * by {@code tryLock} until it holds), a get and a put of the counter it guards plus one, and letting go, then
 * {@value #RANGE_CYCLES} such cycles under an address-range lock of another counter; rank 0 holds mutex 1 while rank
 * 1's {@code tryLock} of it must fail and its {@code lock} waits for the hand-off, after which it must see the word
 * rank 0 put before letting go; an unlock of a mutex rank 0 does not hold is refused naming it. Rank 0 then times uncontended lock + unlock rounds, creates
 * {@value #WORKERS_DONE}, and once the test let the host go on (removing {@value #HOST_STOPPED}) times them again.
 * After a barrier both counters must be exact, as the host reads them and as rank 0 gets them. Prints "PASSED mutex"
 * on rank 0; exits 1 (the cause on stderr) on any rank otherwise. Arguments: {@code mutex DIRECTORY}.
 */
public final class PassiveMutexRanks
{
    static final int HOST = 2;
    static final String HOST_READY = "host-ready";
    static final String HOST_STOPPED = "host-stopped";
    static final String WORKERS_DONE = "workers-done";
    static final int CYCLES = 40;
    static final int RANGE_CYCLES = 15;
    private static final String HELD = "mutex-1-held";
    private static final String TRIED = "mutex-1-tried";
    private static final String RANK_1_DONE = "rank-1-done";
    private static final long COUNTER_OFFSET = 0;
    private static final long RANGE_COUNTER_OFFSET = 64;
    private static final long HAND_OFF_OFFSET = 128;
    private static final long HAND_OFF_MARK = 7;
    private static final long COUNTERS_BYTES = 4096;
    private static final int LATENCY_ROUNDS = 100;
    private static final long FILE_DEADLINE_S = 900;

    private PassiveMutexRanks()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final RankFiles files = new RankFiles(Path.of(args[1]), FILE_DEADLINE_S);
        try (Job job = Job.join(System.getenv()); Rma rma = Rma.init(job))
        {
            final boolean host = HOST == rma.rank();
            final RmaMutexes mutexes = rma.locks().createMutexes(host ? 2 : 0);
            final RmaAllocation counters = rma.alloc(host ? COUNTERS_BYTES : 0);
            rma.barrier();
            if (host)
            {
                files.create(HOST_READY);
            }
            else
            {
                files.await(HOST_STOPPED, "the test did not stop the host");
                cycles(rma, mutexes, counters);
                if (0 == rma.rank())
                {
                    handOffAndRefusals(rma, mutexes, counters, files);
                    files.await(RANK_1_DONE, "rank 1 did not finish its cycles");
                    final long stoppedNs = lockUnlockMedianNs(mutexes);
                    files.create(WORKERS_DONE);
                    files.awaitGone(HOST_STOPPED, "the test did not resume the host");
                    System.out.printf("# lock + unlock of a passive host's mutex through its driver, median of %d: " +
                        "host stopped %.1f us, running %.1f us%n", LATENCY_ROUNDS, stoppedNs / 1e3,
                        lockUnlockMedianNs(mutexes) / 1e3);
                }
                else
                {
                    handOffAndRefusals(rma, mutexes, counters, files);
                    files.create(RANK_1_DONE);
                }
            }
            rma.barrier();
            final long counted = host ? counters.local().get(ValueLayout.JAVA_LONG, COUNTER_OFFSET) :
                rma.values().getLong(counters, HOST, COUNTER_OFFSET);
            final long rangeCounted = host ? counters.local().get(ValueLayout.JAVA_LONG, RANGE_COUNTER_OFFSET) :
                rma.values().getLong(counters, HOST, RANGE_COUNTER_OFFSET);
            check(rma, 2L * CYCLES == counted, "the counter under mutex 0 is " + counted + ", want " + 2 * CYCLES);
            check(rma, 2L * RANGE_CYCLES == rangeCounted, "the counter under the address-range lock is " +
                rangeCounted + ", want " + 2 * RANGE_CYCLES);
            rma.barrier();
            rma.free(counters);
            rma.locks().destroyMutexes(mutexes);
            if (0 == rma.rank())
            {
                System.out.println("PASSED mutex");
            }
        }
    }

    /** Each worker's cycles: increments of the counters, each read and written under its lock. */
    private static void cycles(final Rma rma, final RmaMutexes mutexes, final RmaAllocation counters)
    {
        for (int i = 0; i < CYCLES; i++)
        {
            if (2 == i % 3)
            {
                while (!mutexes.tryLock(0, HOST))
                {
                    Thread.onSpinWait();
                }
            }
            else
            {
                mutexes.lock(0, HOST);
            }
            final long v = rma.values().getLong(counters, HOST, COUNTER_OFFSET);
            rma.values().putLong(v + 1, counters, HOST, COUNTER_OFFSET);
            mutexes.unlock(0, HOST);
        }
        for (int i = 0; i < RANGE_CYCLES; i++)
        {
            rma.locks().lockMemory(counters, HOST, RANGE_COUNTER_OFFSET, Long.BYTES);
            final long v = rma.values().getLong(counters, HOST, RANGE_COUNTER_OFFSET);
            rma.values().putLong(v + 1, counters, HOST, RANGE_COUNTER_OFFSET);
            rma.locks().unlockMemory(counters, HOST, RANGE_COUNTER_OFFSET, Long.BYTES);
        }
    }

    /**
     * Rank 0 holds mutex 1 until rank 1 found {@code tryLock} refused, puts a mark and lets go; rank 1 waits in
     * {@code lock} for the hand-off and must see the mark. An unlock of a mutex not held is refused naming it.
     */
    private static void handOffAndRefusals(final Rma rma, final RmaMutexes mutexes, final RmaAllocation counters,
        final RankFiles files) throws IOException
    {
        if (0 == rma.rank())
        {
            mutexes.lock(1, HOST);
            files.create(HELD);
            files.await(TRIED, "rank 1 did not try mutex 1");
            rma.values().putLong(HAND_OFF_MARK, counters, HOST, HAND_OFF_OFFSET);
            mutexes.unlock(1, HOST);
            try
            {
                mutexes.unlock(1, HOST);
                fail(rma, "an unlock of a mutex rank 0 does not hold went through");
            }
            catch (final IllegalStateException e)
            {
                check(rma, e.getMessage().contains("mutex 1 of rank " + HOST), "the refusal does not name the mutex: " +
                    e.getMessage());
            }
            return;
        }
        files.await(HELD, "rank 0 did not take mutex 1");
        check(rma, !mutexes.tryLock(1, HOST), "tryLock took mutex 1 while rank 0 held it");
        files.create(TRIED);
        mutexes.lock(1, HOST);
        final long seen = rma.values().getLong(counters, HOST, HAND_OFF_OFFSET);
        check(rma, HAND_OFF_MARK == seen, "after the hand-off of mutex 1 its word is " + seen + ", not the " +
            HAND_OFF_MARK + " its holder put before letting go");
        mutexes.unlock(1, HOST);
    }

    private static long lockUnlockMedianNs(final RmaMutexes mutexes)
    {
        final long[] ns = new long[LATENCY_ROUNDS];
        for (int i = 0; i < LATENCY_ROUNDS; i++)
        {
            final long started = System.nanoTime();
            mutexes.lock(0, HOST);
            mutexes.unlock(0, HOST);
            ns[i] = System.nanoTime() - started;
        }
        Arrays.sort(ns);
        return ns[LATENCY_ROUNDS / 2];
    }

    private static void check(final Rma rma, final boolean ok, final String what)
    {
        if (!ok)
        {
            fail(rma, what);
        }
    }

    private static void fail(final Rma rma, final String what)
    {
        System.err.println("rank " + rma.rank() + ": " + what);
        System.exit(1);
    }
}
