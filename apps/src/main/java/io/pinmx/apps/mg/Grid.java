package io.pinmx.apps.mg;

import java.util.Arrays;

/**
 * One level's values held by this rank: {@code side} x {@code side} points per z plane (the level's points along x
 * and y plus a ghost on each side), {@code planes} interior z planes starting at global plane {@code firstPlane},
 * and a ghost plane below and above them. x varies fastest, so a z plane is one contiguous run of
 * {@link #planeSize()} values.
 */
final class Grid
{
    final int side;
    final int planes;
    final int firstPlane;
    final double[] values;

    Grid(final int points, final int planes, final int firstPlane)
    {
        this.side = points + 2;
        this.planes = planes;
        this.firstPlane = firstPlane;
        this.values = new double[side * side * (planes + 2)];
    }

    int planeSize()
    {
        return side * side;
    }

    /** Where plane {@code z} (0 the lower ghost, {@code planes + 1} the upper) starts in {@link #values}. */
    int planeStart(final int z)
    {
        return z * side * side;
    }

    int index(final int x, final int y, final int z)
    {
        return x + side * (y + side * z);
    }

    void zero()
    {
        Arrays.fill(values, 0.0);
    }

    /** Periodic ghosts along x, then y, on the interior planes (NPB's comm3 order: a y ghost row includes x ghosts). */
    void wrapXy(final int fromPlane, final int toPlane)
    {
        final int n = side - 2;
        for (int z = fromPlane; z <= toPlane; z++)
        {
            for (int y = 1; y <= n; y++)
            {
                final int row = index(0, y, z);
                values[row] = values[row + n];
                values[row + n + 1] = values[row + 1];
            }
            final int plane = planeStart(z);
            System.arraycopy(values, plane + side * n, values, plane, side);
            System.arraycopy(values, plane + side, values, plane + side * (n + 1), side);
        }
    }

    /** Periodic ghost planes from this grid's own interior: the whole level is held here. */
    void wrapZ()
    {
        final int size = planeSize();
        System.arraycopy(values, planeStart(planes), values, planeStart(0), size);
        System.arraycopy(values, planeStart(1), values, planeStart(planes + 1), size);
    }
}
