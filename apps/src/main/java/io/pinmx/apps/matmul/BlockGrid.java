package io.pinmx.apps.matmul;

/**
 * The 2-D block distribution of three order x order matrices over {@code rows x cols} ranks (rank r at grid row
 * r / cols, column r % cols, each holding the same block of A, B and C) and the chunks the shared dimension is cut
 * into: chunk t is A's columns and B's rows [t * chunk, (t + 1) * chunk), each held by one rank of a grid row (A)
 * or grid column (B), since the chunk divides every block's side.
 *
 * @param order the matrices' order.
 * @param rows  grid rows: the largest divisor of the rank count at most its square root.
 * @param cols  grid columns.
 * @param chunk the shared dimension's chunk width.
 */
public record BlockGrid(int order, int rows, int cols, int chunk)
{
    /** Chunks are halved down to at most this many columns, so the first, exposed fetch of a rank is small. */
    static final int MAX_CHUNK_COLUMNS = 256;
    /** Blocks are indexed by int. */
    static final int MAX_ORDER = 16_384;

    /** The grid with the default chunk: the blocks' common side, halved down to {@link #MAX_CHUNK_COLUMNS}. */
    public static BlockGrid of(final int order, final int ranks)
    {
        return of(order, ranks, 0);
    }

    /**
     * @param chunk the chunk width, a divisor of the blocks' common side (order / lcm(rows, cols)); 0 for the default.
     * @throws IllegalArgumentException naming the order, rank count or chunk that cannot be used.
     */
    public static BlockGrid of(final int order, final int ranks, final int chunk)
    {
        if (ranks < 1)
        {
            throw new IllegalArgumentException("rank count " + ranks + " is not positive");
        }
        if (order < 1 || order > MAX_ORDER)
        {
            throw new IllegalArgumentException("matrix order " + order + " is not in 1.." + MAX_ORDER);
        }
        int rows = 1;
        for (int d = 1; (long)d * d <= ranks; d++)
        {
            if (ranks % d == 0)
            {
                rows = d;
            }
        }
        final int cols = ranks / rows;
        if (order % ranks != 0)
        {
            throw new IllegalArgumentException("matrix order " + order + " is not a multiple of the " + ranks +
                " ranks of a " + rows + "x" + cols + " grid");
        }
        final int side = order / lcm(rows, cols);
        if (chunk < 0 || (chunk > 0 && side % chunk != 0))
        {
            throw new IllegalArgumentException("chunk " + chunk + " does not divide the blocks' common side " + side);
        }
        int width = chunk > 0 ? chunk : side;
        while (0 == chunk && width > MAX_CHUNK_COLUMNS && width % 2 == 0)
        {
            width /= 2;
        }
        return new BlockGrid(order, rows, cols, width);
    }

    public int ranks()
    {
        return rows * cols;
    }

    /** Rows of every block. */
    public int blockRows()
    {
        return order / rows;
    }

    /** Columns of every block. */
    public int blockCols()
    {
        return order / cols;
    }

    public int chunks()
    {
        return order / chunk;
    }

    public int gridRow(final int rank)
    {
        return rank / cols;
    }

    public int gridCol(final int rank)
    {
        return rank % cols;
    }

    public int rankAt(final int gridRow, final int gridCol)
    {
        return gridRow * cols + gridCol;
    }

    /** The grid column holding chunk t of A's block row. */
    public int aOwnerCol(final int t)
    {
        return t * chunk / blockCols();
    }

    /** Chunk t's first column within its A block. */
    public int aLocalCol(final int t)
    {
        return t * chunk - aOwnerCol(t) * blockCols();
    }

    /** The grid row holding chunk t of B's block column. */
    public int bOwnerRow(final int t)
    {
        return t * chunk / blockRows();
    }

    /** Chunk t's first row within its B block. */
    public int bLocalRow(final int t)
    {
        return t * chunk - bOwnerRow(t) * blockRows();
    }

    /**
     * The chunk a rank starts with: the first of its own A block's, so ranks of a grid row start at different owners
     * and a rank's first chunk needs no A from elsewhere.
     */
    public int firstChunk(final int rank)
    {
        return gridCol(rank) * blockCols() / chunk;
    }

    private static int lcm(final int a, final int b)
    {
        int x = a;
        int y = b;
        while (y != 0)
        {
            final int r = x % y;
            x = y;
            y = r;
        }
        return a / x * b;
    }
}
