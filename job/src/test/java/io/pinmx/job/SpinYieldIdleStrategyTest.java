package io.pinmx.job;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SpinYieldIdleStrategyTest
{
    @Test
    void countsEmptyPollsUntilWorkOrAReset()
    {
        final SpinYieldIdleStrategy idle = new SpinYieldIdleStrategy();
        assertEquals(64, idle.pollsPerYield());
        for (int i = 0; i < 200; i++)
        {
            idle.idle(0);
        }
        assertEquals(200, idle.emptyPolls());
        idle.idle(1);
        assertEquals(0, idle.emptyPolls());
        idle.idle();
        idle.reset();
        assertEquals(0, idle.emptyPolls());
    }

    @Test
    void pollsPerYieldMustBeAPowerOfTwo()
    {
        assertEquals(8, new SpinYieldIdleStrategy(8).pollsPerYield());
        assertEquals("pollsPerYield 48: expected a power of two",
            assertThrows(IllegalArgumentException.class, () -> new SpinYieldIdleStrategy(48)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SpinYieldIdleStrategy(0));
    }
}
