package io.pinmx.mx.reliability;

/**
 * Serial-number arithmetic for sequence numbers of a fixed bit width that wrap around:
 * {@code a} is before {@code b} when b is less than half the space ahead of a.
 */
public final class SequenceNumbers
{
    private final int mask;
    private final int halfSpace;

    /**
     * @param widthBits 2..31 bits of sequence space.
     */
    public SequenceNumbers(final int widthBits)
    {
        if (widthBits < 2 || widthBits > 31)
        {
            throw new IllegalArgumentException("sequence width must be 2..31 bits, was " + widthBits);
        }
        mask = (int)((1L << widthBits) - 1);
        halfSpace = 1 << (widthBits - 1);
    }

    public int next(final int seq)
    {
        return (seq + 1) & mask;
    }

    /**
     * @return how far {@code to} is ahead of {@code from}, in 0..space-1.
     */
    public int distance(final int from, final int to)
    {
        return (to - from) & mask;
    }

    public boolean isBefore(final int a, final int b)
    {
        final int d = distance(a, b);
        return d != 0 && d < halfSpace;
    }

    public int halfSpace()
    {
        return halfSpace;
    }

    public boolean isValid(final int seq)
    {
        return (seq & ~mask) == 0;
    }
}
