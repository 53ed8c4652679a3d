package io.pinmx.apps.mg;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * NPB MG's problem classes: a periodic grid of {@code points}^3, {@code iterations} V-cycles, and the published L2
 * norm of the final residual that a run must reproduce within {@link #EPSILON}.
 */
public enum MgClass
{
    S(32, 4, 0.5307707005734e-04),
    W(128, 4, 0.6467329375339e-05),
    A(256, 4, 0.2433365309069e-05);

    /** NPB's relative tolerance on the verification norm. */
    public static final double EPSILON = 1.0e-8;

    private final int points;
    private final int iterations;
    private final double verificationNorm;

    MgClass(final int points, final int iterations, final double verificationNorm)
    {
        this.points = points;
        this.iterations = iterations;
        this.verificationNorm = verificationNorm;
    }

    /** @throws IllegalArgumentException naming the class and the known ones when {@code name} is none of them. */
    public static MgClass named(final String name)
    {
        for (final MgClass c : values())
        {
            if (c.name().equals(name))
            {
                return c;
            }
        }
        throw new IllegalArgumentException("NPB MG class '" + name + "' is not one of " +
            Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")));
    }

    /** Grid points along each axis, a power of two. */
    public int points()
    {
        return points;
    }

    public int iterations()
    {
        return iterations;
    }

    public double verificationNorm()
    {
        return verificationNorm;
    }

    /** log2 of the points along an axis: the finest level's number. */
    public int finestLevel()
    {
        return Integer.numberOfTrailingZeros(points);
    }

    public boolean verifies(final double norm)
    {
        return Math.abs(norm - verificationNorm) <= EPSILON * verificationNorm;
    }
}
