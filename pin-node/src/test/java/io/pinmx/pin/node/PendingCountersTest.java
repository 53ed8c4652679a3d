package io.pinmx.pin.node;

import io.pinmx.pin.spi.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Final counters left beside the store by endpoints that closed before it opened, and moved in by its next opener. */
class PendingCountersTest
{
    @TempDir
    Path dir;

    private static PublishedCounters snapshot(final String endpoint, final long at, final long tinyFrames)
    {
        final long[] values = new long[Counter.values().length];
        values[Counter.FRAMES_SENT_TINY.ordinal()] = tinyFrames;
        return new PublishedCounters(endpoint, 4242, at, values);
    }

    @Test
    void listingAStoreWithoutPendingSnapshotsCreatesNothing()
    {
        final Path file = dir.resolve("node/counters.dat");
        assertEquals(List.of(), PendingCounters.list(file));
        assertFalse(Files.exists(dir.resolve("node")));
    }

    @Test
    void pendingSnapshotsAreListedAndMovedInUnlessTheStoreHoldsALaterOne() throws Exception
    {
        final Path file = dir.resolve("counters.dat");
        PendingCounters.write(file, snapshot("vm/pid4242/udp:127.0.0.1:4000/0", 2_000, 7));
        PendingCounters.write(file, snapshot("vm/pid4242/udp:127.0.0.1:4001/1", 2_000, 9));
        PendingCounters.write(file, snapshot("vm/pid4242/udp:127.0.0.1:4001/1", 3_000, 11));
        final List<PublishedCounters> pending = PendingCounters.list(file);
        assertEquals(List.of("vm/pid4242/udp:127.0.0.1:4000/0", "vm/pid4242/udp:127.0.0.1:4001/1"),
            pending.stream().map(PublishedCounters::endpoint).toList());
        assertEquals(11, pending.get(1).get(Counter.FRAMES_SENT_TINY), "a later write replaces the earlier one");

        final InMemoryCounterStore store = new InMemoryCounterStore();
        store.publish(snapshot("vm/pid4242/udp:127.0.0.1:4000/0", 5_000, 70));
        assertEquals(1, PendingCounters.moveInto(store, file));
        assertEquals(70, store.get("vm/pid4242/udp:127.0.0.1:4000/0").orElseThrow().get(Counter.FRAMES_SENT_TINY));
        assertEquals(11, store.get("vm/pid4242/udp:127.0.0.1:4001/1").orElseThrow().get(Counter.FRAMES_SENT_TINY));
        assertEquals(List.of(), PendingCounters.list(file));
        try (var left = Files.list(PendingCounters.directoryOf(file)))
        {
            assertEquals(0, left.count());
        }
    }

    @Test
    void aFileThatHoldsNoSnapshotIsNamed() throws Exception
    {
        final Path file = dir.resolve("counters.dat");
        Files.createDirectories(PendingCounters.directoryOf(file));
        Files.writeString(PendingCounters.directoryOf(file).resolve("x"), "garbage");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> PendingCounters.list(file));
        assertTrue(ex.getMessage().startsWith("pending counters " + PendingCounters.directoryOf(file).resolve("x")) &&
            ex.getMessage().contains("garbage"), ex.getMessage());
    }
}
