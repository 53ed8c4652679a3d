package io.pinmx.apps.matmul;

/**
 * A blocked dense product kernel on row-major arrays: C += A x B, looping i, k, j so the innermost loop runs along
 * rows of B and C (the JIT vectorises it), tiled over k and j so a tile of B stays in cache across the rows of A.
 */
public final class Dgemm
{
    private static final int K_TILE = 64;
    private static final int J_TILE = 512;
    private static final int WARM_UP_ORDER = 128;
    private static final int WARM_UP_PRODUCTS = 20;

    private Dgemm()
    {
    }

    /**
     * C[m x n] += A[m x k] x B[k x n], each given by its array, first element and row length (leading dimension).
     */
    public static void multiplyAdd(final int m, final int n, final int k,
        final double[] a, final int aStart, final int lda,
        final double[] b, final int bStart, final int ldb,
        final double[] c, final int cStart, final int ldc)
    {
        for (int k0 = 0; k0 < k; k0 += K_TILE)
        {
            final int k1 = Math.min(k, k0 + K_TILE);
            for (int j0 = 0; j0 < n; j0 += J_TILE)
            {
                final int j1 = Math.min(n, j0 + J_TILE);
                for (int i = 0; i < m; i++)
                {
                    final int cRow = cStart + i * ldc;
                    final int aRow = aStart + i * lda;
                    for (int p = k0; p < k1; p++)
                    {
                        final double aip = a[aRow + p];
                        final int bRow = bStart + p * ldb;
                        for (int j = j0; j < j1; j++)
                        {
                            c[cRow + j] += aip * b[bRow + j];
                        }
                    }
                }
            }
        }
    }

    /** Runs the kernel on small matrices so a timed product runs compiled code from its first chunk. */
    public static void warmUp()
    {
        final int n = WARM_UP_ORDER;
        final double[] a = new double[n * n];
        final double[] c = new double[n * n];
        java.util.Arrays.fill(a, 1.0);
        for (int i = 0; i < WARM_UP_PRODUCTS; i++)
        {
            multiplyAdd(n, n, n, a, 0, n, a, 0, n, c, 0, n);
        }
    }
}
