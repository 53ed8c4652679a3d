package io.pinmx.mpj.programs;

/**
 * What the test programs assert with: a failed check ends the rank with an exception naming it, so the launcher
 * exits non-zero.
 */
final class Check
{
    private Check()
    {
    }

    static void that(final boolean condition, final String what)
    {
        if (!condition)
        {
            throw new AssertionError(what);
        }
    }

    static void equal(final long expected, final long actual, final String what)
    {
        if (expected != actual)
        {
            throw new AssertionError(what + ": expected " + expected + ", got " + actual);
        }
    }

    /** The byte a message of {@code length} bytes from {@code source} (its {@code seq}-th) holds at {@code i}. */
    static byte pattern(final int source, final int seq, final int length, final int i)
    {
        return (byte)(source * 31 + seq * 7 + length + i * 13);
    }
}
