package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MessageCostTest
{
    @Test
    void aMessageSizeOutsideTheRangeOrNotANumberIsRefusedNamingTheArgument()
    {
        for (final String bad : new String[] {"33", "-1", "eight"})
        {
            final IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> MessageCost.messageBytes(new String[] {bad}));
            assertTrue(e.getMessage().contains("MESSAGE_BYTES '" + bad + "'") ||
                e.getMessage().contains("MESSAGE_BYTES " + bad + " "), e.getMessage());
        }
        assertEquals("MessageCost: unexpected argument 'x'",
            assertThrows(IllegalArgumentException.class, () -> MessageCost.messageBytes(new String[] {"8", "x"}))
                .getMessage());
        assertEquals(8, MessageCost.messageBytes(new String[0]));
    }
}
