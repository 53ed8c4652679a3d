package io.pinmx.apps.matmul;

import mpi.Intracomm;
import mpi.MPI;

import java.util.Arrays;

/**
 * SUMMA over MPJ Express: for each chunk of the shared dimension, the rank of each grid row holding that chunk's A
 * piece broadcasts it along the row, the rank of each grid column holding the B piece broadcasts it down the
 * column, and every rank multiplies the two into its block of C. The broadcasts block: nothing overlaps them.
 */
final class Summa
{
    private final Intracomm world;
    private final Intracomm gridRowComm;
    private final Intracomm gridColComm;
    private final BlockGrid grid;
    private final int rank;
    private final int m;
    private final int n;
    private final int w;
    private final double[] a;
    private final double[] b;
    private final double[] aChunk;
    private final double[] bChunk;

    /** Collective: splits the grid's row and column communicators and fills this rank's blocks. */
    Summa(final Intracomm world, final BlockGrid grid)
    {
        this.world = world;
        this.grid = grid;
        rank = world.Rank();
        gridRowComm = world.Split(grid.gridRow(rank), grid.gridCol(rank));
        gridColComm = world.Split(grid.gridCol(rank), grid.gridRow(rank));
        m = grid.blockRows();
        n = grid.blockCols();
        w = grid.chunk();
        a = new double[m * n];
        b = new double[m * n];
        final int firstRow = grid.gridRow(rank) * m;
        final int firstCol = grid.gridCol(rank) * n;
        for (int i = 0; i < m; i++)
        {
            for (int j = 0; j < n; j++)
            {
                a[i * n + j] = ClosedFormProduct.a(firstRow + i, firstCol + j);
                b[i * n + j] = ClosedFormProduct.b(firstRow + i, firstCol + j);
            }
        }
        aChunk = new double[m * w];
        bChunk = new double[w * n];
    }

    /**
     * Collective: {@link Srumma#ROUNDS} timed products, each checked; the fastest counts, as SRUMMA's does, and its
     * broadcasts are its transfer, none of it hidden.
     */
    MatmulRun run(final String version)
    {
        Dgemm.warmUp();
        final double[] c = new double[m * n];
        final long[] transferNs = new long[1];
        long productNs = Long.MAX_VALUE;
        long productTransferNs = 0;
        double error = 0;
        for (int round = 0; round < Srumma.ROUNDS; round++)
        {
            world.Barrier();
            Arrays.fill(c, 0.0);
            final long ns = product(c, transferNs);
            if (ns < productNs)
            {
                productNs = ns;
                productTransferNs = transferNs[0];
            }
            error = Math.max(error, new ClosedFormProduct(grid.order())
                .maxError(c, m, n, grid.gridRow(rank) * m, grid.gridCol(rank) * n));
        }
        final double[] mine = {productNs / 1e9, productTransferNs / 1e9, error};
        final double[] max = new double[mine.length];
        world.Allreduce(mine, 0, max, 0, mine.length, MPI.DOUBLE, MPI.MAX);
        return new MatmulRun(grid, version, max[0], max[1], max[0] - max[1], max[1], max[1], max[2]);
    }

    /** One product into C (zeroed); its time, and the time of its broadcasts into transferNs[0]. */
    private long product(final double[] c, final long[] transferNs)
    {
        transferNs[0] = 0;
        final long start = System.nanoTime();
        for (int t = 0; t < grid.chunks(); t++)
        {
            final int aOwner = grid.aOwnerCol(t);
            if (aOwner == grid.gridCol(rank))
            {
                for (int i = 0; i < m; i++)
                {
                    System.arraycopy(a, i * n + grid.aLocalCol(t), aChunk, i * w, w);
                }
            }
            final int bOwner = grid.bOwnerRow(t);
            if (bOwner == grid.gridRow(rank))
            {
                System.arraycopy(b, grid.bLocalRow(t) * n, bChunk, 0, w * n);
            }
            final long transferStart = System.nanoTime();
            gridRowComm.Bcast(aChunk, 0, m * w, MPI.DOUBLE, aOwner);
            gridColComm.Bcast(bChunk, 0, w * n, MPI.DOUBLE, bOwner);
            transferNs[0] += System.nanoTime() - transferStart;
            Dgemm.multiplyAdd(m, n, w, aChunk, 0, w, bChunk, 0, n, c, 0, n);
        }
        return System.nanoTime() - start;
    }
}
