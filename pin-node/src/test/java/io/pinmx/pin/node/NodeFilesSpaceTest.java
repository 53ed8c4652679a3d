package io.pinmx.pin.node;

import io.pinmx.pin.provider.SmallTmpfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Node-wide files in a directory without room: refused naming it, no file left to block the next open. */
class NodeFilesSpaceTest
{
    private static final long SMALL_BYTES = 8 * 1024;
    private static final long ROOMY_BYTES = 4L << 20;
    /** Shorter than the default: a file left half made would make the second open wait this long and fail. */
    private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void counterAndPeerFilesThatDoNotFitAreRefusedNamingTheDirectoryAndLeaveNothing() throws Exception
    {
        try (SmallTmpfs tmpfs = SmallTmpfs.mount(dir, SMALL_BYTES))
        {
            final Path counters = tmpfs.directory().resolve("counters.dat");
            final Path peers = tmpfs.directory().resolve("peers.dat");
            refused(tmpfs, "pinmx-counters file counters.dat", NodeFiles.COUNTERS_FILE_PROPERTY,
                () -> ChronicleMapCounterStore.open(counters, OPEN_TIMEOUT).close());
            refused(tmpfs, "pinmx-peers file peers.dat", NodeFiles.PEERS_FILE_PROPERTY,
                () -> ChronicleMapPeerTable.open(peers, OPEN_TIMEOUT).close());

            tmpfs.resize(ROOMY_BYTES);
            try (ChronicleMapCounterStore store = ChronicleMapCounterStore.open(counters, OPEN_TIMEOUT);
                ChronicleMapPeerTable table = ChronicleMapPeerTable.open(peers, OPEN_TIMEOUT))
            {
                assertEquals(List.of(), store.list());
                assertEquals(List.of(), table.list());
            }
        }
    }

    private static void refused(final SmallTmpfs tmpfs, final String what, final String property, final Runnable open)
        throws Exception
    {
        final String message = assertThrows(UncheckedIOException.class, open::run).getMessage();
        assertTrue(message.matches("\\Q" + tmpfs.directory() + " has no room for " + what + ": \\E\\d+ bytes asked, " +
            "\\d+ free of " + SMALL_BYTES + " \\(.*\\); set the system property \\Q" + property +
            "\\E to a file in a directory with more room"), message);
        assertEquals(List.of(), tmpfs.files(), "no file left");
    }
}
