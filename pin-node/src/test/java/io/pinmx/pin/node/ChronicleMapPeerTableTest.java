package io.pinmx.pin.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChronicleMapPeerTableTest extends PeerTableContract
{
    @TempDir
    Path directory;

    private ChronicleMapPeerTable table;

    @BeforeEach
    void open()
    {
        table = ChronicleMapPeerTable.open(directory.resolve("sub").resolve("peers.dat"));
    }

    @AfterEach
    void close()
    {
        table.close();
    }

    @Override
    PeerTable table()
    {
        return table;
    }

    @Test
    void entriesSurviveReopeningAndAreSharedBetweenOpenInstances()
    {
        table.put("node-a", 2, UDP_A);
        try (ChronicleMapPeerTable second = ChronicleMapPeerTable.open(table.file()))
        {
            assertEquals(Optional.of(UDP_A), second.board("node-a", 2));
            second.put("node-b", 0, ETH_A);
        }
        assertEquals(Optional.of(ETH_A), table.board("node-b", 0));
        table.close();
        table = ChronicleMapPeerTable.open(directory.resolve("sub").resolve("peers.dat"));
        assertEquals(2, table.list().size());
    }

    @Test
    void aFileThatIsNotAChronicleMapFailsInBoundedTimeNamingItAndIsLeftAlone() throws Exception
    {
        final Path garbage = directory.resolve("garbage.dat");
        final byte[] bytes = new byte[100_000];
        new SplittableRandom(7).nextBytes(bytes);
        Files.write(garbage, bytes);
        final long startNs = System.nanoTime();
        final UncheckedIOException ex = assertThrows(UncheckedIOException.class,
            () -> ChronicleMapPeerTable.open(garbage, Duration.ofSeconds(3)));
        assertTrue(System.nanoTime() - startNs < Duration.ofSeconds(30).toNanos());
        assertTrue(ex.getMessage().contains("pinmx-peers file " + garbage), ex.getMessage());
        assertTrue(ex.getMessage().contains("not a Chronicle Map file"), ex.getMessage());
        assertArrayEquals(bytes, Files.readAllBytes(garbage));
    }
}
