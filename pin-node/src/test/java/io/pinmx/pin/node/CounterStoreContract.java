package io.pinmx.pin.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Behaviour every {@link CounterStore} must have; subclasses supply the implementation.
 */
abstract class CounterStoreContract
{
    abstract CounterStore store();

    @Test
    void publishReplacesTheEndpointsSnapshot()
    {
        final CounterStore store = store();
        final DriverCounters counters = new DriverCounters();
        counters.add(Counter.PULL_BYTES, Long.MAX_VALUE);
        counters.increment(Counter.FRAMES_SENT_TINY);
        store.publish("udp:10.0.0.1:40000/1", counters);
        final PublishedCounters first = store.get("udp:10.0.0.1:40000/1").orElseThrow();
        assertEquals(Long.MAX_VALUE, first.get(Counter.PULL_BYTES));
        assertEquals(1, first.get(Counter.FRAMES_SENT_TINY));
        assertEquals(0, first.get(Counter.PULLS_FAILED));
        assertEquals(ProcessHandle.current().pid(), first.pid());
        assertTrue(first.publisherAlive());

        counters.increment(Counter.FRAMES_SENT_TINY);
        store.publish("udp:10.0.0.1:40000/1", counters);
        assertEquals(2, store.get("udp:10.0.0.1:40000/1").orElseThrow().get(Counter.FRAMES_SENT_TINY));
        assertEquals(1, store.list().size());
    }

    @Test
    void listIsSortedAndRemoveForgets()
    {
        final CounterStore store = store();
        store.publish("udp:10.0.0.1:40000/2", new DriverCounters());
        store.publish("eth:02:00:00:00:00:01/0", new DriverCounters());
        assertEquals(List.of("eth:02:00:00:00:00:01/0", "udp:10.0.0.1:40000/2"),
            store.list().stream().map(PublishedCounters::endpoint).toList());
        assertTrue(store.remove("udp:10.0.0.1:40000/2"));
        assertFalse(store.remove("udp:10.0.0.1:40000/2"));
        assertEquals(Optional.empty(), store.get("udp:10.0.0.1:40000/2"));
    }

    @Test
    void badSnapshotsAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new PublishedCounters(" ", 1, 1, new long[DriverCounters.size()]));
        assertThrows(IllegalArgumentException.class, () -> new PublishedCounters("a;b", 1, 1, new long[DriverCounters.size()]));
        final IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
            () -> new PublishedCounters("e", 1, 1, new long[2]));
        assertTrue(size.getMessage().contains("2 values"), size.getMessage());
        assertEquals(List.of(), store().list());
    }
}
