package io.pinmx.apps.spmv;

import java.util.SplittableRandom;

/**
 * The generated sparse matrices, any block of whose rows a rank can build alone (each row depends only on its index):
 * a 27-point stencil on a size^3 grid (non-periodic, 26 on the diagonal, -1 to each neighbour) and an irregular
 * matrix of size rows whose nonzeros per row follow a power law (exponent {@link #POWER_LAW_EXPONENT}, at least
 * {@link #MIN_ROW_NONZEROS}), at columns spread uniformly over the whole matrix.
 */
public enum MatrixKind
{
    STENCIL27("stencil27"),
    POWER_LAW("powerlaw");

    static final double POWER_LAW_EXPONENT = 2.2;
    static final int MIN_ROW_NONZEROS = 3;
    /** A row's nonzeros are capped at this fraction of the columns. */
    private static final int MAX_ROW_NONZEROS_DIVISOR = 8;
    private static final long SEED = 0x5DEECE66DL;

    private final String word;

    MatrixKind(final String word)
    {
        this.word = word;
    }

    public String word()
    {
        return word;
    }

    /** @throws IllegalArgumentException naming the word and the known kinds. */
    public static MatrixKind named(final String word)
    {
        for (final MatrixKind kind : values())
        {
            if (kind.word.equals(word))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("matrix '" + word + "' is not one of stencil27, powerlaw");
    }

    /** Rows (and columns) of the matrix of this kind and size. */
    public long rows(final int size)
    {
        return STENCIL27 == this ? (long)size * size * size : size;
    }

    /** Rows {@code first} to {@code last - 1} of the matrix of this kind and size. */
    CsrRows rows(final int size, final int first, final int last)
    {
        final CsrRows.Builder rows = new CsrRows.Builder(first, last);
        for (int row = first; row < last; row++)
        {
            if (STENCIL27 == this)
            {
                stencilRow(rows, size, row);
            }
            else
            {
                powerLawRow(rows, size, row);
            }
            rows.endRow();
        }
        return rows.build();
    }

    private static void stencilRow(final CsrRows.Builder rows, final int side, final int row)
    {
        final int x = row % side;
        final int y = row / side % side;
        final int z = row / side / side;
        for (int dz = -1; dz <= 1; dz++)
        {
            for (int dy = -1; dy <= 1; dy++)
            {
                for (int dx = -1; dx <= 1; dx++)
                {
                    final int nx = x + dx;
                    final int ny = y + dy;
                    final int nz = z + dz;
                    if (nx >= 0 && nx < side && ny >= 0 && ny < side && nz >= 0 && nz < side)
                    {
                        final boolean diagonal = 0 == dx && 0 == dy && 0 == dz;
                        rows.add(nx + side * (ny + side * nz), diagonal ? 26.0 : -1.0);
                    }
                }
            }
        }
    }

    private static void powerLawRow(final CsrRows.Builder rows, final int columns, final int row)
    {
        final SplittableRandom random = new SplittableRandom(SEED ^ (row * 0x9E3779B97F4A7C15L));
        final double u = 1.0 - random.nextDouble();
        final int cap = Math.max(MIN_ROW_NONZEROS, columns / MAX_ROW_NONZEROS_DIVISOR);
        final int nonzeros = (int)Math.min(cap, Math.floor(MIN_ROW_NONZEROS * Math.pow(u, -1.0 / (POWER_LAW_EXPONENT - 1))));
        rows.add(row, nonzeros + 1.0);
        for (int i = 1; i < nonzeros; i++)
        {
            rows.add(random.nextInt(columns), random.nextDouble() - 0.5);
        }
    }
}
