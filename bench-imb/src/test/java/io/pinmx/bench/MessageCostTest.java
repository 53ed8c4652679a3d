package io.pinmx.bench;

import org.junit.jupiter.api.Test;

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
                assertThrows(IllegalArgumentException.class, () -> MessageCost.main(new String[] {bad}));
            assertTrue(e.getMessage().contains("MESSAGE_BYTES '" + bad + "'") ||
                e.getMessage().contains("MESSAGE_BYTES " + bad + " "), e.getMessage());
        }
    }
}
