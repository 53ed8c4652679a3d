package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The progress thread's idle strategy keeps the old backoff: 200 spins, 50 yields, then a
 * block in the real driver's await bounded by the next timer; work starts it over.
 */
class DriverAwaitIdleStrategyTest
{
    @Test
    void spinsThenYieldsThenAwaitsTheDriverUntilTheNextTimerAndWorkResetsIt()
    {
        try (DriverEndpoint driver = new UserDriver().open(EndpointConfig.builder().boardIndex(0).endpointIndex(3)
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withProgressThread(false)).build()))
        {
            final long[] timerAsks = new long[1];
            final long boundNs = 20_000_000L;
            final DriverAwaitIdleStrategy idle = new DriverAwaitIdleStrategy(200, 50, driver, () ->
            {
                timerAsks[0]++;
                return boundNs;
            });
            for (int i = 0; i < 250; i++)
            {
                idle.idle(0);
            }
            assertEquals(0, timerAsks[0], "spin and yield phases never block in the driver");
            final long start = System.nanoTime();
            idle.idle(0);
            assertEquals(1, timerAsks[0], "the third phase blocks in the driver, bounded by the next timer");
            idle.idle(0);
            assertEquals(2, timerAsks[0], "it stays in the third phase while there is no work");
            assertTrue(System.nanoTime() - start >= boundNs, "two awaits of an idle driver lasted their bound");
            idle.idle(1);
            for (int i = 0; i < 250; i++)
            {
                idle.idle(0);
            }
            assertEquals(2, timerAsks[0], "work reset it to spinning");
        }
    }
}
