package io.pinmx.pin.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinmx.pin.spi.BoardAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Behaviour every {@link PeerTable} must have; subclasses supply the implementation.
 */
abstract class PeerTableContract
{
    static final BoardAddress UDP_A = BoardAddress.parse("udp:10.0.0.1:40000");
    static final BoardAddress ETH_A = BoardAddress.parse("eth:02:00:00:00:00:01");
    static final BoardAddress UDP_B = BoardAddress.parse("udp:[::1]:5000");

    abstract PeerTable table();

    @Test
    void putGetAndListHostsWithTheirBoards()
    {
        final PeerTable table = table();
        table.put("node-b", 0, UDP_B);
        table.put("node-a", 1, ETH_A);
        final HostBoards a = table.put("node-a", 0, UDP_A);
        assertEquals(List.of(0, 1), List.copyOf(a.boards().keySet()));
        assertEquals(Optional.of(ETH_A), table.board("node-a", 1));
        assertEquals(Optional.of(UDP_A), table.board("node-a", 0));
        assertEquals(Optional.empty(), table.board("node-a", 2));
        assertEquals(Optional.empty(), table.get("node-c"));
        assertEquals(List.of("node-a", "node-b"), table.list().stream().map(HostBoards::host).toList());
        assertEquals(a, table.get("node-a").orElseThrow());
    }

    @Test
    void putReplacesABoardAndRemoveDropsBoardsThenHosts()
    {
        final PeerTable table = table();
        table.put("node-a", 0, UDP_A);
        table.put("node-a", 0, ETH_A);
        table.put("node-a", 3, UDP_B);
        assertEquals(Optional.of(ETH_A), table.board("node-a", 0));
        assertTrue(table.remove("node-a", 0));
        assertFalse(table.remove("node-a", 0));
        assertEquals(Optional.of(UDP_B), table.board("node-a", 3));
        assertTrue(table.remove("node-a", 3));
        assertEquals(Optional.empty(), table.get("node-a"));
        assertFalse(table.remove("node-a", 3));

        table.put("node-a", 0, UDP_A);
        assertTrue(table.remove("node-a"));
        assertFalse(table.remove("node-a"));
        assertEquals(List.of(), table.list());
    }

    @Test
    void badHostNamesAndBoardIndexesAreRefusedAndChangeNothing()
    {
        final PeerTable table = table();
        final IllegalArgumentException host = assertThrows(IllegalArgumentException.class,
            () -> table.put("bad host", 0, UDP_A));
        assertTrue(host.getMessage().contains("host name 'bad host'"), host.getMessage());
        assertThrows(IllegalArgumentException.class, () -> table.put("", 0, UDP_A));
        assertThrows(IllegalArgumentException.class, () -> table.put("a;b", 0, UDP_A));
        final IllegalArgumentException board = assertThrows(IllegalArgumentException.class,
            () -> table.put("node-a", 256, UDP_A));
        assertTrue(board.getMessage().contains("board index 256 not in 0..255"), board.getMessage());
        assertThrows(IllegalArgumentException.class, () -> table.put("node-a", 0, null));
        assertEquals(List.of(), table.list());
    }

    @Test
    void concurrentPutsOfOneHostKeepEveryBoard() throws Exception
    {
        final PeerTable table = table();
        final Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++)
        {
            final int first = t;
            threads[t] = new Thread(() ->
            {
                for (int board = first; board < 64; board += 2)
                {
                    table.put("node-a", board, BoardAddress.parse("udp:10.0.0.1:" + (40000 + board * 100)));
                }
            });
            threads[t].start();
        }
        for (final Thread thread : threads)
        {
            thread.join(60_000);
        }
        final HostBoards boards = table.get("node-a").orElseThrow();
        assertEquals(64, boards.boards().size());
        assertEquals(BoardAddress.parse("udp:10.0.0.1:46300"), boards.boards().get(63));
        assertEquals(64, boards.nextFreeBoardIndex());
    }
}
