package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Benchmark (a program, not a test) of a mutex waiter's side of a hand-off on this host, between two endpoints on the
 * user driver in this process: a thread waits for a value in a word, another stores it after {@code WAIT_MS} and
 * sends the waiter's endpoint a wake-up; the latency from the store to the waiter's return, and the CPU the waiting
 * thread uses over a 5 s wait. Three waits alternate round by round: {@link TurnWait} (spin, yield, then asleep until
 * the wake-up), the baseline that polls the word parking in spans doubling to 250 us, and the baseline that yields on
 * every round ({@link BackoffThenBlockIdleStrategy#lockWait}). Every round sends the wake-up, so the releaser's side
 * costs the same. Arguments: {@code [ROUNDS [WAIT_MS]]}, default 200 and 20.
 */
public final class TurnWaitBench
{
    private static final long WORD = 0;
    private static final long LONG_WAIT_MS = 5_000;
    private static final int KEY = 0x7458;
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final long FIRST_PARK_NS = 1_000L;
    private static final long MAX_PARK_NS = 250_000L;

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
        try (Endpoint waiting = open(63); Endpoint releasing = open(64); Arena arena = Arena.ofShared())
        {
            final Partner toWaiter = releasing.connect(waiting.address(), KEY, DEADLINE);
            waiting.connect(releasing.address(), KEY, DEADLINE);
            final TurnWait turnWait = new TurnWait(waiting, TimeUnit.SECONDS.toNanos(1));
            final Wait woken = (flag, value) -> turnWait.await(flag, WORD, value, () -> { });
            final Wait polling = TurnWaitBench::pollUntil;
            final Wait yielding = TurnWaitBench::yieldUntil;
            final Wait[] waits = {woken, polling, yielding};
            final String[] names = {"TurnWait (woken)", "poll, park <=250us", "yield every round"};
            final long[][] ns = new long[waits.length][rounds];
            final MemorySegment flag = arena.allocate(Long.BYTES, Long.BYTES);
            long value = 0;
            for (int i = 0; i < rounds; i++)
            {
                for (int w = 0; w < waits.length; w++)
                {
                    ns[w][i] = handOffNs(flag, ++value, waitMs, waits[w], waiting, releasing, toWaiter)[0];
                }
            }
            for (int w = 0; w < waits.length; w++)
            {
                final long longWaitCpuNs =
                    handOffNs(flag, ++value, LONG_WAIT_MS, waits[w], waiting, releasing, toWaiter)[1];
                print(names[w], ns[w], longWaitCpuNs);
            }
        }
    }

    private static Endpoint open(final int index)
    {
        return Endpoint.open(new UserDriver(), EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder().boardIndex(0).endpointIndex(index).build())
            .applicationKey(KEY)
            .build());
    }

    /** @return the ns from the store to the waiter's return, and the waiting thread's CPU ns. */
    private static long[] handOffNs(final MemorySegment flag, final long value, final long waitMs, final Wait wait,
        final Endpoint waiting, final Endpoint releasing, final Partner toWaiter) throws Exception
    {
        // the wake-ups the baselines did not take
        drain(waiting);
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
        final Request wake = releasing.isend(toWaiter, RmaTags.of(RmaTags.WAKE, value), TurnWakes.NO_BYTES);
        final long[] ended = waiter.get(1, TimeUnit.MINUTES);
        wake.awaitOrThrow(DEADLINE);
        wake.release();
        return new long[] {ended[0] - stored, ended[1]};
    }

    private static void pollUntil(final MemorySegment flag, final long value)
    {
        int spins = 0;
        int yields = 0;
        long parkNs = FIRST_PARK_NS;
        while (SharedMemoryTier.loadAcquire(flag, WORD) != value)
        {
            if (spins < TurnWait.SPINS)
            {
                spins++;
                Thread.onSpinWait();
            }
            else if (yields < TurnWait.YIELDS)
            {
                yields++;
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(MAX_PARK_NS, 2 * parkNs);
            }
        }
    }

    private static void yieldUntil(final MemorySegment flag, final long value)
    {
        final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.lockWait();
        while (SharedMemoryTier.loadAcquire(flag, WORD) != value)
        {
            idle.idle();
        }
    }

    /** Receives every wake-up queued at the waiter's endpoint. */
    private static void drain(final Endpoint waiting)
    {
        final Status queued = new Status();
        while (waiting.iprobe(MatchInfo.ANY_SOURCE, RmaTags.WAKE, RmaTags.KIND_MASK, queued))
        {
            final Request take = waiting.irecv(queued.source(), queued.matchInfo(), MatchInfo.MASK_ALL,
                TurnWakes.NO_BYTES);
            take.awaitOrThrow(DEADLINE);
            take.release();
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
