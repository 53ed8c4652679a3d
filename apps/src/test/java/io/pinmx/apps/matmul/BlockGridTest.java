package io.pinmx.apps.matmul;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The grid each rank count gets, and every chunk's pieces found exactly where their blocks hold them. */
class BlockGridTest
{
    @ParameterizedTest(name = "order {0} on {1} ranks: {2}x{3}, chunk {4}")
    @CsvSource({"1024, 1, 1, 1, 256", "1024, 2, 1, 2, 256", "1024, 4, 2, 2, 256", "96, 6, 2, 3, 16",
        "1000, 8, 2, 4, 250", "128, 4, 2, 2, 64"})
    void gridsAndChunks(final int order, final int ranks, final int rows, final int cols, final int chunk)
    {
        final BlockGrid grid = BlockGrid.of(order, ranks);
        assertEquals(new BlockGrid(order, rows, cols, chunk), grid);
        for (int rank = 0; rank < ranks; rank++)
        {
            assertEquals(rank, grid.rankAt(grid.gridRow(rank), grid.gridCol(rank)));
        }
        for (int t = 0; t < grid.chunks(); t++)
        {
            final int k = t * grid.chunk();
            assertEquals(k, grid.aOwnerCol(t) * grid.blockCols() + grid.aLocalCol(t), "A chunk " + t);
            assertEquals(k, grid.bOwnerRow(t) * grid.blockRows() + grid.bLocalRow(t), "B chunk " + t);
            assertEquals(true, grid.aLocalCol(t) + grid.chunk() <= grid.blockCols(), "A chunk " + t + " in one block");
            assertEquals(true, grid.bLocalRow(t) + grid.chunk() <= grid.blockRows(), "B chunk " + t + " in one block");
        }
        for (int rank = 0; rank < ranks; rank++)
        {
            assertEquals(grid.gridCol(rank), grid.aOwnerCol(grid.firstChunk(rank)));
        }
    }

    @Test
    void refusesWhatCannotBeShared()
    {
        assertEquals("matrix order 128 is not a multiple of the 3 ranks of a 1x3 grid",
            assertThrows(IllegalArgumentException.class, () -> BlockGrid.of(128, 3)).getMessage());
        assertEquals("matrix order 0 is not in 1..16384",
            assertThrows(IllegalArgumentException.class, () -> BlockGrid.of(0, 1)).getMessage());
        assertEquals("rank count 0 is not positive",
            assertThrows(IllegalArgumentException.class, () -> BlockGrid.of(8, 0)).getMessage());
        assertEquals("chunk 40 does not divide the blocks' common side 96",
            assertThrows(IllegalArgumentException.class, () -> BlockGrid.of(192, 4, 40)).getMessage());
        assertEquals(new BlockGrid(192, 2, 2, 32), BlockGrid.of(192, 4, 32));
    }
}
