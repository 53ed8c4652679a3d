package io.pinmx.apps.mg;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * MG's slabs over MPJ Express message passing: each exchange receives the neighbours' faces straight into the ghost
 * planes and sends the bottom and top interior planes, as NPB's MPI MG does; a level held whole is assembled by an
 * all-gather.
 */
final class MpjSlabTransport implements SlabTransport
{
    /** A plane sent down arrives in the receiver's upper ghost; one sent up in its lower ghost. */
    private static final int TO_UPPER_GHOST_TAG = 1;
    private static final int TO_LOWER_GHOST_TAG = 2;

    private final Intracomm comm;
    private final int rank;
    private final int size;

    MpjSlabTransport(final Intracomm comm)
    {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
    }

    @Override
    public int rank()
    {
        return rank;
    }

    @Override
    public int size()
    {
        return size;
    }

    @Override
    public void exchangeGhostPlanes(final int level, final Grid grid)
    {
        final int lower = (rank + size - 1) % size;
        final int upper = (rank + 1) % size;
        final int planeSize = grid.planeSize();
        final double[] values = grid.values;
        final Request[] pending = {
            comm.Irecv(values, grid.planeStart(0), planeSize, MPI.DOUBLE, lower, TO_LOWER_GHOST_TAG),
            comm.Irecv(values, grid.planeStart(grid.planes + 1), planeSize, MPI.DOUBLE, upper, TO_UPPER_GHOST_TAG),
            comm.Isend(values, grid.planeStart(1), planeSize, MPI.DOUBLE, lower, TO_UPPER_GHOST_TAG),
            comm.Isend(values, grid.planeStart(grid.planes), planeSize, MPI.DOUBLE, upper, TO_LOWER_GHOST_TAG)};
        Request.Waitall(pending);
    }

    @Override
    public void gatherPlanes(final int level, final Grid whole, final int planesPerRank)
    {
        final int shareSize = whole.planeSize() * planesPerRank;
        final double[] share = new double[shareSize];
        System.arraycopy(whole.values, whole.planeStart(1 + rank * planesPerRank), share, 0, shareSize);
        // MPJ Express 0.44's Allgather misplaces the blocks given a receive offset: gather apart, then copy.
        final double[] all = new double[shareSize * size];
        comm.Allgather(share, 0, shareSize, MPI.DOUBLE, all, 0, shareSize, MPI.DOUBLE);
        System.arraycopy(all, 0, whole.values, whole.planeStart(1), all.length);
    }

    @Override
    public double[] sum(final double[] values)
    {
        final double[] sums = new double[values.length];
        comm.Allreduce(values, 0, sums, 0, values.length, MPI.DOUBLE, MPI.SUM);
        return sums;
    }

    @Override
    public double max(final double value)
    {
        final double[] max = new double[1];
        comm.Allreduce(new double[] {value}, 0, max, 0, 1, MPI.DOUBLE, MPI.MAX);
        return max[0];
    }

    @Override
    public void barrier()
    {
        comm.Barrier();
    }
}
