package io.pinmx.mpj.jgf;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SparseMatmultTest
{
    @Test
    void oneRanksProductGivesTheSuitesReferenceAtSizeA()
    {
        final SparseMatmult.Matrix matrix = SparseMatmult.seededMatrix(SparseMatmult.order(JgfSize.A),
            SparseMatmult.nonZeros(JgfSize.A));
        final double[] y = new double[matrix.n()];
        for (int repetition = 0; repetition < SparseMatmult.REPETITIONS; repetition++)
        {
            SparseMatmult.multiplyAdd(matrix, 0, matrix.value().length, y);
        }
        final double sum = SparseMatmult.rowSum(matrix, y);
        assertEquals(SparseMatmult.reference(JgfSize.A), sum, 0.0, "one rank sums in the suite's order");
        assertNull(SparseMatmult.validate(sum, JgfSize.A));
    }

    @Test
    void aSumOffByMoreThanTheToleranceFails()
    {
        final String failure = SparseMatmult.validate(SparseMatmult.reference(JgfSize.A) * (1 + 1e-9), JgfSize.A);
        assertTrue(null != failure && failure.startsWith("row sum "), failure);
    }
}
