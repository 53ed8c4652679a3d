package io.pinmx.mx;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.provider.ProgressSlice;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EndpointOptionsTest
{
    @Test
    void zeroRegionCacheBytesTurnsTheCacheOffAndANegativeCapacityIsNamed()
    {
        assertEquals(0, EndpointOptions.builder().regionCacheMaxBytes(0).build().regionCacheMaxBytes());

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> EndpointOptions.builder().regionCacheMaxBytes(-1).build());
        assertEquals("endpoint option regionCacheMaxBytes = -1: must be >= 0 (0: no caching)", ex.getMessage());
    }

    @Test
    void aPullsEndIsAwaitedThirtySecondsUnlessChosenAndANonPositivePatienceIsNamed()
    {
        assertEquals(30_000_000_000L, EndpointOptions.builder().build().pullEndPatienceNs);
        assertEquals(3_000_000_000L, EndpointOptions.builder().pullEndPatienceNs(3_000_000_000L).build().pullEndPatienceNs);

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> EndpointOptions.builder().pullEndPatienceNs(0).build());
        assertEquals("endpoint option pullEndPatienceNs = 0: must be > 0", ex.getMessage());
    }

    @Test
    void theProgressThreadsSliceDefaultsToTheShortestAndABadOneIsNamed()
    {
        final long expected = null == System.getenv(ProgressSlice.VARIABLE) ? ProgressSlice.DEFAULT_NS :
            ProgressSlice.fromEnvironment(System.getenv());
        assertEquals(expected, EndpointOptions.builder().build().progressSliceNs());
        assertEquals(0, EndpointOptions.builder().progressSliceNs(0).build().progressSliceNs());
        assertEquals(400_000, EndpointOptions.builder().progressSliceNs(400_000).build().progressSliceNs());
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> EndpointOptions.builder().progressSliceNs(99_999).build());
        assertTrue(refused.getMessage().contains("progressSliceNs = 99999"), refused.getMessage());
    }

    @Test
    void aWaitsPollIdleIsBusyPollingUnlessChosenAndAMissingOneIsNamed()
    {
        assertEquals(PollIdle.BUSY_POLLING, EndpointOptions.builder().build().callerPollIdle());
        assertEquals(PollIdle.BUSY_SPIN,
            EndpointOptions.builder().callerPollIdle(PollIdle.BUSY_SPIN).build().callerPollIdle());

        final NullPointerException ex = assertThrows(NullPointerException.class,
            () -> EndpointOptions.builder().callerPollIdle(null));
        assertEquals("callerPollIdle", ex.getMessage());
    }

    @Test
    void eachPollIdleIsTheProjectsIdleStrategyOfItsKindAndNewPerThread()
    {
        assertEquals(BackoffThenBlockIdleStrategy.busyPolling().alias(), PollIdle.BUSY_POLLING.newIdleStrategy().alias());
        assertEquals(BackoffThenBlockIdleStrategy.busySpin().alias(), PollIdle.BUSY_SPIN.newIdleStrategy().alias());
        assertNotSame(PollIdle.BUSY_POLLING.newIdleStrategy(), PollIdle.BUSY_POLLING.newIdleStrategy(),
            "its backoff counts are the waiting thread's own");
    }
}
