package io.pinmx.mpj;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A wait polls while polls end with their request done; after {@link SpinBudget#MISSES_BEFORE_BLOCKING} misses in a
 * row the next {@link SpinBudget#WAITS_BLOCKED} block at once, then one probe decides again.
 */
class SpinBudgetTest
{
    private final SpinBudget budget = new SpinBudget();

    @Test
    void pollsWhilePollsPay()
    {
        for (int i = 0; i < 1000; i++)
        {
            assertTrue(budget.pollNext(), "wait " + i);
            budget.polled(i % SpinBudget.MISSES_BEFORE_BLOCKING != 0);
        }
    }

    @Test
    void missesInARowBlockTheNextWaitsThenOneProbeDecides()
    {
        missUntilBlocking();
        for (int i = 0; i < SpinBudget.WAITS_BLOCKED; i++)
        {
            assertFalse(budget.pollNext(), "blocked wait " + i);
        }
        assertTrue(budget.pollNext(), "the probe polls");
        budget.polled(false);
        assertFalse(budget.pollNext(), "one missed probe blocks again");
        for (int i = 1; i < SpinBudget.WAITS_BLOCKED; i++)
        {
            assertFalse(budget.pollNext(), "blocked wait " + i);
        }
        assertTrue(budget.pollNext(), "the next probe polls");
        budget.polled(true);
        for (int i = 0; i < SpinBudget.MISSES_BEFORE_BLOCKING - 1; i++)
        {
            assertTrue(budget.pollNext(), "a probe that paid resets the count: wait " + i);
            budget.polled(false);
        }
        assertTrue(budget.pollNext());
    }

    private void missUntilBlocking()
    {
        for (int i = 0; i < SpinBudget.MISSES_BEFORE_BLOCKING; i++)
        {
            assertTrue(budget.pollNext(), "miss " + i);
            budget.polled(false);
        }
    }
}
