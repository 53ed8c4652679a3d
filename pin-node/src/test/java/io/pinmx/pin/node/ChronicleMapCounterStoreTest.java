package io.pinmx.pin.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinmx.pin.spi.Counter;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChronicleMapCounterStoreTest extends CounterStoreContract
{
    @TempDir
    Path directory;

    private ChronicleMapCounterStore store;

    @BeforeEach
    void open()
    {
        store = ChronicleMapCounterStore.open(directory.resolve("counters.dat"));
    }

    @AfterEach
    void close()
    {
        store.close();
    }

    @Override
    CounterStore store()
    {
        return store;
    }

    @Test
    void storedTextSkipsUnknownCountersAndRefusesGarbage()
    {
        final PublishedCounters decoded = PublishedCounters.decode("e", "pid=7;at=9;NO_SUCH_COUNTER=5;PULLS_DONE=3");
        assertEquals(7, decoded.pid());
        assertEquals(9, decoded.publishedAtEpochMillis());
        assertEquals(3, decoded.get(Counter.PULLS_DONE));
        final IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
            () -> PublishedCounters.decode("e", "pid=7;at=9;PULLS_DONE=x"));
        assertTrue(value.getMessage().contains("bad value in 'PULLS_DONE=x'"), value.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PublishedCounters.decode("e", "at=9"));
        assertThrows(IllegalArgumentException.class, () -> PublishedCounters.decode("e", "pid=7;at=9;junk"));
        assertEquals(decoded, PublishedCounters.decode("e", decoded.encode()));
    }
}
