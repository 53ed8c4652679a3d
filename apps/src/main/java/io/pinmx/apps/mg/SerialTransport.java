package io.pinmx.apps.mg;

/** One rank holding the whole grid: ghost planes wrap around its own slab, reductions are the values themselves. */
final class SerialTransport implements SlabTransport
{
    @Override
    public int rank()
    {
        return 0;
    }

    @Override
    public int size()
    {
        return 1;
    }

    @Override
    public void exchangeGhostPlanes(final int level, final Grid grid)
    {
        grid.wrapZ();
    }

    @Override
    public void gatherPlanes(final int level, final Grid whole, final int planesPerRank)
    {
    }

    @Override
    public double[] sum(final double[] values)
    {
        return values.clone();
    }

    @Override
    public double max(final double value)
    {
        return value;
    }

    @Override
    public void barrier()
    {
    }
}
