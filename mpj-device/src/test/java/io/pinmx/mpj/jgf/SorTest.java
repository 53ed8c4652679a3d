package io.pinmx.mpj.jgf;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SorTest
{
    @Test
    void oneRanksRelaxationGivesTheSuitesReferenceAtSizeA()
    {
        final int n = Sor.points(JgfSize.A);
        final double[] whole = Sor.seededGrid(n);
        // One rank: local row 0 and n + 1 are ghosts, rows 1..n the grid.
        final double[] grid = new double[(n + 2) * n];
        System.arraycopy(whole, 0, grid, n, n * n);
        for (int halfSweep = 0; halfSweep < 2 * Sor.ITERATIONS; halfSweep++)
        {
            Sor.relax(grid, n, 0, n, halfSweep % 2);
        }
        final double[] result = new double[n * n];
        System.arraycopy(grid, n, result, 0, n * n);
        assertNull(Sor.validate(Sor.interiorSum(result, n), JgfSize.A));
    }

    @Test
    void aSumOffByMoreThanTheToleranceFails()
    {
        final String failure = Sor.validate(Sor.reference(JgfSize.A) + 1e-9, JgfSize.A);
        assertTrue(null != failure && failure.startsWith("interior sum "), failure);
    }
}
