package io.pinmx.apps.mg;

/**
 * How MG's levels are spread over the ranks: a level of at least two z planes per rank is cut into equal slabs over
 * z, rank r holding the r-th; a coarser level is held whole by every rank, each computing it redundantly. The
 * finest level must be cut, so the rank count is a power of two of at most half the class's points.
 */
final class SlabLevels
{
    private static final int MIN_PLANES_PER_RANK = 2;

    private final int ranks;
    private final int rank;

    /** @throws IllegalArgumentException naming the rank count when the class's grid cannot be cut into its slabs. */
    SlabLevels(final MgClass cls, final int ranks, final int rank)
    {
        if (ranks < 1 || Integer.bitCount(ranks) != 1)
        {
            throw new IllegalArgumentException(
                "NPB MG's slabs need a power-of-two number of ranks, not " + ranks);
        }
        if (cls.points() < MIN_PLANES_PER_RANK * ranks)
        {
            throw new IllegalArgumentException("NPB MG class " + cls + " (" + cls.points() + " planes) runs on at most " +
                cls.points() / MIN_PLANES_PER_RANK + " ranks (" + MIN_PLANES_PER_RANK + " planes each), not " + ranks);
        }
        this.ranks = ranks;
        this.rank = rank;
    }

    /** Whether every rank holds level {@code level} (2^level points per axis) whole. */
    boolean heldWhole(final int level)
    {
        return ranks > 1 && (1 << level) < MIN_PLANES_PER_RANK * ranks;
    }

    Grid grid(final int level)
    {
        final int points = 1 << level;
        if (heldWhole(level))
        {
            return new Grid(points, points, 0);
        }
        final int planes = points / ranks;
        return new Grid(points, planes, rank * planes);
    }
}
