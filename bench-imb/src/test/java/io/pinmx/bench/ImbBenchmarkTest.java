package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

class ImbBenchmarkTest
{
    @Test
    void theReportedLoopIsTheOneWhoseSlowestRankHasTheMedianTime()
    {
        final double[][] loops = {
            {1.0, 1.2, 1.1},
            {1.0, 9.0, 5.0},
            {0.9, 1.0, 0.95},
            {1.1, 1.3, 1.2},
            {1.0, 1.1, 1.05}};
        assertArrayEquals(new double[] {1.0, 1.2, 1.1}, ImbBenchmark.medianBySlowestRank(loops));
        assertArrayEquals(new double[] {7, 7, 7}, ImbBenchmark.medianBySlowestRank(new double[][] {{7, 7, 7}}));
    }

    @Test
    void anEvenCountTakesTheLowerMedian()
    {
        final double[][] loops = {{4, 4, 4}, {1, 1, 1}, {3, 3, 3}, {2, 2, 2}};
        assertArrayEquals(new double[] {2, 2, 2}, ImbBenchmark.medianBySlowestRank(loops));
    }
}
