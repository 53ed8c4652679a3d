package io.pinmx.pin.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class EndpointConfigTest
{
    private record ExampleOptions(int framePayloadBytes)
    {
    }

    @Test
    void carriesIndexesAndTypedProviderOptions()
    {
        final EndpointConfig config = EndpointConfig.builder()
            .boardIndex(2)
            .endpointIndex(255)
            .options(ExampleOptions.class, new ExampleOptions(8192))
            .build();
        assertEquals(2, config.boardIndex());
        assertEquals(255, config.endpointIndex());
        assertEquals(Optional.of(new ExampleOptions(8192)), config.options(ExampleOptions.class));
        assertEquals(Optional.empty(), config.options(String.class));

        final EndpointConfig replaced = EndpointConfig.builder()
            .options(ExampleOptions.class, new ExampleOptions(1))
            .options(ExampleOptions.class, new ExampleOptions(2))
            .build();
        assertEquals(Optional.of(new ExampleOptions(2)), replaced.options(ExampleOptions.class));
        assertEquals(0, replaced.boardIndex());
        assertEquals(0, replaced.endpointIndex());
    }

    @Test
    void indexesOutOfRangeAreRefusedNamingThem()
    {
        final IllegalArgumentException endpoint = assertThrows(IllegalArgumentException.class,
            () -> EndpointConfig.of(0, 256));
        assertTrue(endpoint.getMessage().contains("endpoint index 256 not in 0..255"), endpoint.getMessage());
        final IllegalArgumentException board = assertThrows(IllegalArgumentException.class,
            () -> EndpointConfig.of(-1, 0));
        assertTrue(board.getMessage().contains("board index -1"), board.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> EndpointConfig.builder().options(ExampleOptions.class, null));
    }

    @Test
    void endpointAddressValidatesAndPrints()
    {
        final BoardAddress board = BoardAddress.parse("udp:127.0.0.1:40000");
        assertEquals("udp:127.0.0.1:40000/4#beef", new EndpointAddress(board, 4, 0xBEEF).toString());
        assertEquals("udp:127.0.0.1:40000/4", new EndpointAddress(board, 4, 0).toString());
        assertThrows(IllegalArgumentException.class, () -> new EndpointAddress(board, 256, 1));
        assertThrows(IllegalArgumentException.class, () -> new EndpointAddress(null, 0, 1));
    }
}
