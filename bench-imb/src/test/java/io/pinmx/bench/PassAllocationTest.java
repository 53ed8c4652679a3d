package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The allocation tests' verdict catches rare steady allocations and lets a one-off through. */
class PassAllocationTest
{
    private static final int MESSAGES_PER_PASS = 4_000;
    private static volatile Object sink;

    @Test
    void twoSmallOneOffsAreNoise()
    {
        assertNull(PassAllocation.steadyAllocation(new long[] {0, 0, 400, 0, 0, 0, 0, 0}));
        assertNull(PassAllocation.steadyAllocation(new long[] {0, 0, 0, 0, 0, 0, 232, 80}));
        assertNull(PassAllocation.steadyAllocation(new long[] {0, 0, 0, 0, 0, 0, 0, 512}));
        assertNull(PassAllocation.steadyAllocation(new long[8]));
    }

    @Test
    void threeAllocatingPassesOrOneLargeOneAreSteady()
    {
        assertEquals("3 of 8 passes allocated; bytes per pass [16, 0, 0, 16, 0, 16, 0, 0]",
            PassAllocation.steadyAllocation(new long[] {16, 0, 0, 16, 0, 16, 0, 0}));
        assertEquals("a pass allocated 4096 B (> 512 B); bytes per pass [0, 0, 0, 0, 0, 0, 0, 4096]",
            PassAllocation.steadyAllocation(new long[] {0, 0, 0, 0, 0, 0, 0, 4096}));
    }

    @Test
    void anObjectEveryFewThousandMessagesIsCaught()
    {
        final long[] counter = new long[1];
        final long[] passes = PassAllocation.measure(() ->
        {
            for (int i = 0; i < MESSAGES_PER_PASS; i++)
            {
                if (0 == ++counter[0] % 3_000)
                {
                    sink = new long[1];
                }
            }
        }, () -> { }, quietHere -> quietHere);
        assertNotNull(PassAllocation.steadyAllocation(passes), Arrays.toString(passes));
    }
}
