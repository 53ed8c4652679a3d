package io.pinmx.mx.reliability;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SequenceNumbersTest
{
    @Test
    void wrapsAroundAndComparesAcrossTheWrap()
    {
        final SequenceNumbers s = new SequenceNumbers(16);
        assertEquals(0, s.next(0xFFFF));
        assertTrue(s.isBefore(0xFFFE, 2));
        assertFalse(s.isBefore(2, 0xFFFE));
        assertFalse(s.isBefore(7, 7));
        assertEquals(4, s.distance(0xFFFE, 2));
        assertTrue(s.isValid(0xFFFF));
        assertFalse(s.isValid(0x10000));
    }

    @Test
    void halfTheSpaceAheadIsNotBefore()
    {
        final SequenceNumbers s = new SequenceNumbers(4);
        assertTrue(s.isBefore(0, 7));
        assertFalse(s.isBefore(0, 8));
    }

    @Test
    void widthIsChecked()
    {
        assertThrows(IllegalArgumentException.class, () -> new SequenceNumbers(1));
        assertThrows(IllegalArgumentException.class, () -> new SequenceNumbers(32));
    }
}
