package io.pinmx.mpj.npb;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NpbRandomTest
{
    private static final BigInteger TWO_TO_46 = BigInteger.ONE.shiftLeft(46);

    @Test
    void multipliesModulo2To46Exactly()
    {
        final long[] values = {1, 3, NpbRandom.MULTIPLIER, NpbRandom.SEED, (1L << 46) - 1, (1L << 45) + 12345, 1L << 23};
        for (final long a : values)
        {
            for (final long b : values)
            {
                final long expected = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).mod(TWO_TO_46).longValue();
                assertEquals(expected, NpbRandom.multiply(a, b), a + " * " + b);
            }
        }
    }

    @Test
    void powerSkipsAheadInTheSequence()
    {
        for (final long exponent : new long[] {0, 1, 2, 5, 1_000, 32 * 32 + 7})
        {
            long state = NpbRandom.SEED;
            for (long i = 0; i < exponent; i++)
            {
                state = NpbRandom.multiply(state, NpbRandom.MULTIPLIER);
            }
            assertEquals(state, NpbRandom.multiply(NpbRandom.SEED, NpbRandom.power(NpbRandom.MULTIPLIER, exponent)),
                "a^" + exponent);
        }
        final long big = (1L << 40) + 3;
        assertEquals(BigInteger.valueOf(NpbRandom.MULTIPLIER).modPow(BigInteger.valueOf(big), TWO_TO_46).longValue(),
            NpbRandom.power(NpbRandom.MULTIPLIER, big));
        assertEquals(0.5, NpbRandom.scaled(1L << 45));
    }

    @Test
    void eachRankStartsWhereTheSequenceOfTheRanksBeforeItEnds()
    {
        final int ranks = 4;
        final long total = 1 << 12;
        final NpbRandom sequential = new NpbRandom(NpbRandom.SEED);
        for (int rank = 0; rank < ranks; rank++)
        {
            final NpbRandom own = new NpbRandom(NpbRandom.seedOfRank(rank, ranks, total));
            for (long i = 0; i < total / ranks; i++)
            {
                assertEquals(sequential.next(NpbRandom.MULTIPLIER), own.next(NpbRandom.MULTIPLIER),
                    "rank " + rank + " draw " + i);
            }
        }
    }

    @Test
    void drawsLieStrictlyBetweenZeroAndOne()
    {
        final NpbRandom r = new NpbRandom(NpbRandom.SEED);
        for (int i = 0; i < 10_000; i++)
        {
            final double x = r.next(NpbRandom.MULTIPLIER);
            assertTrue(x > 0 && x < 1, "draw " + i + " = " + x);
        }
    }

    @Test
    void refusesAShareThatIsNotAPowerOfTwo()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> NpbRandom.seedOfRank(0, 3, 1 << 12));
        assertTrue(e.getMessage().contains("4096/3"), e.getMessage());
    }
}
