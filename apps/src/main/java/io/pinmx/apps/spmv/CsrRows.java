package io.pinmx.apps.spmv;

import java.util.Arrays;

/**
 * A block of a sparse matrix's rows in compressed sparse row form: row {@code first + i}'s nonzeros are
 * {@code columns[rowStarts[i]..rowStarts[i + 1])} (global column numbers) with their {@code values}.
 */
final class CsrRows
{
    final int first;
    final int last;
    final int[] rowStarts;
    final int[] columns;
    final double[] values;

    private CsrRows(final int first, final int last, final int[] rowStarts, final int[] columns, final double[] values)
    {
        this.first = first;
        this.last = last;
        this.rowStarts = rowStarts;
        this.columns = columns;
        this.values = values;
    }

    int rowCount()
    {
        return last - first;
    }

    int nonzeros()
    {
        return columns.length;
    }

    /** y[i] = row (first + i) times x, {@code x} indexed by {@code columnSlots} (one slot per nonzero). */
    void multiply(final int[] columnSlots, final double[] x, final double[] y)
    {
        for (int i = 0; i < rowCount(); i++)
        {
            double sum = 0.0;
            for (int k = rowStarts[i]; k < rowStarts[i + 1]; k++)
            {
                sum += values[k] * x[columnSlots[k]];
            }
            y[i] = sum;
        }
    }

    static final class Builder
    {
        private final int first;
        private final int last;
        private final int[] rowStarts;
        private int[] columns = new int[64];
        private double[] values = new double[64];
        private int count;
        private int row;

        Builder(final int first, final int last)
        {
            this.first = first;
            this.last = last;
            this.rowStarts = new int[last - first + 1];
        }

        void add(final int column, final double value)
        {
            if (count == columns.length)
            {
                columns = Arrays.copyOf(columns, 2 * count);
                values = Arrays.copyOf(values, 2 * count);
            }
            columns[count] = column;
            values[count] = value;
            count++;
        }

        void endRow()
        {
            rowStarts[++row] = count;
        }

        CsrRows build()
        {
            return new CsrRows(first, last, rowStarts, Arrays.copyOf(columns, count), Arrays.copyOf(values, count));
        }
    }
}
