package io.pinmx.apps.mg;

/**
 * NPB MG's solver on this rank's part of the grids: the V-cycle (restrict the residual down to the coarsest level,
 * smooth there, then on each finer level prolongate, recompute the residual and smooth), the residual of the finest
 * level and its norm. Ghosts are refreshed after each operator, as NPB's comm3 does; the time spent in the
 * transport is counted for the report.
 */
final class Multigrid
{
    private final MgClass cls;
    private final SlabTransport transport;
    private final SlabLevels levels;
    private final int finest;
    private final Grid[] u;
    private final Grid[] r;
    private final Grid v;
    /**
     * The transport's progress, one object for every operator call: a method reference per call site would be a class
     * per site, and the operators' calls of it would turn polymorphic after the JIT compiled them for one.
     */
    private final Runnable betweenPlanes;
    private long transportNs;

    Multigrid(final MgClass cls, final SlabTransport transport)
    {
        this.cls = cls;
        this.transport = transport;
        this.betweenPlanes = transport::progress;
        this.levels = new SlabLevels(cls, transport.size(), transport.rank());
        this.finest = cls.finestLevel();
        this.u = new Grid[finest + 1];
        this.r = new Grid[finest + 1];
        for (int k = 1; k <= finest; k++)
        {
            u[k] = levels.grid(k);
            r[k] = levels.grid(k);
        }
        this.v = levels.grid(finest);
    }

    /** Zero u and NPB's charges in v. */
    void reset()
    {
        u[finest].zero();
        RandomCharges.place(v, cls.points(), transport);
        refresh(finest, v);
    }

    /** r = v - A u on the finest level. */
    void residual()
    {
        Stencils.residual(u[finest], v, r[finest], betweenPlanes);
        refresh(finest, r[finest]);
    }

    /** One V-cycle: u += M r on the finest level, M NPB's multigrid approximation of A's inverse. */
    void vCycle()
    {
        for (int k = finest; k > 1; k--)
        {
            restrict(k);
        }
        u[1].zero();
        Stencils.smooth(r[1], u[1], betweenPlanes);
        refresh(1, u[1]);
        for (int k = 2; k < finest; k++)
        {
            u[k].zero();
            Stencils.prolongate(u[k - 1], u[k], shift(k), betweenPlanes);
            Stencils.residual(u[k], r[k], r[k], betweenPlanes);
            refresh(k, r[k]);
            Stencils.smooth(r[k], u[k], betweenPlanes);
            refresh(k, u[k]);
        }
        Stencils.prolongate(u[finest - 1], u[finest], shift(finest), betweenPlanes);
        residual();
        Stencils.smooth(r[finest], u[finest], betweenPlanes);
        refresh(finest, u[finest]);
    }

    /** NPB's L2 norm of the finest residual: sqrt(sum r^2 / points^3). */
    double residualNorm()
    {
        final double[] local = Stencils.squaresAndMax(r[finest]);
        final long start = System.nanoTime();
        final double squares = transport.sum(new double[] {local[0]})[0];
        transportNs += System.nanoTime() - start;
        final double points = cls.points();
        return Math.sqrt(squares / (points * points * points));
    }

    long transportNs()
    {
        return transportNs;
    }

    void clearTransportTime()
    {
        transportNs = 0;
    }

    private void restrict(final int fineLevel)
    {
        final int coarseLevel = fineLevel - 1;
        final Grid fine = r[fineLevel];
        final Grid coarse = r[coarseLevel];
        if (!levels.heldWhole(coarseLevel) || levels.heldWhole(fineLevel))
        {
            Stencils.restrict(fine, coarse, 1, coarse.planes, 0, betweenPlanes);
            refresh(coarseLevel, coarse);
            return;
        }
        // This rank's slab gives its share of a coarse level every rank holds whole.
        final int shift = fine.firstPlane / 2;
        final int planes = fine.planes / 2;
        Stencils.restrict(fine, coarse, 1 + shift, shift + planes, shift, betweenPlanes);
        coarse.wrapXy(1 + shift, shift + planes);
        final long start = System.nanoTime();
        transport.gatherPlanes(coarseLevel, coarse, planes);
        transportNs += System.nanoTime() - start;
        coarse.wrapZ();
    }

    /** Where the fine level's slab starts in the coarse level below it, when that one is held whole. */
    private int shift(final int fineLevel)
    {
        return levels.heldWhole(fineLevel - 1) && !levels.heldWhole(fineLevel) ? u[fineLevel].firstPlane / 2 : 0;
    }

    private void refresh(final int level, final Grid grid)
    {
        grid.wrapXy(1, grid.planes);
        if (levels.heldWhole(level) || transport.size() == 1)
        {
            grid.wrapZ();
            return;
        }
        final long start = System.nanoTime();
        transport.exchangeGhostPlanes(level, grid);
        transportNs += System.nanoTime() - start;
    }
}
