package io.pinmx.mpj.npb;

/**
 * NPB's pseudo-random generator (randlc): x' = a * x mod 2^46, returning x' * 2^-46, with NPB's multiplier and
 * seed. Done here in exact 64-bit integer arithmetic: splitting both factors at bit 23 keeps every partial product
 * below 2^46, so no intermediate overflows and the sequence is bit-identical to NPB's double-precision version.
 * NPB IS (here) and NPB MG (the apps module) draw from it.
 */
public final class NpbRandom
{
    /** NPB's multiplier a = 5^13. */
    public static final long MULTIPLIER = 1_220_703_125L;
    /** The seed of NPB IS and NPB MG. */
    public static final long SEED = 314_159_265L;

    private static final int HALF_BITS = 23;
    private static final long HALF_MASK = (1L << HALF_BITS) - 1;
    private static final long MODULUS_MASK = (1L << 46) - 1;
    private static final double TWO_TO_MINUS_46 = 0x1.0p-46;

    private long x;

    NpbRandom(final long seed)
    {
        x = seed;
    }

    /** Advances the state by one multiplication by {@code a} and returns the new state scaled into (0, 1). */
    double next(final long a)
    {
        x = multiply(a, x);
        return scaled(x);
    }

    /** a * b mod 2^46, for 0 <= a, b < 2^46. */
    public static long multiply(final long a, final long b)
    {
        final long a1 = a >>> HALF_BITS;
        final long a2 = a & HALF_MASK;
        final long b1 = b >>> HALF_BITS;
        final long b2 = b & HALF_MASK;
        final long cross = (a1 * b2 + a2 * b1) & HALF_MASK;
        return ((cross << HALF_BITS) + a2 * b2) & MODULUS_MASK;
    }

    /** a^exponent mod 2^46, by repeated squaring: the step that skips {@code exponent} numbers of a sequence. */
    public static long power(final long a, final long exponent)
    {
        long result = 1;
        long square = a;
        for (long e = exponent; e != 0; e >>>= 1)
        {
            if ((e & 1) != 0)
            {
                result = multiply(result, square);
            }
            square = multiply(square, square);
        }
        return result;
    }

    /** A state scaled into (0, 1), as randlc returns it. */
    public static double scaled(final long state)
    {
        return state * TWO_TO_MINUS_46;
    }

    /**
     * The state from which rank {@code rank} of {@code ranks} starts, when the whole job draws {@code total}
     * numbers from {@link #SEED} in rank order: the seed times a^(rank * total / ranks), by repeated squaring.
     * {@code total / ranks} must be a power of two, as NPB's own seed finder assumes.
     */
    static long seedOfRank(final int rank, final int ranks, final long total)
    {
        final long perRank = total / ranks;
        if (Long.bitCount(perRank) != 1 || perRank * ranks != total)
        {
            throw new IllegalArgumentException(
                "numbers per rank " + total + "/" + ranks + " is not a power of two");
        }
        long step = MULTIPLIER;
        for (long n = perRank; n > 1; n >>>= 1)
        {
            step = multiply(step, step);
        }
        long seed = SEED;
        for (int k = rank; k != 0; k >>>= 1)
        {
            if ((k & 1) != 0)
            {
                seed = multiply(seed, step);
            }
            step = multiply(step, step);
        }
        return seed;
    }
}
