package io.pinmx.pin.node;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.EndpointAddress;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PeerNamesTest
{
    private static final BoardAddress NODE2_UDP = BoardAddress.parse("udp:10.0.0.2:40000");
    private static final BoardAddress NODE2_ETH = BoardAddress.parse("eth:02:00:00:00:00:02");

    private static PeerTable table()
    {
        final PeerTable table = new InMemoryPeerTable();
        table.put("node2", 0, NODE2_UDP);
        table.put("node2", 3, NODE2_ETH);
        return table;
    }

    @Test
    void aHostNameIsItsBoardZeroAndHostColonBoardThatBoard()
    {
        final PeerTable table = table();
        assertEquals(NODE2_UDP, PeerNames.board(table, "node2"));
        assertEquals(NODE2_ETH, PeerNames.board(table, "node2:3"));
        assertEquals(new EndpointAddress(NODE2_ETH, 7, 0), PeerNames.endpoint(table, "node2:3", 7));
    }

    @Test
    void unknownHostsBoardsAndBadNamesAreNamed()
    {
        final PeerTable table = table();
        assertEquals("peer name 'node9': host node9 is not in the peer table in memory (add it: pinmx-admin peers add " +
            "node9 BOARD_ADDRESS)", assertThrows(IllegalArgumentException.class,
            () -> PeerNames.board(table, "node9")).getMessage());
        assertEquals("peer name 'node2:1': host node2 has no board 1 in the peer table in memory (its boards: [0, 3])",
            assertThrows(IllegalArgumentException.class, () -> PeerNames.board(table, "node2:1")).getMessage());
        assertEquals("peer name 'node2:x': board index 'x' is not a number (expected HOST or HOST:BOARD_INDEX)",
            assertThrows(IllegalArgumentException.class, () -> PeerNames.board(table, "node2:x")).getMessage());
        assertEquals("board index 256 not in 0..255",
            assertThrows(IllegalArgumentException.class, () -> PeerNames.board(table, "node2:256")).getMessage());
        assertEquals("endpoint address: endpoint index 256 not in 0..255",
            assertThrows(IllegalArgumentException.class, () -> PeerNames.endpoint(table, "node2", 256)).getMessage());
        assertEquals("peer name is null: expected HOST or HOST:BOARD_INDEX",
            assertThrows(IllegalArgumentException.class, () -> PeerNames.board(table, null)).getMessage());
    }
}
