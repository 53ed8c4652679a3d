package io.pinmx.rma;

/**
 * The element types accumulate works on, with their size and the alignment an atomic update of one
 * element needs at the target.
 */
public enum ElementType
{
    INT(4, 4),
    LONG(8, 8),
    FLOAT(4, 4),
    DOUBLE(8, 8),
    /**
     * Two floats (re, im), updated together under a lock stripe; aligned like C's float complex (4 bytes), so an
     * array of them may start at any float.
     */
    COMPLEX_FLOAT(8, 4),
    /** Two doubles (re, im), updated together under a lock stripe: Java has no 16-byte compare-and-set. */
    COMPLEX_DOUBLE(16, 8);

    private final int bytes;
    private final int alignmentBytes;

    ElementType(final int bytes, final int alignmentBytes)
    {
        this.bytes = bytes;
        this.alignmentBytes = alignmentBytes;
    }

    /** @return bytes of one element. */
    public int bytes()
    {
        return bytes;
    }

    /** @return alignment of an element's target address that its atomic update needs. */
    public int alignmentBytes()
    {
        return alignmentBytes;
    }
}
