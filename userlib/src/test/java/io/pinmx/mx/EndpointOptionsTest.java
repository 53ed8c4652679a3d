package io.pinmx.mx;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EndpointOptionsTest
{
    @Test
    void zeroRegionCacheBytesTurnsTheCacheOffAndANegativeCapacityIsNamed()
    {
        assertEquals(0, EndpointOptions.builder().regionCacheMaxBytes(0).build().regionCacheMaxBytes());

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> EndpointOptions.builder().regionCacheMaxBytes(-1).build());
        assertEquals("endpoint option regionCacheMaxBytes = -1: must be >= 0 (0: no caching)", ex.getMessage());
    }
}
