package io.pinmx.pin.node;

import static org.awaitility.Awaitility.await;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Second process of {@link ChronicleMapNodeStateTest}: adds its own host to the shared peer
 * table, publishes counters, then waits until the parent's host appears and prints it.
 * Arguments: peers file, counters file, own host, parent host.
 */
public final class NodeStateChild
{
    private NodeStateChild()
    {
    }

    public static void main(final String[] args)
    {
        try (ChronicleMapPeerTable peers = ChronicleMapPeerTable.open(Path.of(args[0]));
            ChronicleMapCounterStore store = ChronicleMapCounterStore.open(Path.of(args[1])))
        {
            peers.put(args[2], 1, BoardAddress.parse("udp:127.0.0.2:41000"));
            final DriverCounters counters = new DriverCounters();
            counters.add(Counter.PULL_BYTES, 64L << 20);
            counters.increment(Counter.DROPPED_WRONG_SESSION);
            store.publish("udp:127.0.0.2:41000/1", counters);
            System.out.println("PUBLISHED");
            final BoardAddress seen = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> peers.board(args[3], 0).orElse(null), board -> null != board);
            System.out.println("SAW " + seen);
        }
    }
}
