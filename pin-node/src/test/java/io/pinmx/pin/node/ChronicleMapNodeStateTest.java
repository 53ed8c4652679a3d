package io.pinmx.pin.node;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real JVMs share the peer table and the counter store through their persisted files.
 */
class ChronicleMapNodeStateTest
{
    @TempDir
    Path directory;

    @Test
    void aSecondJvmSeesOurEntriesAndWeSeeItsEntries() throws Exception
    {
        final Path peersFile = directory.resolve("peers.dat");
        final Path countersFile = directory.resolve("counters.dat");
        final Path log = directory.resolve("child.log");
        try (ChronicleMapPeerTable peers = ChronicleMapPeerTable.open(peersFile);
            ChronicleMapCounterStore store = ChronicleMapCounterStore.open(countersFile))
        {
            final Process child = ChildJvm.start(log, NodeStateChild.class,
                peersFile.toString(), countersFile.toString(), "child-host", "parent-host");
            try
            {
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                    .until(() -> (peers.get("child-host").isPresent() && store.get("udp:127.0.0.2:41000/1").isPresent()) ||
                        !child.isAlive());
                assertEquals(Optional.of(BoardAddress.parse("udp:127.0.0.2:41000")), peers.board("child-host", 1),
                    () -> "child output: " + read(log));
                final PublishedCounters published = store.get("udp:127.0.0.2:41000/1")
                    .orElseThrow(() -> new AssertionError("no counters from the child: " + read(log)));
                assertEquals(64L << 20, published.get(Counter.PULL_BYTES));
                assertEquals(1, published.get(Counter.DROPPED_WRONG_SESSION));
                assertEquals(child.pid(), published.pid());

                peers.put("parent-host", 0, BoardAddress.parse("eth:02:00:00:00:00:09"));
                assertTrue(child.waitFor(90, TimeUnit.SECONDS), () -> "child still running: " + read(log));
                assertEquals(0, child.exitValue(), () -> "child output: " + read(log));
                assertTrue(read(log).contains("SAW eth:02:00:00:00:00:09"), () -> "child output: " + read(log));
                assertFalse(published.publisherAlive());
            }
            finally
            {
                child.destroyForcibly();
                child.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static String read(final Path log)
    {
        try
        {
            return Files.readString(log);
        }
        catch (final Exception ex)
        {
            return "(no log: " + ex + ")";
        }
    }

    @Test
    void concurrentUpdatesOfOneHostFromTwoJvmsKeepEveryBoard() throws Exception
    {
        final Path peersFile = directory.resolve("peers.dat");
        final Path goFile = directory.resolve("go");
        final Path log = directory.resolve("writer.log");
        try (ChronicleMapPeerTable peers = ChronicleMapPeerTable.open(peersFile))
        {
            final Process child = ChildJvm.start(log, PeerWriterChild.class, peersFile.toString(), goFile.toString(), "1");
            try
            {
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(20))
                    .until(() -> read(log).contains("READY") || !child.isAlive());
                Files.createFile(goFile);
                PeerWriterChild.writeBoards(peers, 0);
                assertTrue(child.waitFor(90, TimeUnit.SECONDS), () -> "child still running: " + read(log));
                assertEquals(0, child.exitValue(), () -> "child output: " + read(log));
            }
            finally
            {
                child.destroyForcibly();
                child.waitFor(30, TimeUnit.SECONDS);
            }
            assertEquals(PeerWriterChild.HOSTS, peers.list().size());
            for (final HostBoards host : peers.list())
            {
                assertEquals(PeerWriterChild.BOARDS, host.boards().size(), host.host() + " lost boards");
                final int hostIndex = Integer.parseInt(host.host().substring("host-".length()));
                assertEquals(PeerWriterChild.address(hostIndex, PeerWriterChild.BOARDS - 1), host.boards().get(PeerWriterChild.BOARDS - 1));
                assertEquals(PeerWriterChild.address(hostIndex, 0), host.boards().get(0));
            }
        }
    }
}
