package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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

/**
 * A passive host's mutex waiter between two real endpoints on the user driver: the waiter sleeps in its endpoint
 * until a wake-up arrives, and only the word ends its wait; the releaser's wake-ups are not waited for.
 */
class TurnWaitTest
{
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Longer than any wait of these tests that a wake-up ends: a waiter that returns sooner was woken. */
    private static final long NO_PROBE_NS = TimeUnit.MINUTES.toNanos(10);
    private static final int KEY = 0x7457;
    private static final long WORD = 0;
    private static final long TURN = MutexTurns.waiting(7, 2);

    private Endpoint waiting;
    private Endpoint releasing;
    private Partner toWaiter;
    private Partner toReleaser;
    private Arena arena;
    private MemorySegment flag;

    @BeforeEach
    void open()
    {
        waiting = open(61);
        releasing = open(62);
        toWaiter = releasing.connect(waiting.address(), KEY, DEADLINE);
        toReleaser = waiting.connect(releasing.address(), KEY, DEADLINE);
        arena = Arena.ofShared();
        flag = arena.allocate(Long.BYTES, Long.BYTES);
    }

    @AfterEach
    void close()
    {
        releasing.close();
        waiting.close();
        arena.close();
    }

    private static Endpoint open(final int index)
    {
        return Endpoint.open(new UserDriver(), EndpointOptions.builder()
            .driverConfig(EndpointConfig.builder().boardIndex(0).endpointIndex(index).build())
            .applicationKey(KEY)
            .build());
    }

    @Test
    void aWaiterSleepsUntilAWakeUpFindsItsTurnAndIgnoresEarlierTurns() throws Exception
    {
        // a wake-up of an earlier turn that arrived before the wait began
        wake(MutexTurns.waiting(4, 2));
        final AtomicInteger probes = new AtomicInteger();
        final Thread waiter = Thread.ofPlatform().start(
            () -> new TurnWait(waiting, NO_PROBE_NS).await(flag, WORD, TURN, probes::incrementAndGet));
        // a thread that yields in a loop is always RUNNABLE: only a sleeping one is TIMED_WAITING
        await().atMost(DEADLINE).until(() -> Thread.State.TIMED_WAITING == waiter.getState());
        SharedMemoryTier.swap(flag, WORD, MutexTurns.waiting(7 + 3, 2));
        wake(MutexTurns.waiting(7 + 3, 2));
        SharedMemoryTier.swap(flag, WORD, MutexTurns.granted(7));
        wake(MutexTurns.granted(7));
        await().during(Duration.ofMillis(200)).atMost(DEADLINE).until(waiter::isAlive);
        await().atMost(DEADLINE).until(() -> Thread.State.TIMED_WAITING == waiter.getState());
        SharedMemoryTier.swap(flag, WORD, TURN);
        wake(TURN);
        waiter.join(DEADLINE.toMillis());
        assertFalse(waiter.isAlive(), "the wake-up did not end the wait");
        assertEquals(0, probes.get(), "woken by the message, not the probe interval");
    }

    @Test
    void aTurnWhoseWakeUpNeverComesIsFoundAtTheNextProbe() throws Exception
    {
        final AtomicInteger probes = new AtomicInteger();
        final Thread waiter = Thread.ofPlatform().start(() -> new TurnWait(waiting, TimeUnit.MILLISECONDS.toNanos(50))
            .await(flag, WORD, TURN, probes::incrementAndGet));
        await().atMost(DEADLINE).until(() -> probes.get() >= 2);
        assertTrue(waiter.isAlive());
        SharedMemoryTier.swap(flag, WORD, TURN);
        waiter.join(DEADLINE.toMillis());
        assertFalse(waiter.isAlive(), "the waiter missed its turn");
    }

    @Test
    void aWaiterOfSecondsBurnsAlmostNoCpu() throws Exception
    {
        final CompletableFuture<Long> cpuNs = CompletableFuture.supplyAsync(() ->
        {
            final long before = threadCpuNs();
            new TurnWait(waiting, NO_PROBE_NS).await(flag, WORD, TURN, () -> { });
            return threadCpuNs() - before;
        }, r -> Thread.ofPlatform().start(r));
        final long waitedNs = TimeUnit.SECONDS.toNanos(2);
        final long started = System.nanoTime();
        await().atMost(DEADLINE).until(() -> System.nanoTime() - started >= waitedNs);
        SharedMemoryTier.swap(flag, WORD, TURN);
        wake(TURN);
        final long used = cpuNs.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        // a yielding waiter with a core to itself burns the whole wait; a polling one a few per cent
        assertTrue(used < waitedNs / 50, "the waiter used " + used / 1_000_000 + " ms of CPU over a 2 s wait");
    }

