package io.pinmx.pin.provider;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy.AfterBlock;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one idle strategy: spin, yield, then the pluggable block; after a block it spins again or keeps blocking as
 * configured; timed spinning and yielding end at their time; work starts them over; each named tuning has the counts
 * and times its documentation gives.
 */
class BackoffThenBlockIdleStrategyTest
{
    private int blocks;

    @Test
    void spinsThenYieldsThenBlocksAndWorkResetsIt()
    {
        final BackoffThenBlockIdleStrategy idle =
            new BackoffThenBlockIdleStrategy(5, 3, AfterBlock.BLOCK_AGAIN, () -> blocks++);
        idleTimes(idle, 8);
        assertEquals(0, blocks, "spin and yield phases never block");
        assertTrue(idle.isBlocking());
        idle.idle(0);
        idle.idle(0);
        assertEquals(2, blocks, "BLOCK_AGAIN stays in the blocking phase while there is no work");
        idle.idle(1);
        assertFalse(idle.isBlocking(), "work reset it to spinning");
        idleTimes(idle, 8);
        assertEquals(2, blocks);
        idle.reset();
        idleTimes(idle, 8);
        assertEquals(2, blocks, "reset starts it over as work does");
    }

    @Test
    void spinAgainBacksOffAfterEveryBlock()
    {
        final BackoffThenBlockIdleStrategy idle =
            new BackoffThenBlockIdleStrategy(5, 3, AfterBlock.SPIN_AGAIN, () -> blocks++);
        idleTimes(idle, 9);
        assertEquals(1, blocks);
        assertFalse(idle.isBlocking(), "after a block it spins again");
        idleTimes(idle, 8);
        assertEquals(1, blocks);
        idle.idle();
        assertEquals(2, blocks);
    }

    @Test
    void theNamedTuningsHaveTheirDocumentedCounts()
    {
        final BackoffThenBlockIdleStrategy busy = BackoffThenBlockIdleStrategy.busyPolling();
        idleTimes(busy, BackoffThenBlockIdleStrategy.POLLS_PER_YIELD - 1);
        assertTrue(busy.isBlocking(), "the 64th empty poll yields");
        busy.idle();
        assertFalse(busy.isBlocking(), "and the next 63 spin again");

        final BackoffThenBlockIdleStrategy agent =
            BackoffThenBlockIdleStrategy.providerAgent(new CachedNanoClock(), () -> blocks++);
        idleTimes(agent, BackoffThenBlockIdleStrategy.PROVIDER_SPINS + BackoffThenBlockIdleStrategy.PROVIDER_YIELDS);
        assertEquals(0, blocks, "while the clock stands, its counts end its spinning and yielding");
        agent.idle();
        assertEquals(1, blocks);
        assertFalse(agent.isBlocking(), "a woken provider agent spins again");

        final BackoffThenBlockIdleStrategy lock = BackoffThenBlockIdleStrategy.lockWait();
        idleTimes(lock, BackoffThenBlockIdleStrategy.LOCK_WAIT_SPINS);
        assertTrue(lock.isBlocking(), "a lock waiter yields every round after its spins");
        assertTrue(BackoffThenBlockIdleStrategy.yielding().isBlocking());
        assertTrue(BackoffThenBlockIdleStrategy.busySpin().isBlocking());
    }

