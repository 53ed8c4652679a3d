package io.pinmx.rma;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark (a program, not a test) of a mutex waiter's side of a hand-off on this host, without a driver: a thread
 * waits for a value in a word, another stores it after {@code WAIT_MS}; the latency from the store to the waiter's
 * return, and the CPU the waiting thread uses over a 5 s wait. Two waits alternate round by round: {@link TurnWait}
 * (spin, yield, then park up to its cap) and the baseline a yield on every round
 * ({@link BackoffThenBlockIdleStrategy#lockWait}). Arguments: {@code [ROUNDS [WAIT_MS]]}, default 200 and 20.
 */
public final class TurnWaitBench
{
    private static final long WORD = 0;
    private static final long LONG_WAIT_MS = 5_000;

    private TurnWaitBench()
    {
    }

    /** A wait for the word to hold a value. */
    private interface Wait
    {
        void await(MemorySegment flag, long value);
    }

    public static void main(final String[] args) throws Exception
    {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        final long waitMs = args.length > 1 ? Long.parseLong(args[1]) : 20;
        final Wait parking = (flag, value) -> new TurnWait(TimeUnit.SECONDS.toNanos(1)).await(flag, WORD, value, () -> { });
        final Wait yielding = TurnWaitBench::yieldUntil;
        final long[] parked = new long[rounds];
        final long[] yielded = new long[rounds];
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment flag = arena.allocate(Long.BYTES, Long.BYTES);
            for (int i = 0; i < rounds; i++)
            {
                parked[i] = handOffNs(flag, 2L * i + 1, waitMs, parking)[0];
                yielded[i] = handOffNs(flag, 2L * i + 2, waitMs, yielding)[0];
            }
            final long[] parkedLong = handOffNs(flag, 2L * rounds + 1, LONG_WAIT_MS, parking);
            final long[] yieldedLong = handOffNs(flag, 2L * rounds + 2, LONG_WAIT_MS, yielding);
            print("TurnWait (park)", parked, parkedLong[1]);
            print("yield every round", yielded, yieldedLong[1]);
        }
    }

    /** @return the ns from the store to the waiter's return, and the waiting thread's CPU ns. */
    private static long[] handOffNs(final MemorySegment flag, final long value, final long waitMs, final Wait wait)
        throws Exception
    {
        final CompletableFuture<long[]> waiter = CompletableFuture.supplyAsync(() ->
        {
            final long cpuBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            wait.await(flag, value);
            final long now = System.nanoTime();
            return new long[] {now, ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuBefore};
        }, r -> Thread.ofPlatform().start(r));
        Thread.sleep(waitMs);
        final long stored = System.nanoTime();
        SharedMemoryTier.swap(flag, WORD, value);
        final long[] ended = waiter.get(1, TimeUnit.MINUTES);
        return new long[] {ended[0] - stored, ended[1]};
    }

    private static void yieldUntil(final MemorySegment flag, final long value)
    {
        final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.lockWait();
        while (SharedMemoryTier.loadAcquire(flag, WORD) != value)
        {
            idle.idle();
        }
    }

    private static void print(final String name, final long[] ns, final long longWaitCpuNs)
    {
        Arrays.sort(ns);
        System.out.printf("%-18s hand-off median %.1f us (p10 %.1f, p90 %.1f) of %d; CPU over a %d s wait %.1f ms%n",
            name, ns[ns.length / 2] / 1e3, ns[ns.length / 10] / 1e3, ns[ns.length * 9 / 10] / 1e3, ns.length,
            LONG_WAIT_MS / 1000, longWaitCpuNs / 1e6);
    }
}
