package io.pinmx.pin.provider;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract's await blocks at once: every readiness check that finds nothing is followed by one block of at
 * most the time left, never by spins or yields, and a timeout ends it with false.
 */
class AwaitLoopTest
{
    private int checks;
    private final List<Long> blockedNs = new ArrayList<>();

    @Test
    void blocksAfterEveryEmptyCheckUntilReady()
    {
        final AwaitLoop loop = new AwaitLoop(() -> ++checks > 2, blockedNs::add);
        assertTrue(loop.await(1_000_000_000L));
        assertEquals(3, checks, "ready at the third check");
        assertEquals(2, blockedNs.size(), "one block after each of the two empty checks, no spinning between");
        blockedNs.forEach(ns -> assertTrue(ns > 0 && ns <= 1_000_000_000L, "each block within the time left: " + ns));
    }

    @Test
    void readyAtOnceNeverBlocks()
    {
        final AwaitLoop loop = new AwaitLoop(() -> true, blockedNs::add);
        assertTrue(loop.await(0));
        assertTrue(blockedNs.isEmpty());
    }

    @Test
    void aTimeoutEndsItWithFalseAfterBlockingForTheTimeLeft()
    {
        final AwaitLoop loop = new AwaitLoop(() ->
        {
            checks++;
            return false;
        }, ns ->
        {
            blockedNs.add(ns);
            LockSupport.parkNanos(ns);
        });
        final long startNs = System.nanoTime();
        assertFalse(loop.await(20_000_000L));
        assertTrue(System.nanoTime() - startNs >= 20_000_000L, "waited its timeout");
        assertEquals(checks, blockedNs.size() + 1, "a check before each block and one after the last");
        assertTrue(blockedNs.size() < 100, "blocked for the time left, not in spins: " + blockedNs.size() + " blocks");
    }

    @Test
    void aNegativeTimeoutChecksOnceAndReturns()
    {
        final AwaitLoop loop = new AwaitLoop(() -> ++checks > 5, blockedNs::add);
        assertFalse(loop.await(-1));
        assertEquals(1, checks);
        assertTrue(blockedNs.isEmpty());
    }
}