    @Test
    void timedYieldingEndsAtItsTimeWhateverYieldsAreLeft()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final BackoffThenBlockIdleStrategy idle =
            new BackoffThenBlockIdleStrategy(2, 1_000, 100, clock, AfterBlock.BLOCK_AGAIN, () -> blocks++);
        idleTimes(idle, 2 + 50);
        assertEquals(0, blocks, "spins, then yields while the time lasts");
        clock.advance(99);
        idle.idle(0);
        assertEquals(0, blocks, "99 ns after the first idle round it still yields");
        clock.advance(1);
        assertFalse(idle.isBlocking(), "950 yields are left");
        idle.idle(0);
        assertEquals(1, blocks, "the phase's time is spent: it blocks");
        assertTrue(idle.isBlocking());
        idle.idle(1);
        idleTimes(idle, 2 + 500);
        assertEquals(1, blocks, "work starts the phase and its time over");
        assertTrue(idle.alias().contains("1000 yields within 100 ns"), idle.alias());
    }

    @Test
    void theProviderAgentBlocksAtItsTimeWhateverSpinsAreLeftAndSpinsAgainOnceWoken()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final BackoffThenBlockIdleStrategy agent = BackoffThenBlockIdleStrategy.providerAgent(clock, () -> blocks++);
        idleTimes(agent, 10);
        clock.advance(BackoffThenBlockIdleStrategy.PROVIDER_BACKOFF_NS - 1);
        agent.idle(0);
        assertEquals(0, blocks, "1 ns before its time it still spins");
        clock.advance(1);
        agent.idle(0);
        assertEquals(1, blocks, "at its time it blocks with " +
            (BackoffThenBlockIdleStrategy.PROVIDER_SPINS - 11) + " spins and every yield left");
        assertFalse(agent.isBlocking(), "woken, it backs off again");
        idleTimes(agent, 100);
        assertEquals(1, blocks, "and its time starts over at the first idle round after the block");
        clock.advance(BackoffThenBlockIdleStrategy.PROVIDER_BACKOFF_NS);
        agent.idle(0);
        assertEquals(2, blocks);
        idleTimes(agent, 10);
        clock.advance(BackoffThenBlockIdleStrategy.PROVIDER_BACKOFF_NS - 1);
        agent.idle(1);
        idleTimes(agent, 10);
        clock.advance(1);
        agent.idle(0);
        assertEquals(2, blocks, "work starts its time over too");
        assertTrue(agent.alias().contains("within " + BackoffThenBlockIdleStrategy.PROVIDER_BACKOFF_NS + " ns"),
            agent.alias());
    }

    @Test
    void theEndpointAgentYieldsForItsTimeThenBlocksInTheRealDriversAwaitUntilItsBound()
    {
        try (DriverEndpoint driver = new UserDriver().open(EndpointConfig.builder().boardIndex(0).endpointIndex(3)
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withProgressThread(false)).build()))
        {
            final long boundNs = 20_000_000L;
            final CachedNanoClock clock = new CachedNanoClock();
            final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.endpointAgent(clock, () ->
            {
                blocks++;
                driver.await(boundNs);
            });
            idleTimes(idle, BackoffThenBlockIdleStrategy.ENDPOINT_SPINS + 10_000);
            assertEquals(0, blocks, "while its yield time lasts it never blocks in the driver, however many rounds");
            clock.advance(BackoffThenBlockIdleStrategy.ENDPOINT_YIELD_NS);
            final long start = System.nanoTime();
            idle.idle(0);
            idle.idle(0);
            assertEquals(2, blocks, "then it blocks in the driver, and stays there while there is no work");
            assertTrue(System.nanoTime() - start >= 2 * boundNs, "two awaits of an idle driver lasted their bound");
        }
    }

    @Test
    void badCountsAndMissingPartsAreNamed()
    {
        assertEquals("maxSpins -1, maxYields 0: expected counts >= 0", assertThrows(IllegalArgumentException.class,
            () -> new BackoffThenBlockIdleStrategy(-1, 0, AfterBlock.SPIN_AGAIN, () -> { })).getMessage());
        assertEquals("afterBlock SPIN_AGAIN, blocker null: expected both", assertThrows(IllegalArgumentException.class,
            () -> new BackoffThenBlockIdleStrategy(1, 1, AfterBlock.SPIN_AGAIN, null)).getMessage());
        assertEquals("maxBackoffNs 0: expected a time > 0", assertThrows(IllegalArgumentException.class,
            () -> new BackoffThenBlockIdleStrategy(1, 1, 0, new CachedNanoClock(), AfterBlock.SPIN_AGAIN, () -> { }))
                .getMessage());
        assertEquals("clock null: expected a clock to time spinning and yielding", assertThrows(
            IllegalArgumentException.class,
            () -> new BackoffThenBlockIdleStrategy(1, 1, 10, null, AfterBlock.SPIN_AGAIN, () -> { })).getMessage());
    }

    private static void idleTimes(final BackoffThenBlockIdleStrategy idle, final int times)
    {
        for (int i = 0; i < times; i++)
        {
            idle.idle(0);
        }
    }
}
