package io.pinmx.mpj;

import org.junit.jupiter.api.Test;
import xdev.XDevException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MatchBitsTest
{
    @Test
    void contextAndTagComeBackWhateverTheirBits()
    {
        for (final int tag : new int[]{0, 1, 7, -2, Integer.MAX_VALUE, Integer.MIN_VALUE, -1})
        {
            for (final int context : new int[]{0, 1, 513, MatchBits.MAX_CONTEXT})
            {
                final long bits = MatchBits.of(MatchBits.KIND_MESSAGE, 3, context, tag);
                assertEquals(tag, MatchBits.tag(bits));
                assertEquals(context, MatchBits.context(bits));
            }
        }
    }

    @Test
    void kindsEpochsContextsAndTagsNeverShareBits()
    {
        final long base = MatchBits.of(MatchBits.KIND_MESSAGE, 1, 5, 9);
        assertNotEquals(base, MatchBits.of(MatchBits.KIND_DYNAMIC, 1, 5, 9));
        assertNotEquals(base, MatchBits.of(MatchBits.KIND_HEARTBEAT, 1, 5, 9));
        assertNotEquals(base, MatchBits.of(MatchBits.KIND_MESSAGE, 2, 5, 9));
        assertNotEquals(base, MatchBits.of(MatchBits.KIND_MESSAGE, 1, 6, 9));
        assertNotEquals(base, MatchBits.of(MatchBits.KIND_MESSAGE, 1, 5, -1));
        // A tag of all ones must not spill into the context.
        assertEquals(5, MatchBits.context(MatchBits.of(MatchBits.KIND_MESSAGE, 1, 5, -1)));
        // Epochs wrap at 2^14: init 1 and init 2^14 + 1 share bits, consecutive inits never do.
        assertEquals(base, MatchBits.of(MatchBits.KIND_MESSAGE, 1 + (1 << MatchBits.EPOCH_BITS), 5, 9));
    }

    @Test
    void dynamicPartsDifferBySequenceAndNeverMatchMessages()
    {
        final long first = MatchBits.dynamicPart(3, 0);
        assertNotEquals(first, MatchBits.dynamicPart(3, 1));
        assertNotEquals(first, MatchBits.dynamicPart(4, 0));
        assertNotEquals(MatchBits.dynamicPart(3, -1), MatchBits.dynamicPart(3, Integer.MAX_VALUE));
        // An ANY_TAG receive of messages (context 0) must not take a dynamic part.
        assertNotEquals(MatchBits.of(MatchBits.KIND_MESSAGE, 3, 0, 0) & MatchBits.mask(true),
            MatchBits.dynamicPart(3, 77) & MatchBits.mask(true));
    }

    @Test
    void anyTagMasksOnlyTheTag()
    {
        final long posted = MatchBits.of(MatchBits.KIND_MESSAGE, 4, 2, 0);
        final long mask = MatchBits.mask(true);
        assertEquals(posted & mask, MatchBits.of(MatchBits.KIND_MESSAGE, 4, 2, 12345) & mask);
        assertNotEquals(posted & mask, MatchBits.of(MatchBits.KIND_MESSAGE, 4, 3, 12345) & mask);
        assertNotEquals(posted & mask, MatchBits.of(MatchBits.KIND_DYNAMIC, 4, 2, 0) & mask);
        assertNotEquals(posted & mask, MatchBits.of(MatchBits.KIND_MESSAGE, 5, 2, 0) & mask);
        assertEquals(0, posted & ~mask, "a posted ANY_TAG receive has no bits outside its mask");
        final long everyMessageOfTheInit = MatchBits.KIND_AND_EPOCH_MASK;
        assertEquals(posted & everyMessageOfTheInit, MatchBits.of(MatchBits.KIND_MESSAGE, 4, 9, -7) & everyMessageOfTheInit);
    }

    @Test
    void aContextOutsideSixteenBitsIsRefusedByName()
    {
        assertEquals(MatchBits.MAX_CONTEXT, MatchBits.checkContext(MatchBits.MAX_CONTEXT));
        final XDevException high = assertThrows(XDevException.class, () -> MatchBits.checkContext(65536));
        assertTrue(high.getMessage().contains("context 65536"), high.getMessage());
        final XDevException negative = assertThrows(XDevException.class, () -> MatchBits.checkContext(-1));
        assertTrue(negative.getMessage().contains("context -1"), negative.getMessage());
    }
}
