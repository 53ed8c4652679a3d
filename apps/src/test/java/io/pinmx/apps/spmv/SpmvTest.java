package io.pinmx.apps.spmv;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generators, the row blocks and the ghost plan, in one JVM. */
class SpmvTest
{
    @Test
    void stencilRowsHaveTheirNeighboursInsideTheGrid()
    {
        final CsrRows rows = MatrixKind.STENCIL27.rows(4, 0, 64);
        assertEquals(8, rows.rowStarts[1] - rows.rowStarts[0], "a corner has 8 points in its cube");
        final int centre = 1 + 4 * (1 + 4 * 1);
        assertEquals(27, rows.rowStarts[centre + 1] - rows.rowStarts[centre]);
        final double[] ones = new double[64];
        Arrays.fill(ones, 1.0);
        final double[] y = new double[64];
        rows.multiply(rows.columns, ones, y);
        assertEquals(0.0, y[centre], "26 on the diagonal against 26 neighbours");
        assertEquals(26.0 - 7.0, y[0]);
    }

    @Test
    void aBlockOfRowsIsTheSameRowsAsTheWholeMatrixHas()
    {
        for (final MatrixKind kind : MatrixKind.values())
        {
            final CsrRows whole = kind.rows(10, 0, (int)kind.rows(10));
            final CsrRows block = kind.rows(10, 3, 7);
            assertArrayEquals(Arrays.copyOfRange(whole.columns, whole.rowStarts[3], whole.rowStarts[7]), block.columns);
            assertArrayEquals(Arrays.copyOfRange(whole.values, whole.rowStarts[3], whole.rowStarts[7]), block.values);
        }
    }

    @Test
    void powerLawRowsHaveAHeavyTail()
    {
        final CsrRows rows = MatrixKind.POWER_LAW.rows(20_000, 0, 20_000);
        int largest = 0;
        int atMinimum = 0;
        for (int i = 0; i < rows.rowCount(); i++)
        {
            final int nonzeros = rows.rowStarts[i + 1] - rows.rowStarts[i];
            largest = Math.max(largest, nonzeros);
            atMinimum += nonzeros == MatrixKind.MIN_ROW_NONZEROS ? 1 : 0;
        }
        assertTrue(atMinimum > rows.rowCount() / 4, "many rows at the minimum: " + atMinimum);
        assertTrue(largest > 50 * MatrixKind.MIN_ROW_NONZEROS, "some rows far above it: " + largest);
    }

    @Test
    void ghostsAreTheDistinctRemoteColumnsGroupedByOwner()
    {
        final RowBlocks blocks = new RowBlocks(64, 4);
        final CsrRows rows = MatrixKind.STENCIL27.rows(4, blocks.first(1), blocks.end(1));
        final GhostPlan plan = new GhostPlan(rows, blocks, 4);
        assertEquals(32, plan.ghosts(), "the planes z = 0 and z = 2 of a 4^3 grid");
        assertArrayEquals(new int[] {0, 16, 16, 32, 32}, plan.ownerStarts);
        for (int g = 0; g < plan.ghosts(); g++)
        {
            final int column = plan.ghostColumns[g];
            assertEquals(blocks.owner(column), plan.ghostOwners[g]);
            assertEquals((column - blocks.first(plan.ghostOwners[g])) * 8L, plan.ghostRemoteOffsets[g]);
        }
        for (int k = 0; k < rows.nonzeros(); k++)
        {
            final int slot = plan.columnSlots[k];
            final int column = slot < rows.rowCount() ? rows.first + slot : plan.ghostColumns[slot - rows.rowCount()];
            assertEquals(rows.columns[k], column);
        }
    }

    @Test
    void refusals()
    {
        assertEquals("a matrix of 3 rows cannot give each of 4 ranks a row",
            assertThrows(IllegalArgumentException.class, () -> new RowBlocks(3, 4)).getMessage());
        assertEquals("matrix 'dense' is not one of stencil27, powerlaw",
            assertThrows(IllegalArgumentException.class, () -> MatrixKind.named("dense")).getMessage());
        assertEquals("get mode 'bulk' is not one of per-element, aggregated, vector",
            assertThrows(IllegalArgumentException.class, () -> FetchMode.named("bulk")).getMessage());
    }

    @Test
    void rowBlocksGiveEveryRowOneOwner()
    {
        final RowBlocks blocks = new RowBlocks(10, 4);
        for (int row = 0; row < 10; row++)
        {
            final int owner = blocks.owner(row);
            assertTrue(blocks.first(owner) <= row && row < blocks.end(owner), "row " + row + " owner " + owner);
        }
    }
}
