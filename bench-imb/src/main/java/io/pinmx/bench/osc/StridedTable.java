package io.pinmx.bench.osc;

import io.pinmx.job.Job;
import io.pinmx.rma.Rma;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;

/**
 * ARMCI-perf-style table: an N x N block of doubles (N = 8, 16, .. max) in row-major matrices of
 * {@link #LEADING_DOUBLES} doubles per row on both sides, got, put and accumulated as one strided call and as N
 * contiguous calls of a row each; microseconds per block. Each cell times {@code 40 MiB / block} blocks (20..1000)
 * after a tenth as many untimed, then one fence, as the C baseline does; a cell is the median of the timed loops.
 */
final class StridedTable
{
    static final int LEADING_DOUBLES = 512;
    private static final long ROW_STRIDE_BYTES = LEADING_DOUBLES * (long)Double.BYTES;
    private static final long VOLUME_BYTES = 40L << 20;

    private final Origin origin;
    private final OscOptions options;
    private final Job job;
    private final PrintStream out;

    StridedTable(final Origin origin, final OscOptions options, final Job job, final PrintStream out)
    {
        this.origin = origin;
        this.options = options;
        this.job = job;
        this.out = out;
    }

    /** @return the bytes of a matrix holding the largest block. */
    static long matrixBytes(final int maxN)
    {
        return ROW_STRIDE_BYTES * maxN;
    }

    /** The whole table once untimed (the JIT compiles every path), then timed. */
    void run()
    {
        table(false);
        table(true);
    }

    private void table(final boolean timed)
    {
        for (int n = 8; n <= options.maxN(); n *= 2)
        {
            final long blocks = options.iterations(Math.max(20, Math.min(1000, VOLUME_BYTES / ((long)n * n * Double.BYTES))));
            origin.rma().barrier();
            if (0 == job.rank())
            {
                final Block block = new Block(n);
                final double[] t = new double[6];
                final double[] loopTimes = new double[options.loops()];
                for (int k = 0; k < t.length; k++)
                {
                    final OscOp op = k < 2 ? OscOp.GET : k < 4 ? OscOp.PUT : OscOp.ACC;
                    final boolean rows = 1 == k % 2;
                    time(block, op, rows, blocks / 10 + 1);
                    for (int l = 0; l < (timed ? loopTimes.length : 1); l++)
                    {
                        loopTimes[l] = time(block, op, rows, blocks);
                    }
                    t[k] = OscOptions.median(loopTimes);
                }
                if (timed)
                {
                    out.printf("%-10d%14.3f%14.3f%14.3f%14.3f%14.3f%14.3f%n", n, t[0], t[1], t[2], t[3], t[4], t[5]);
                    out.flush();
                }
            }
            origin.rma().barrier();
        }
    }

    /** @return microseconds per block. */
    private double time(final Block block, final OscOp op, final boolean rows, final long blocks)
    {
        final Rma rma = origin.rma();
        final long start = System.nanoTime();
        for (long i = 0; i < blocks; i++)
        {
            if (rows)
            {
                block.byRows(rma, op);
            }
            else
            {
                block.strided(rma, op);
            }
        }
        rma.fence(Origin.TARGET);
        return (System.nanoTime() - start) / 1e3 / blocks;
    }

    /** One N x N block: its strided description and its rows as local views, made before anything is timed. */
    private final class Block
    {
        private final long[] strides = {ROW_STRIDE_BYTES};
        private final long[] counts;
        private final MemorySegment[] rows;

        Block(final int n)
        {
            counts = new long[] {(long)n * Double.BYTES, n};
            rows = new MemorySegment[n];
            for (int r = 0; r < n; r++)
            {
                rows[r] = origin.local().asSlice(r * ROW_STRIDE_BYTES, counts[0]);
            }
        }

        void strided(final Rma rma, final OscOp op)
        {
            switch (op)
            {
                case GET -> rma.getStrided(origin.slices(), Origin.TARGET, 0, strides, origin.local(), strides, counts, 1);
                case PUT -> rma.putStrided(origin.local(), strides, origin.slices(), Origin.TARGET, 0, strides, counts, 1);
                default -> rma.accStrided(Origin.one(), origin.local(), strides, origin.slices(), Origin.TARGET, 0,
                    strides, counts, 1);
            }
        }

        void byRows(final Rma rma, final OscOp op)
        {
            for (int r = 0; r < rows.length; r++)
            {
                final long at = r * ROW_STRIDE_BYTES;
                switch (op)
                {
                    case GET -> rma.get(origin.slices(), Origin.TARGET, at, rows[r]);
                    case PUT -> rma.put(rows[r], origin.slices(), Origin.TARGET, at);
                    default -> rma.acc(Origin.one(), rows[r], origin.slices(), Origin.TARGET, at);
                }
            }
        }
    }
}
