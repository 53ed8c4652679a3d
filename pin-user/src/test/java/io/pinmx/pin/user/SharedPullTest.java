package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Same-host pulls the source endpoint's agent shares when it is polling: two endpoints of this JVM (process_vm_readv
 * and process_vm_writev on our own pid behave as across processes), the source driven by a thread that polls it
 * busily, or by nobody.
 */
class SharedPullTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long PULL_BYTES = 16L << 20;
    private static final int ATTEMPTS = 20;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void closeAll() throws Exception
    {
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            resources.get(i).close();
        }
        arena.close();
    }

    @Test
    void aPolledSourceCopiesTheBackOfALargePullWhileThePullerCopiesTheFront() throws Exception
    {
        final DriverEndpoint source = open();
        final DriverEndpoint puller = open();
        final LargePull pull = largePull(source, puller);
        try (BusyPoller ignored = new BusyPoller(source))
        {
            pullUntilBothSidesCopy(puller, pull, () -> { });
        }
        assertEquals(puller.counters().get(Counter.SHARED_PULL_BYTES_BY_SOURCE),
            source.counters().get(Counter.SHARED_PULL_BYTES_FOR_PEERS));
    }

    @Test
    void aSourceBlockedInItsOwnWaitIsWokenToCopyTheBackOfALargePull() throws Exception
    {
        final DriverEndpoint source = open();
        final DriverEndpoint puller = open();
        final LargePull pull = largePull(source, puller);
        try (BlockedWaiter waiter = new BlockedWaiter(source))
        {
            pullUntilBothSidesCopy(puller, pull, waiter::awaitBlocked);
            assertTrue(puller.counters().get(Counter.DOORBELLS_SENT) > 0, "the puller rang the blocked source's doorbell");
        }
        assertEquals(puller.counters().get(Counter.SHARED_PULL_BYTES_BY_SOURCE),
            source.counters().get(Counter.SHARED_PULL_BYTES_FOR_PEERS));
    }

    /**
     * Pulls until one pull is copied partly by the source and partly by the puller. Any attempt may legally go
     * to one side only (a helper that looks late finds nothing to claim; a puller descheduled after it opened the
     * pull finds every block claimed), but each must be byte-exact and the source's share whole blocks.
     */
    private static void pullUntilBothSidesCopy(final DriverEndpoint puller, final LargePull pull, final Runnable before)
    {
        final EventLog log = new EventLog();
        long sharedSoFar = 0;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++)
        {
            Patterns.fill(pull.data(), attempt);
            pull.target().fill((byte)0);
            before.run();
            puller.startPull(pull.spec().pullHandle(attempt));
            final EventLog.Seen done = log.awaitPull(puller, TIMEOUT, attempt);
            assertEquals(EventType.PULL_DONE, done.type(), done.message());
            assertEquals(Patterns.crc(pull.data()), Patterns.crc(pull.target()), "pull " + attempt + " byte-exact");
            final long sharedTotal = puller.counters().get(Counter.SHARED_PULL_BYTES_BY_SOURCE);
            final long shared = sharedTotal - sharedSoFar;
            sharedSoFar = sharedTotal;
            assertEquals(0, shared % SharedPulls.blockBytes(PULL_BYTES), "pull " + attempt + ", whole blocks: " + shared);
            if (shared > 0 && shared < PULL_BYTES)
            {
                return;
            }
        }
        fail("no pull of " + ATTEMPTS + " was copied by both the puller and the source");
    }

    @Test
    void aSourceNobodyPollsLeavesThePullToThePullerAndALateInvitationWritesNothing()
    {
        final DriverEndpoint source = open();
        final DriverEndpoint puller = open();
        final LargePull pull = largePull(source, puller);
        final MemorySegment data = pull.data();
        final MemorySegment target = pull.target();
        Patterns.fill(data, 41);
        puller.startPull(pull.spec().pullHandle(1));
        final EventLog.Seen done = new EventLog().awaitPull(puller, TIMEOUT, 1);
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        assertEquals(0, puller.counters().get(Counter.SHARED_PULL_BYTES_BY_SOURCE));
        final long pulled = Patterns.crc(target);
        assertEquals(Patterns.crc(data), pulled);

        Patterns.fill(data, 42);
        source.poll(event -> { }, 64);
        assertEquals(0, source.counters().get(Counter.SHARED_PULL_BYTES_FOR_PEERS),
            "the invitation to the ended pull, read now, copies nothing");
        assertEquals(pulled, Patterns.crc(target), "the pulled bytes stay as the pull left them");
    }

    @Test
    void aFaultInTheBlocksTheSourceTakesFailsThePullNamingTheSegmentAndTheNextPullIsExact() throws Exception
    {
        final DriverEndpoint source = open();
        final DriverEndpoint puller = open();
        final long half = PULL_BYTES / 2;
        final MemorySegment good = arena.allocate(half, 4096);
        Patterns.fill(good, 7);
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(half);
        final int sourceId = source.declareRegion(new MemorySegment[] {good, unmapped}, 2, RegionAccess.READ);
        final MemorySegment target = arena.allocate(PULL_BYTES, 4096);
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        final PullSpec spec = specTo(source, puller, sourceId, targetId);
        final EventLog log = new EventLog();
        try (BusyPoller ignored = new BusyPoller(source))
        {
            puller.startPull(spec.length(PULL_BYTES).pullHandle(1));
            final EventLog.Seen failed = log.awaitPull(puller, TIMEOUT, 1);
            assertEquals(DriverError.SEGMENT_FAULT, failed.error(), failed.message());
            assertTrue(failed.message().contains("segment 1 at 0x") && failed.message().contains("EFAULT"),
                failed.message());

            puller.startPull(spec.length(half).pullHandle(2));
            final EventLog.Seen done = log.awaitPull(puller, TIMEOUT, 2);
            assertEquals(EventType.PULL_DONE, done.type(), done.message());
            assertEquals(Patterns.crc(good), Patterns.crc(target.asSlice(0, half)));
        }
    }

    @Test
    void aSourceThatHoldsABlockPastThePullTimeoutFailsThePullAndItsSlotIsNeverReused() throws Exception
    {
        final DriverEndpoint source = open();
        final DriverEndpoint puller = open();
        final LargePull pull = largePull(source, puller);
        final MemorySegment data = pull.data();
        final MemorySegment target = pull.target();
        final PullSpec spec = pull.spec();
        Patterns.fill(data, 3);
        final EventLog log = new EventLog();
        try (EndpointFile pullerFile = EndpointFile.openPeer(UserDriverOptions.defaults().shmDirectory(),
            puller.address().board().basePort()))
        {
            final SharedPulls pulls = pullerFile.sharedPulls();
            EventLog.Seen stuck = null;
            for (int attempt = 0; attempt < ATTEMPTS && stuck == null; attempt++)
            {
                final AtomicBoolean claimed = new AtomicBoolean();
                final AtomicBoolean ended = new AtomicBoolean();
                final Thread holder = Thread.ofPlatform().start(() -> claimed.set(holdABlock(pulls, ended)));
                puller.startPull(spec.pullHandle(attempt));
                final EventLog.Seen end = log.awaitPull(puller, TIMEOUT, attempt);
                ended.set(true);
                holder.join(TIMEOUT.toMillis());
                if (end.type() == EventType.PULL_FAILED)
                {
                    assertTrue(claimed.get(), "only a held block fails the pull: " + end.message());
                    stuck = end;
                }
            }
            assertTrue(stuck != null, "no pull of " + ATTEMPTS + " met a block held by the other thread");
            assertEquals(DriverError.TIMEOUT, stuck.error(), stuck.message());
            assertTrue(stuck.message().contains("held that block for more than 1000 ms"), stuck.message());

            target.fill((byte)0);
            puller.startPull(spec.pullHandle(1_000));
            final EventLog.Seen done = log.awaitPull(puller, TIMEOUT, 1_000);
            assertEquals(EventType.PULL_DONE, done.type(), done.message());
            assertEquals(Patterns.crc(data), Patterns.crc(target), "the next pull, in another slot, is exact");
            assertEquals(0, puller.counters().get(Counter.SHARED_PULL_BYTES_BY_SOURCE));
        }
    }

    /** Plays a source agent that claims a block of the first shared pull it sees and never copies it. */
    private static boolean holdABlock(final SharedPulls pulls, final AtomicBoolean ended)
    {
        while (!ended.get())
        {
            for (int slot = 0; slot < SharedPulls.SLOTS; slot++)
            {
                if (pulls.claimBack(slot, pulls.generation(slot)) != SharedPulls.NONE)
                {
                    return true;
                }
            }
            Thread.onSpinWait();
        }
        return false;
    }

    @Test
    void aNegativeThresholdIsRefusedNamingTheOption()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> UserDriverOptions.defaults().withSharedPullMinBytes(-1));
        assertTrue(e.getMessage().contains("sharedPullMinBytes -1"), e.getMessage());
    }

    /** An endpoint only this test polls: no progress thread, and no responder that would help with pulls on its own. */
    private DriverEndpoint open()
    {
        final DriverEndpoint endpoint = new UserDriver("test").open(EndpointConfig.builder().endpointIndex(0)
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withProgressThread(false).withResponder(false))
            .build());
        resources.add(endpoint);
        return endpoint;
    }

    /** {@link #PULL_BYTES} declared at the source, as many at the puller, and the pull of the one into the other. */
    private record LargePull(MemorySegment data, MemorySegment target, PullSpec spec)
    {
    }

    private LargePull largePull(final DriverEndpoint source, final DriverEndpoint puller)
    {
        final MemorySegment data = arena.allocate(PULL_BYTES, 4096);
        final int sourceId = source.declareRegion(new MemorySegment[] {data}, 1, RegionAccess.READ);
        final MemorySegment target = arena.allocate(PULL_BYTES, 4096);
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        return new LargePull(data, target, specTo(source, puller, sourceId, targetId).length(PULL_BYTES));
    }

    private static PullSpec specTo(
        final DriverEndpoint source, final DriverEndpoint puller, final int sourceId, final int targetId)
    {
        return new PullSpec().peerIndex(puller.acquirePeer(source.address().board())).remoteEndpointIndex(0)
            .remoteSessionId(source.address().sessionId()).remoteRegionId(sourceId).localRegionId(targetId);
    }

    /**
     * A thread blocked in an endpoint's await whenever it has nothing to do, as a caller-mode rank waiting for its
     * own send blocks once its poll ran out; it counts its returns.
     */
    private static final class BlockedWaiter implements AutoCloseable
    {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong awaits = new AtomicLong();
        private final Thread thread;

        BlockedWaiter(final DriverEndpoint endpoint)
        {
            thread = new Thread(() ->
            {
                while (running.get())
                {
                    endpoint.await(Duration.ofMillis(100).toNanos());
                    endpoint.poll(event -> { }, 64);
                    awaits.incrementAndGet();
                }
            }, "blocked-waiter");
            thread.start();
        }

        /** Until the thread is back in await after a return: blocked there, not polling. */
        void awaitBlocked()
        {
            final long seen = awaits.get();
            Awaitility.await().atMost(TIMEOUT).until(() -> awaits.get() > seen &&
                thread.getState() == Thread.State.RUNNABLE && isParkedInAwait(thread));
        }

        private static boolean isParkedInAwait(final Thread thread)
        {
            for (final StackTraceElement frame : thread.getStackTrace())
            {
                if ("awaitReadable".equals(frame.getMethodName()))
                {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() throws InterruptedException
        {
            running.set(false);
            thread.join(TIMEOUT.toMillis());
        }
    }

    /** A thread that polls an endpoint without pause, as a rank waiting for its own send does. */
    private static final class BusyPoller implements AutoCloseable
    {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        BusyPoller(final DriverEndpoint endpoint)
        {
            thread = new Thread(() ->
            {
                while (running.get())
                {
                    endpoint.poll(event -> { }, 64);
                }
            }, "busy-poller");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException
        {
            running.set(false);
            thread.join(TIMEOUT.toMillis());
        }
    }
}
