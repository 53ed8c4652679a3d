package io.pinmx.mpj.programs;

/**
 * A rank's computation as the test programs stand it in: its thread busy on its CPU, making no MPJ call.
 */
final class Computation
{
    private Computation()
    {
    }

    /** Keeps the thread busy for {@code ns} nanoseconds (its exit reads the clock, so no compiler removes it). */
    static void busyFor(final long ns)
    {
        final long untilNs = System.nanoTime() + ns;
        while (System.nanoTime() - untilNs < 0)
        {
            Thread.onSpinWait();
        }
    }
}
