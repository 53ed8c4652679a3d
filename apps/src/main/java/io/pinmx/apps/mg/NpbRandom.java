package io.pinmx.apps.mg;

/**
 * NPB's linear congruential generator x' = a x mod 2^46 (a = 5^13), in exact integer arithmetic: each factor split
 * at bit 23 keeps every partial product below 2^63, so the sequence matches NPB's double-precision randlc bit for bit.
 */
final class NpbRandom
{
    static final long MULTIPLIER = 1_220_703_125L;
    static final long SEED = 314_159_265L;

    private static final int HALF_BITS = 23;
    private static final long HALF_MASK = (1L << HALF_BITS) - 1;
    private static final long MODULUS_MASK = (1L << 46) - 1;
    private static final double TWO_TO_MINUS_46 = 0x1.0p-46;

    private NpbRandom()
    {
    }

    /** a * b mod 2^46 for 0 <= a, b < 2^46. */
    static long multiply(final long a, final long b)
    {
        final long aHigh = a >>> HALF_BITS;
        final long aLow = a & HALF_MASK;
        final long bHigh = b >>> HALF_BITS;
        final long bLow = b & HALF_MASK;
        final long cross = (aHigh * bLow + aLow * bHigh) & HALF_MASK;
        return ((cross << HALF_BITS) + aLow * bLow) & MODULUS_MASK;
    }

    /** a^exponent mod 2^46, by repeated squaring. */
    static long power(final long a, final long exponent)
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

    /** The state scaled into (0, 1), as randlc returns it. */
    static double scaled(final long state)
    {
        return state * TWO_TO_MINUS_46;
    }
}
