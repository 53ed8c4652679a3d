package io.pinmx.apps.spmv;

import java.util.Arrays;

/** Rows (and the vector's elements) in contiguous blocks, rank r owning [first(r), first(r + 1)). */
final class RowBlocks
{
    private final int[] firsts;

    /** @throws IllegalArgumentException naming both when there are fewer rows than ranks. */
    RowBlocks(final long rows, final int ranks)
    {
        if (rows < ranks)
        {
            throw new IllegalArgumentException("a matrix of " + rows + " rows cannot give each of " + ranks +
                " ranks a row");
        }
        firsts = new int[ranks + 1];
        for (int r = 0; r <= ranks; r++)
        {
            firsts[r] = (int)(rows * r / ranks);
        }
    }

    int first(final int rank)
    {
        return firsts[rank];
    }

    int end(final int rank)
    {
        return firsts[rank + 1];
    }

    int owner(final int row)
    {
        final int at = Arrays.binarySearch(firsts, row);
        if (at >= 0)
        {
            int r = at;
            while (firsts[r + 1] == row)
            {
                r++;
            }
            return r;
        }
        return -at - 2;
    }
}
