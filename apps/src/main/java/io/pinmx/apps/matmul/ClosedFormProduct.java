package io.pinmx.apps.matmul;

/**
 * The matrices every version multiplies, chosen so the product has a closed form: A(i, k) = p(i) + q(k) and
 * B(k, j) = r(k) + s(j) give C(i, j) = n p(i) s(j) + p(i) R + s(j) Q + QR with R, Q and QR sums over k. Each rank
 * checks its own block of C against it, element by element; a chunk of A or B taken from the wrong place, or a
 * block of C written to the wrong place, changes some element.
 */
public final class ClosedFormProduct
{
    /** Largest |A| times largest |B|: p + q and r + s lie in [0.5, 2]. */
    private static final double ELEMENT_PRODUCT_BOUND = 4.0;

    private final int order;
    private final double sumQ;
    private final double sumR;
    private final double sumQR;

    public ClosedFormProduct(final int order)
    {
        this.order = order;
        double q = 0;
        double r = 0;
        double qr = 0;
        for (int k = 0; k < order; k++)
        {
            q += q(k);
            r += r(k);
            qr += q(k) * r(k);
        }
        sumQ = q;
        sumR = r;
        sumQR = qr;
    }

    public static double a(final int i, final int k)
    {
        return p(i) + q(k);
    }

    public static double b(final int k, final int j)
    {
        return r(k) + s(j);
    }

    public double c(final int i, final int j)
    {
        return order * p(i) * s(j) + p(i) * sumR + s(j) * sumQ + sumQR;
    }

    /**
     * The largest error of a block of C (row-major, {@code cols} to a row, its first element at global row
     * {@code firstRow}, column {@code firstCol}), relative to the bound on |C| (order x largest |A| x largest |B|).
     */
    public double maxError(final double[] block, final int rows, final int cols, final int firstRow, final int firstCol)
    {
        double max = 0;
        for (int i = 0; i < rows; i++)
        {
            for (int j = 0; j < cols; j++)
            {
                max = Math.max(max, Math.abs(block[i * cols + j] - c(firstRow + i, firstCol + j)));
            }
        }
        return max / (order * ELEMENT_PRODUCT_BOUND);
    }

    private static double p(final int i)
    {
        return 1.0 + 0.5 * Math.sin(i);
    }

    private static double q(final int k)
    {
        return 0.5 * Math.cos(0.7 * k);
    }

    private static double r(final int k)
    {
        return 1.0 + 0.5 * Math.sin(1.3 * k);
    }

    private static double s(final int j)
    {
        return 0.5 * Math.cos(j);
    }
}
