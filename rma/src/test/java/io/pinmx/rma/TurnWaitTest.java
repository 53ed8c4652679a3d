package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TurnWaitTest
{
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final long WORD = 0;
    private static final long TURN = MutexTurns.waiting(7, 2);

    @Test
    void aWaiterParksUntilItsValueLandsAndIgnoresOthers() throws Exception
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment flag = arena.allocate(Long.BYTES, Long.BYTES);
            final AtomicInteger probes = new AtomicInteger();
            final Thread waiter = Thread.ofPlatform().start(
                () -> new TurnWait(TimeUnit.MILLISECONDS.toNanos(20)).await(flag, WORD, TURN, probes::incrementAndGet));
            // a thread that yields in a loop is always RUNNABLE: only a parked one is TIMED_WAITING
            await().atMost(DEADLINE).until(() -> Thread.State.TIMED_WAITING == waiter.getState());
            await().atMost(DEADLINE).until(() -> probes.get() >= 2);
            SharedMemoryTier.swap(flag, WORD, MutexTurns.waiting(7 + 3, 2));
            SharedMemoryTier.swap(flag, WORD, MutexTurns.granted(7));
            await().during(Duration.ofMillis(100)).atMost(DEADLINE).until(waiter::isAlive);
            SharedMemoryTier.swap(flag, WORD, TURN);
            waiter.join(DEADLINE.toMillis());
            assertFalse(waiter.isAlive(), "the waiter missed its turn");
        }
    }

    @Test
    void aWaiterOfSecondsBurnsLittleCpu() throws Exception
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment flag = arena.allocate(Long.BYTES, Long.BYTES);
            final CompletableFuture<Long> cpuNs = CompletableFuture.supplyAsync(() ->
            {
                final long before = threadCpuNs();
                new TurnWait(TimeUnit.SECONDS.toNanos(1)).await(flag, WORD, TURN, () -> { });
                return threadCpuNs() - before;
            }, r -> Thread.ofPlatform().start(r));
            final long waitedNs = TimeUnit.SECONDS.toNanos(2);
            final long started = System.nanoTime();
            await().atMost(DEADLINE).until(() -> System.nanoTime() - started >= waitedNs);
            SharedMemoryTier.swap(flag, WORD, TURN);
            final long used = cpuNs.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            // a yielding waiter with a core to itself burns the whole wait; a parked one a few per cent
            assertTrue(used < waitedNs / 5, "the waiter used " + used / 1_000_000 + " ms of CPU over a 2 s wait");
        }
    }

    @Test
    void aProbeThatThrowsEndsTheWait() throws Exception
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment flag = arena.allocate(Long.BYTES, Long.BYTES);
            final RmaException gone = new RmaException("rank 2 is gone");
            final CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    new TurnWait(TimeUnit.MILLISECONDS.toNanos(5)).await(flag, WORD, TURN, () ->
                    {
                        throw gone;
                    });
                    return null;
                }
                catch (final RmaException ex)
                {
                    return ex;
                }
            }, r -> Thread.ofPlatform().start(r));
            assertSame(gone, ended.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            assertEquals(0L, SharedMemoryTier.loadAcquire(flag, WORD), "the wait wrote its flag");
        }
    }

    @Test
    void aProbeIntervalThatIsNotPositiveIsRefusedNamingIt()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TurnWait(0));
        assertTrue(e.getMessage().contains("probeIntervalNs 0"), e.getMessage());
    }

    private static long threadCpuNs()
    {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
