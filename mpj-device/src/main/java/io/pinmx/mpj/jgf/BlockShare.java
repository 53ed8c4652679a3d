package io.pinmx.mpj.jgf;

/**
 * A contiguous share of {@code items} for each of {@code ranks}, in multiples of {@code grain} (the last rank takes
 * what is left), as the suite divides its data.
 */
record BlockShare(int items, int ranks, int grain)
{
    BlockShare
    {
        if (items < 0 || ranks < 1 || grain < 1 || items % grain != 0)
        {
            throw new IllegalArgumentException("cannot share " + items + " items among " + ranks + " ranks in grains of " +
                grain);
        }
    }

    int start(final int rank)
    {
        return Math.min(items, rank * perRank());
    }

    int length(final int rank)
    {
        return Math.min(items, start(rank) + perRank()) - start(rank);
    }

    int[] lengths()
    {
        final int[] lengths = new int[ranks];
        for (int r = 0; r < ranks; r++)
        {
            lengths[r] = length(r);
        }
        return lengths;
    }

    int[] starts()
    {
        final int[] starts = new int[ranks];
        for (int r = 0; r < ranks; r++)
        {
            starts[r] = start(r);
        }
        return starts;
    }

    private int perRank()
    {
        return (items / grain + ranks - 1) / ranks * grain;
    }
}
