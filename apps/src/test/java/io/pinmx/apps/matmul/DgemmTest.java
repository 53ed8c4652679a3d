package io.pinmx.apps.matmul;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The blocked kernel against a plain triple loop, on sizes that are and are not multiples of its tiles, inside
 * larger arrays (offsets and leading dimensions); the closed form against the plain product of its matrices.
 */
class DgemmTest
{
    @ParameterizedTest(name = "{0}x{2} times {2}x{1}")
    @CsvSource({"1, 1, 1", "7, 5, 3", "64, 512, 64", "70, 530, 130", "129, 33, 257"})
    void matchesTheTripleLoop(final int m, final int n, final int k)
    {
        final Random random = new Random(m * 31L + n * 7L + k);
        final int lda = k + 3;
        final int ldb = n + 5;
        final int ldc = n + 1;
        final double[] a = fill(random, 2 + m * lda);
        final double[] b = fill(random, 4 + k * ldb);
        final double[] c = fill(random, 1 + m * ldc);
        final double[] expected = c.clone();
        for (int i = 0; i < m; i++)
        {
            for (int j = 0; j < n; j++)
            {
                double sum = 0;
                for (int p = 0; p < k; p++)
                {
                    sum += a[2 + i * lda + p] * b[4 + p * ldb + j];
                }
                expected[1 + i * ldc + j] += sum;
            }
        }
        Dgemm.multiplyAdd(m, n, k, a, 2, lda, b, 4, ldb, c, 1, ldc);
        for (int x = 0; x < c.length; x++)
        {
            assertEquals(expected[x], c[x], 1e-12 * (k + 1), "element " + x);
        }
    }

    @Test
    void closedFormIsTheProduct()
    {
        final int order = 37;
        final ClosedFormProduct product = new ClosedFormProduct(order);
        final double[] c = new double[order * order];
        for (int i = 0; i < order; i++)
        {
            for (int j = 0; j < order; j++)
            {
                double sum = 0;
                for (int p = 0; p < order; p++)
                {
                    sum += ClosedFormProduct.a(i, p) * ClosedFormProduct.b(p, j);
                }
                c[i * order + j] = sum;
                assertEquals(product.c(i, j), sum, 1e-12 * order, "C(" + i + ", " + j + ")");
            }
        }
        assertEquals(0.0, product.maxError(c, order, order, 0, 0), MatmulRun.TOLERANCE);
        c[5 * order + 9] += 1e-6;
        assertEquals(1e-6 / (order * 4.0), product.maxError(c, order, order, 0, 0), 1e-12);
        assertEquals(true, product.maxError(c, order, order, 0, 0) > MatmulRun.TOLERANCE);
    }

    private static double[] fill(final Random random, final int length)
    {
        final double[] values = new double[length];
        for (int i = 0; i < length; i++)
        {
            values[i] = random.nextDouble() - 0.5;
        }
        return values;
    }
}
