package io.pinmx.mx;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
