package io.pinmx.apps.mg;

/**
 * NPB MG's operators on one rank's grids, as the specification defines them: the residual r = v - A u, the smoother
 * u += S r, restriction (rprj3) of a fine residual to the next coarser level and trilinear prolongation (interp) of
 * a coarse correction to the next finer one. Each reads ghost values and writes interior ones; the caller refreshes
 * ghosts afterwards. Coarse plane c sits over fine plane 2c (ghost planes counted, the level's global offsets
 * applied through {@code coarseShift}, which is nonzero when the coarse level is held whole and the fine one is a slab).
 * Each runs {@code betweenPlanes} before every plane it writes: a transport's chance to serve its neighbours.
 */
final class Stencils
{
    /** The operator A: a0 on the point, a1 (zero) on faces, a2 on edges, a3 on corners of its 3x3x3 cube. */
    static final double[] A = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
    /** The smoother S of classes S, W and A (c3 zero). */
    static final double[] C = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};

    private Stencils()
    {
    }

    /** r = v - A u on the interior; {@code v} may be {@code r}. */
    static void residual(final Grid u, final Grid v, final Grid r, final Runnable betweenPlanes)
    {
        final int side = u.side;
        final double[] uv = u.values;
        final double[] vv = v.values;
        final double[] rv = r.values;
        final double[] faces = new double[side];
        final double[] edges = new double[side];
        for (int z = 1; z <= u.planes; z++)
        {
            betweenPlanes.run();
            for (int y = 1; y < side - 1; y++)
            {
                final int at = u.index(0, y, z);
                final int south = at - side;
                final int north = at + side;
                final int below = at - side * side;
                final int above = at + side * side;
                for (int x = 0; x < side; x++)
                {
                    faces[x] = uv[south + x] + uv[north + x] + uv[below + x] + uv[above + x];
                    edges[x] = uv[below + x - side] + uv[below + x + side] + uv[above + x - side] + uv[above + x + side];
                }
                for (int x = 1; x < side - 1; x++)
                {
                    rv[at + x] = vv[at + x] - A[0] * uv[at + x] - A[2] * (edges[x] + faces[x - 1] + faces[x + 1]) -
                        A[3] * (edges[x - 1] + edges[x + 1]);
                }
            }
        }
    }

    /** u += S r on the interior. */
    static void smooth(final Grid r, final Grid u, final Runnable betweenPlanes)
    {
        final int side = u.side;
        final double[] uv = u.values;
        final double[] rv = r.values;
        final double[] faces = new double[side];
        final double[] edges = new double[side];
        for (int z = 1; z <= u.planes; z++)
        {
            betweenPlanes.run();
            for (int y = 1; y < side - 1; y++)
            {
                final int at = u.index(0, y, z);
                final int south = at - side;
                final int north = at + side;
                final int below = at - side * side;
                final int above = at + side * side;
                for (int x = 0; x < side; x++)
                {
                    faces[x] = rv[south + x] + rv[north + x] + rv[below + x] + rv[above + x];
                    edges[x] = rv[below + x - side] + rv[below + x + side] + rv[above + x - side] + rv[above + x + side];
                }
                for (int x = 1; x < side - 1; x++)
                {
                    uv[at + x] += C[0] * rv[at + x] + C[1] * (rv[at + x - 1] + rv[at + x + 1] + faces[x]) +
                        C[2] * (edges[x] + faces[x - 1] + faces[x + 1]);
                }
            }
        }
    }

    /**
     * Restriction of {@code fine} into the interior x/y of coarse planes {@code from..to} of {@code coarse}; coarse
     * plane c is centred on fine plane {@code 2 (c - coarseShift)}.
     */
    static void restrict(
        final Grid fine, final Grid coarse, final int from, final int to, final int coarseShift,
        final Runnable betweenPlanes)
    {
        final int fs = fine.side;
        final int cs = coarse.side;
        final double[] f = fine.values;
        final double[] s = coarse.values;
        final double[] faces = new double[fs];
        final double[] edges = new double[fs];
        for (int cz = from; cz <= to; cz++)
        {
            betweenPlanes.run();
            final int fz = 2 * (cz - coarseShift);
            for (int cy = 1; cy < cs - 1; cy++)
            {
                final int at = fine.index(0, 2 * cy, fz);
                final int south = at - fs;
                final int north = at + fs;
                final int below = at - fs * fs;
                final int above = at + fs * fs;
                for (int x = 0; x < fs; x++)
                {
                    faces[x] = f[south + x] + f[north + x] + f[below + x] + f[above + x];
                    edges[x] = f[below + x - fs] + f[above + x - fs] + f[below + x + fs] + f[above + x + fs];
                }
                final int out = coarse.index(0, cy, cz);
                for (int cx = 1; cx < cs - 1; cx++)
                {
                    final int x = 2 * cx;
                    s[out + cx] = 0.5 * f[at + x] + 0.25 * (f[at + x - 1] + f[at + x + 1] + faces[x]) +
                        0.125 * (faces[x - 1] + faces[x + 1] + edges[x]) + 0.0625 * (edges[x - 1] + edges[x + 1]);
                }
            }
        }
    }

    /**
     * Adds the trilinear interpolation of {@code coarse} to every point of {@code fine}, ghosts included (fine plane
     * 2c and 2c + 1 from coarse planes c + coarseShift and the one above).
     */
    static void prolongate(final Grid coarse, final Grid fine, final int coarseShift, final Runnable betweenPlanes)
    {
        final int cs = coarse.side;
        final int fs = fine.side;
        final double[] z = coarse.values;
        final double[] u = fine.values;
        final double[] alongY = new double[cs];
        final double[] alongZ = new double[cs];
        final double[] alongYz = new double[cs];
        final int coarsePlanes = fine.planes / 2;
        for (int cz = 0; cz <= coarsePlanes; cz++)
        {
            betweenPlanes.run();
            for (int cy = 0; cy < cs - 1; cy++)
            {
                final int at = coarse.index(0, cy, cz + coarseShift);
                final int north = at + cs;
                final int above = at + cs * cs;
                for (int x = 0; x < cs; x++)
                {
                    alongY[x] = z[north + x] + z[at + x];
                    alongZ[x] = z[above + x] + z[at + x];
                    alongYz[x] = z[above + cs + x] + z[above + x] + alongY[x];
                }
                final int f00 = fine.index(0, 2 * cy, 2 * cz);
                final int f10 = f00 + fs;
                final int f01 = f00 + fs * fs;
                final int f11 = f01 + fs;
                for (int x = 0; x < cs - 1; x++)
                {
                    final int fx = 2 * x;
                    u[f00 + fx] += z[at + x];
                    u[f00 + fx + 1] += 0.5 * (z[at + x + 1] + z[at + x]);
                    u[f10 + fx] += 0.5 * alongY[x];
                    u[f10 + fx + 1] += 0.25 * (alongY[x] + alongY[x + 1]);
                    u[f01 + fx] += 0.5 * alongZ[x];
                    u[f01 + fx + 1] += 0.25 * (alongZ[x] + alongZ[x + 1]);
                    u[f11 + fx] += 0.25 * alongYz[x];
                    u[f11 + fx + 1] += 0.125 * (alongYz[x] + alongYz[x + 1]);
                }
            }
        }
    }

    /** {sum of squares, largest magnitude} over the interior. */
    static double[] squaresAndMax(final Grid r)
    {
        double squares = 0.0;
        double max = 0.0;
        final double[] v = r.values;
        for (int z = 1; z <= r.planes; z++)
        {
            for (int y = 1; y < r.side - 1; y++)
            {
                final int at = r.index(0, y, z);
                for (int x = 1; x < r.side - 1; x++)
                {
                    final double value = v[at + x];
                    squares += value * value;
                    max = Math.max(max, Math.abs(value));
                }
            }
        }
        return new double[] {squares, max};
    }
}
