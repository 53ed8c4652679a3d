package io.pinmx.bench;

/**
 * A benchmark whose name, minimum job size and table layout are fixed when it is made.
 */
abstract class FixedBenchmark implements Benchmark
{
    private final String name;
    private final int minRanks;
    private final TableLayout layout;

    FixedBenchmark(final String name, final int minRanks, final TableLayout layout)
    {
        this.name = name;
        this.minRanks = minRanks;
        this.layout = layout;
    }

    @Override
    public final String name()
    {
        return name;
    }

    @Override
    public final int minRanks()
    {
        return minRanks;
    }

    @Override
    public final TableLayout layout()
    {
        return layout;
    }
}
