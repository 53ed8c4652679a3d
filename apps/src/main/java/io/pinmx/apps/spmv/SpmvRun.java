package io.pinmx.apps.spmv;

import io.pinmx.rma.ReduceOp;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One timed run of the distributed product on every rank: each iteration fetches the ghosts by {@code mode}, multiplies
 * this rank's rows, normalises by the global norm and writes the new elements into this rank's slice of the vector;
 * a barrier ends it. Then checked against the one-rank product.
 *
 * @param seconds      the iterations, slowest rank.
 * @param fetchSeconds their fetching of ghosts, slowest rank.
 * @param ghosts       remote elements fetched per iteration, all ranks together.
 * @param maxError     the largest difference from the one-rank product, relative to its largest element.
 */
record SpmvRun(MatrixKind kind, int size, FetchMode mode, int iterations, int ranks, long rows, long nonzeros,
    long ghosts, double seconds, double fetchSeconds, double maxError)
{
    /** The tolerance on {@link #maxError}: the ranks sum the norm in another order than one rank does. */
    static final double TOLERANCE = 1.0e-12;

    static SpmvRun of(final Rma rma, final MatrixKind kind, final int size, final FetchMode mode, final int iterations)
    {
        final RowBlocks blocks = new RowBlocks(kind.rows(size), rma.size());
        final int rank = rma.rank();
        final CsrRows rows = kind.rows(size, blocks.first(rank), blocks.end(rank));
        final GhostPlan plan = new GhostPlan(rows, blocks, rma.size());
        final int owned = rows.rowCount();
        final RmaAllocation x = rma.alloc((long)owned * Double.BYTES);
        final double[] xAll = new double[owned + plan.ghosts()];
        final double[] y = new double[owned];
        final long start;
        final long end;
        long fetchNs = 0;
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment ghosts = arena.allocate(Math.max(1, plan.ghosts()) * (long)Double.BYTES, Double.BYTES);
            final MemorySegment mine = x.local();
            for (int i = 0; i < owned; i++)
            {
                mine.setAtIndex(ValueLayout.JAVA_DOUBLE, i, PowerIteration.start(rows.first + i));
            }
            rma.barrier();
            start = System.nanoTime();
            for (int it = 0; it < iterations; it++)
            {
                final long fetchStart = System.nanoTime();
                mode.fetch(rma, x, plan, ghosts);
                fetchNs += System.nanoTime() - fetchStart;
                MemorySegment.copy(mine, ValueLayout.JAVA_DOUBLE, 0, xAll, 0, owned);
                MemorySegment.copy(ghosts, ValueLayout.JAVA_DOUBLE, 0, xAll, owned, plan.ghosts());
                rows.multiply(plan.columnSlots, xAll, y);
                // Every rank's fetches are done once this sum returns: the slices may be overwritten.
                final double[] squares = {PowerIteration.squares(y)};
                rma.messages().reduce(ReduceOp.SUM, squares);
                final double norm = Math.sqrt(squares[0]);
                for (int i = 0; i < owned; i++)
                {
                    mine.setAtIndex(ValueLayout.JAVA_DOUBLE, i, y[i] / norm);
                }
                rma.barrier();
            }
            end = System.nanoTime();
        }
        final double[] reference = PowerIteration.serial(kind, size, iterations);
        double largest = 0.0;
        for (final double v : reference)
        {
            largest = Math.max(largest, Math.abs(v));
        }
        double error = 0.0;
        final MemorySegment mine = x.local();
        for (int i = 0; i < owned; i++)
        {
            error = Math.max(error, Math.abs(mine.getAtIndex(ValueLayout.JAVA_DOUBLE, i) - reference[rows.first + i]));
        }
        rma.free(x);
        final long[] counts = {rows.nonzeros(), plan.ghosts()};
        rma.messages().reduce(ReduceOp.SUM, counts);
        final double[] slowest = {(end - start) / 1e9, fetchNs / 1e9, error / largest};
        rma.messages().reduce(ReduceOp.MAX, slowest);
        return new SpmvRun(kind, size, mode, iterations, rma.size(), kind.rows(size), counts[0], counts[1], slowest[0],
            slowest[1], slowest[2]);
    }

    boolean verified()
    {
        return maxError <= TOLERANCE;
    }
}
