package io.pinmx.bench.osc;

import io.pinmx.job.Job;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The unilateral-progress check: for each of put (+fence), get, fetch-and-add and accumulate (+fence), rank 1
 * computes for the window (it only reads a word of its own slice and never calls the library) while rank 0 issues
 * {@link #OPERATIONS} blocking 8 B operations on it and counts those complete before the window ends.
 */
final class ComputeWindow
{
    static final int OPERATIONS = 1000;
    private static final OscOp[] OPS = {OscOp.PUT, OscOp.GET, OscOp.FETCH_ADD, OscOp.ACC};
    private static final String[] NAMES = {"put", "get", "fetch_add", "acc"};

    private final Origin origin;
    private final OscOptions options;
    private final Job job;
    private final PrintStream out;

    ComputeWindow(final Origin origin, final OscOptions options, final Job job, final PrintStream out)
    {
        this.origin = origin;
        this.options = options;
        this.job = job;
        this.out = out;
    }

    void run()
    {
        final MemorySegment word = origin.view(Long.BYTES);
        for (int k = 0; k < OPS.length; k++)
        {
            origin.rma().barrier();
            final long endNs = System.nanoTime() + options.windowMs() * 1_000_000L;
            if (Origin.TARGET == job.rank())
            {
                compute(endNs);
            }
            else
            {
                int done = 0;
                for (int i = 0; i < OPERATIONS; i++)
                {
                    origin.perform(OPS[k], word);
                    if (System.nanoTime() < endNs)
                    {
                        done++;
                    }
                }
                out.printf("%-10s%12d%12d%12d%n", NAMES[k], OPERATIONS, done, options.windowMs());
                out.flush();
            }
            origin.rma().barrier();
        }
    }

    /** Reads a word of this rank's own slice until the window ends; what it read goes back so it is not elided. */
    private void compute(final long endNs)
    {
        final MemorySegment mine = origin.slices().local();
        long sum = 0;
        while (System.nanoTime() < endNs)
        {
            sum += mine.get(ValueLayout.JAVA_LONG, Long.BYTES);
        }
        mine.set(ValueLayout.JAVA_LONG, 2 * Long.BYTES, sum);
    }
}
