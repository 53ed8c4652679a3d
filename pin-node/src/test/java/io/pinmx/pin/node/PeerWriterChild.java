package io.pinmx.pin.node;

import static org.awaitility.Awaitility.await;

import io.pinmx.pin.spi.BoardAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Second process of {@link ChronicleMapNodeStateTest}: once the go file exists, writes the boards
 * of one parity into the shared peer table while the parent writes the other parity.
 * Arguments: peers file, go file, parity (0 or 1).
 */
public final class PeerWriterChild
{
    static final int HOSTS = 8;
    static final int BOARDS = 96;

    private PeerWriterChild()
    {
    }

    public static void main(final String[] args)
    {
        try (ChronicleMapPeerTable peers = ChronicleMapPeerTable.open(Path.of(args[0])))
        {
            System.out.println("READY");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(1))
                .until(() -> Files.exists(Path.of(args[1])));
            writeBoards(peers, Integer.parseInt(args[2]));
            System.out.println("WROTE");
        }
    }

    static void writeBoards(final PeerTable peers, final int parity)
    {
        for (int board = parity; board < BOARDS; board += 2)
        {
            for (int host = 0; host < HOSTS; host++)
            {
                peers.put("host-" + host, board, address(host, board));
            }
        }
    }

    static BoardAddress address(final int host, final int board)
    {
        return BoardAddress.parse("udp:10.0." + host + "." + board + ":" + (40000 + board));
    }
}
