package io.pinmx.pin.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class JsonWriterTest
{
    @Test
    void writesNestedValuesInOrderAndEscapesStrings()
    {
        assertEquals("{\"b\":1,\"a\":[true,null,-5,\"q\\\"\\\\\\n\\t\\u0001\"],\"c\":{}}",
            JsonWriter.write(JsonWriter.object("b", 1, "a", java.util.Arrays.asList(true, null, -5L, "q\"\\\n\t\u0001"),
                "c", JsonWriter.object())));
        assertEquals("[]", JsonWriter.write(List.of()));
    }

    @Test
    void aValueWithoutAJsonFormIsNamed()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> JsonWriter.write(List.of(1.5)));
        assertEquals("no JSON form for java.lang.Double", ex.getMessage());
    }
}