    @Test
    void aProbeThatThrowsEndsTheWaitAndWithdrawsItsReceive() throws Exception
    {
        final RmaException gone = new RmaException("rank 2 is gone");
        final CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                new TurnWait(waiting, TimeUnit.MILLISECONDS.toNanos(5)).await(flag, WORD, TURN, () ->
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
        wake(TURN);
        final Status late = new Status();
        assertTrue(waiting.probe(MatchInfo.ANY_SOURCE, RmaTags.WAKE, RmaTags.KIND_MASK, late, DEADLINE),
            "a wake-up after the wait ended stays queued: no receive of the wait is left to take it");
        assertEquals(RmaTags.of(RmaTags.WAKE, TURN), late.matchInfo());
    }

    @Test
    void aReceiveFailedByAPartnerGivenUpIsPostedAgain() throws Exception
    {
        final AtomicInteger probes = new AtomicInteger();
        final Thread waiter = Thread.ofPlatform().start(() -> new TurnWait(waiting, TimeUnit.MILLISECONDS.toNanos(100))
            .await(flag, WORD, TURN, probes::incrementAndGet));
        await().atMost(DEADLINE).until(() -> Thread.State.TIMED_WAITING == waiter.getState());
        // every receive from any source fails with the partner: the waiter's too
        waiting.failPartner(toReleaser, "the releaser's process exited");
        final int before = probes.get();
        await().atMost(DEADLINE).until(() -> probes.get() >= before + 2);
        assertTrue(waiter.isAlive(), "a failed wake-up is not a turn");
        await().atMost(DEADLINE).until(() -> Thread.State.TIMED_WAITING == waiter.getState());
        SharedMemoryTier.swap(flag, WORD, TURN);
        waiter.join(DEADLINE.toMillis());
        assertFalse(waiter.isAlive(), "the waiter missed its turn");
    }

    @Test
    void wakeUpsAreSentWithoutWaitingAndReleasedOnceDone()
    {
        final TurnWakes wakes = new TurnWakes(new MessagePeers()
        {
            @Override
            public Endpoint endpoint()
            {
                return releasing;
            }

            @Override
            public Partner partner(final int rank)
            {
                return toWaiter;
            }

            @Override
            public void close()
            {
            }
        });
        final int sent = 20;
        for (int i = 0; i < sent; i++)
        {
            wakes.wake(1, MutexTurns.waiting(i, 1));
        }
        await().atMost(DEADLINE).until(() -> 0 == wakes.inFlight());
        final Status arrived = new Status();
        for (int i = 0; i < sent; i++)
        {
            assertTrue(waiting.probe(MatchInfo.ANY_SOURCE, RmaTags.WAKE, RmaTags.KIND_MASK, arrived, DEADLINE));
            assertEquals(RmaTags.of(RmaTags.WAKE, MutexTurns.waiting(i, 1)), arrived.matchInfo(), "wake-up " + i);
            final Request take = waiting.irecv(arrived.source(), arrived.matchInfo(), MatchInfo.MASK_ALL,
                TurnWakes.NO_BYTES);
            assertTrue(take.await(DEADLINE));
            take.release();
        }
        releasing.failPartner(toWaiter, "the waiter's process exited");
        wakes.wake(1, TURN);
        assertEquals(0, wakes.inFlight(), "a waiter that is gone is not woken");
    }

    @Test
    void aWaitOnAClosedEndpointIsRefusedNamingIt()
    {
        waiting.close();
        final RmaException ex = assertThrows(RmaException.class,
            () -> new TurnWait(waiting, NO_PROBE_NS).await(flag, WORD, TURN, () -> { }));
        assertTrue(ex.getMessage().contains("no wake-up can be received on endpoint " + waiting.address()),
            ex.getMessage());
    }

    @Test
    void aProbeIntervalThatIsNotPositiveIsRefusedNamingIt()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TurnWait(waiting, 0));
        assertTrue(e.getMessage().contains("probeIntervalNs 0"), e.getMessage());
    }

    private void wake(final long turn)
    {
        final Request send = releasing.isend(toWaiter, RmaTags.of(RmaTags.WAKE, turn), TurnWakes.NO_BYTES);
        assertTrue(send.await(DEADLINE));
        send.release();
    }

    private static long threadCpuNs()
    {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
