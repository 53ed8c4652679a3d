package io.pinmx.apps.matmul;

import io.pinmx.rma.ReduceOp;
import io.pinmx.rma.Rma;
import io.pinmx.rma.RmaAllocation;
import io.pinmx.rma.RmaHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * SRUMMA over rma: each rank computes its block of C chunk by chunk, fetching the next chunk's A piece (a strided
 * get: a column band of a remote A block) and B piece (a contiguous band of rows of a remote B block) by non-blocking
 * gets on one aggregate handle into the other of two buffers while it multiplies the current chunk. Pieces a rank
 * holds itself are read in place. Before the timed product, one pass makes the same gets blocking with no computing:
 * the communication the product has to hide.
 */
final class Srumma implements AutoCloseable
{
    static final String VERSION = "one-sided rma";
    private static final int BUFFERS = 2;

    private final Rma rma;
    private final BlockGrid grid;
    private final int rank;
    private final int m;
    private final int n;
    private final int w;
    private final RmaAllocation a;
    private final RmaAllocation b;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] aBuffers = new MemorySegment[BUFFERS];
    private final MemorySegment[] bBuffers = new MemorySegment[BUFFERS];
    private final double[] aChunk;
    private final double[] bChunk;

    /** Collective: allocates this rank's blocks of A and B and fills them. */
    Srumma(final Rma rma, final BlockGrid grid)
    {
        this.rma = rma;
        this.grid = grid;
        rank = rma.rank();
        m = grid.blockRows();
        n = grid.blockCols();
        w = grid.chunk();
        a = rma.alloc((long)m * n * Double.BYTES);
        b = rma.alloc((long)m * n * Double.BYTES);
        final int firstRow = grid.gridRow(rank) * m;
        final int firstCol = grid.gridCol(rank) * n;
        final MemorySegment aLocal = a.local();
        final MemorySegment bLocal = b.local();
        for (int i = 0; i < m; i++)
        {
            for (int j = 0; j < n; j++)
            {
                final long index = (long)i * n + j;
                aLocal.setAtIndex(ValueLayout.JAVA_DOUBLE, index, ClosedFormProduct.a(firstRow + i, firstCol + j));
                bLocal.setAtIndex(ValueLayout.JAVA_DOUBLE, index, ClosedFormProduct.b(firstRow + i, firstCol + j));
            }
        }
        for (int s = 0; s < BUFFERS; s++)
        {
            aBuffers[s] = arena.allocate((long)m * w * Double.BYTES, Double.BYTES);
            bBuffers[s] = arena.allocate((long)w * n * Double.BYTES, Double.BYTES);
        }
        aChunk = new double[m * w];
        bChunk = new double[w * n];
    }

    /** Collective: the communication-only pass, then the timed product, then its check. */
    MatmulRun run()
    {
        Dgemm.warmUp();
        rma.barrier();
        long start = System.nanoTime();
        for (int t = 0; t < grid.chunks(); t++)
        {
            final RmaHandle handle = fetch(t, 0);
            if (null != handle)
            {
                handle.await();
            }
        }
        final double transferSeconds = (System.nanoTime() - start) / 1e9;
        rma.barrier();

        final double[] c = new double[m * n];
        long waitNs = 0;
        start = System.nanoTime();
        final int first = grid.firstChunk(rank);
        RmaHandle pending = fetch(first, 0);
        for (int step = 0; step < grid.chunks(); step++)
        {
            final int t = (first + step) % grid.chunks();
            final int buffer = step % BUFFERS;
            if (null != pending)
            {
                final long waitStart = System.nanoTime();
                pending.await();
                waitNs += System.nanoTime() - waitStart;
            }
            pending = step + 1 < grid.chunks() ? fetch((t + 1) % grid.chunks(), (step + 1) % BUFFERS) : null;
            unpack(t, buffer);
            Dgemm.multiplyAdd(m, n, w, aChunk, 0, w, bChunk, 0, n, c, 0, n);
        }
        final double seconds = (System.nanoTime() - start) / 1e9;

        final double error = new ClosedFormProduct(grid.order())
            .maxError(c, m, n, grid.gridRow(rank) * m, grid.gridCol(rank) * n);
        final double[] max = {seconds, transferSeconds, waitNs / 1e9, error};
        rma.messages().reduce(ReduceOp.MAX, max);
        return new MatmulRun(grid, VERSION, max[0], max[1], max[2], max[3]);
    }

    /** Starts the gets of chunk t's pieces held elsewhere into buffer set s; null when this rank holds both. */
    private RmaHandle fetch(final int t, final int s)
    {
        RmaHandle handle = null;
        final int aOwner = grid.rankAt(grid.gridRow(rank), grid.aOwnerCol(t));
        if (aOwner != rank)
        {
            handle = rma.aggregateHandle();
            rma.nbGetStrided(a, aOwner, (long)grid.aLocalCol(t) * Double.BYTES, new long[] {(long)n * Double.BYTES},
                aBuffers[s], new long[] {(long)w * Double.BYTES}, new long[] {(long)w * Double.BYTES, m}, 1, handle);
        }
        final int bOwner = grid.rankAt(grid.bOwnerRow(t), grid.gridCol(rank));
        if (bOwner != rank)
        {
            handle = null == handle ? rma.aggregateHandle() : handle;
            rma.nbGet(b, bOwner, (long)grid.bLocalRow(t) * n * Double.BYTES, bBuffers[s], handle);
        }
        return handle;
    }

    /** Copies chunk t's pieces, from buffer set s or in place, into the arrays the kernel reads. */
    private void unpack(final int t, final int s)
    {
        final boolean aMine = grid.aOwnerCol(t) == grid.gridCol(rank);
        final MemorySegment aSource = aMine ? a.local() : aBuffers[s];
        final long aRowLength = aMine ? n : w;
        final long aFirst = aMine ? grid.aLocalCol(t) : 0;
        for (int i = 0; i < m; i++)
        {
            MemorySegment.copy(aSource, ValueLayout.JAVA_DOUBLE, (i * aRowLength + aFirst) * Double.BYTES, aChunk,
                i * w, w);
        }
        final boolean bMine = grid.bOwnerRow(t) == grid.gridRow(rank);
        MemorySegment.copy(bMine ? b.local() : bBuffers[s], ValueLayout.JAVA_DOUBLE,
            bMine ? (long)grid.bLocalRow(t) * n * Double.BYTES : 0, bChunk, 0, w * n);
    }

    /** Collective. */
    @Override
    public void close()
    {
        rma.free(b);
        rma.free(a);
        arena.close();
    }
}
