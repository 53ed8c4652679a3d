package io.pinmx.pin.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Optional;
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
}
