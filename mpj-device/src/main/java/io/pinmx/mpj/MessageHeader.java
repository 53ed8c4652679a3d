package io.pinmx.mpj;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Flyweight over the header that leads every message: the static buffer's and the dynamic buffer's lengths, the
 * sender's rank, the first section's type code and element count (what a probe reports without the data), and the
 * dynamic buffer's sequence number from this sender to this receiver ({@link MatchBits#dynamicPart}).
 * The static buffer's bytes follow it in the same endpoint message; the dynamic buffer, if any, follows as a
 * second message from the same sender.
 */
final class MessageHeader
{
    static final int BYTES = 24;
    /** No section in the static buffer (a message of fewer bytes than a section header). */
    static final int NO_TYPE = -1;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final long STATIC_BYTES = 0;
    private static final long DYNAMIC_BYTES = 4;
    private static final long SOURCE_RANK = 8;
    private static final long TYPE_CODE = 12;
    private static final long ELEMENTS = 16;
    private static final long DYNAMIC_SEQUENCE = 20;

    private MessageHeader()
    {
    }

    static void write(
        final MemorySegment at, final int staticBytes, final int dynamicBytes, final int sourceRank,
        final int typeCode, final int elements, final int dynamicSequence)
    {
        at.set(INT, STATIC_BYTES, staticBytes);
        at.set(INT, DYNAMIC_BYTES, dynamicBytes);
        at.set(INT, SOURCE_RANK, sourceRank);
        at.set(INT, TYPE_CODE, typeCode);
        at.set(INT, ELEMENTS, elements);
        at.set(INT, DYNAMIC_SEQUENCE, dynamicSequence);
    }

    static int staticBytes(final MemorySegment at)
    {
        return at.get(INT, STATIC_BYTES);
    }

    static int dynamicBytes(final MemorySegment at)
    {
        return at.get(INT, DYNAMIC_BYTES);
    }

    static int sourceRank(final MemorySegment at)
    {
        return at.get(INT, SOURCE_RANK);
    }

    static int typeCode(final MemorySegment at)
    {
        return at.get(INT, TYPE_CODE);
    }

    static int elements(final MemorySegment at)
    {
        return at.get(INT, ELEMENTS);
    }

    static int dynamicSequence(final MemorySegment at)
    {
        return at.get(INT, DYNAMIC_SEQUENCE);
    }
}
