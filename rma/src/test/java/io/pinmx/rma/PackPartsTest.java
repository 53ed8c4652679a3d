package io.pinmx.rma;

import org.junit.jupiter.api.Test;

import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PackPartsTest
{
    private static final IntPredicate NONE_FAILED = p -> false;

    @Test
    void partsAreAlignedFirstFitAndFreeAgainWhenReleased()
    {
        final PackParts parts = new PackParts(1024);
        assertEquals(0, parts.reserve(100, 1, NONE_FAILED));
        assertEquals(128, parts.reserve(64, 2, NONE_FAILED));
        assertEquals(192, parts.reserve(832, 1, NONE_FAILED));
        assertEquals(1024, parts.reservedBytes());
        assertEquals(-1, parts.reserve(1, 3, NONE_FAILED), "no byte is free");

        assertTrue(parts.release(0, 1));
        assertEquals(-1, parts.reserve(129, 3, NONE_FAILED), "the hole at 0 holds 128 bytes");
        assertEquals(0, parts.reserve(128, 3, NONE_FAILED));
        assertEquals(1024, parts.reservedBytes());
    }

    @Test
    void aReleaseOfAPartThePartnerDoesNotHoldFreesNothing()
    {
        final PackParts parts = new PackParts(1024);
        final long at = parts.reserve(512, 1, NONE_FAILED);
        assertFalse(parts.release(at, 2), "another partner's part");
        assertFalse(parts.release(at + 64, 1), "not where a part starts");
        assertEquals(512, parts.reservedBytes());
        assertTrue(parts.release(at, 1));
        assertFalse(parts.release(at, 1), "released twice");
        assertEquals(0, parts.reservedBytes());
    }

    @Test
    void partsOfFailedPartnersAreFreedOnlyWhenRoomRunsOut()
    {
        final PackParts parts = new PackParts(1024);
        parts.reserve(512, 7, NONE_FAILED);
        parts.reserve(256, 8, NONE_FAILED);
        final IntPredicate sevenFailed = p -> 7 == p;
        assertEquals(768, parts.reserve(256, 9, sevenFailed), "room left: nothing freed");
        assertEquals(1024, parts.reservedBytes());
        assertEquals(0, parts.reserve(300, 9, sevenFailed), "full: the failed partner's part is taken");
        assertEquals(320 + 256 + 256, parts.reservedBytes());
        assertFalse(parts.release(0, 7));
    }

    @Test
    void emptyOrLargerThanTheAreaIsRefused()
    {
        final PackParts parts = new PackParts(1024);
        assertEquals(-1, parts.reserve(0, 1, NONE_FAILED));
        assertEquals(-1, parts.reserve(1025, 1, NONE_FAILED));
        assertEquals(0, parts.reservedBytes());
    }
}
