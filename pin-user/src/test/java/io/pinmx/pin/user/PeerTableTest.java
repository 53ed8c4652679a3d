package io.pinmx.pin.user;

import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;
import static io.pinmx.pin.user.OpenedEndpoints.expect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The user driver's peer table against strangers and churn, over real UDP sockets: misaddressed frames from
 * thousands of source ports leave no entry, thousands of short-lived peers never fill the table, a table whose
 * every entry is referenced says so, and references are counted exactly.
 */
class PeerTableTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int STRANGERS = 3_000;
    private static final int STRANGER_BATCH = 200;
    private static final int SHORT_LIVED_PEERS = PeerRegistry.MAX_PEERS + 1_000;
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment header = arena.allocate(128);
    private final MemorySegment payload = arena.allocate(32);

    @AfterEach
    void closeAll() throws Exception
    {
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            resources.get(i).close();
        }
        arena.close();
    }

    private UserEndpoint open(final UserDriverOptions options)
    {
        final UserEndpoint endpoint = (UserEndpoint)new UserDriver("test").open(EndpointConfig.builder()
            .endpointIndex(0).options(UserDriverOptions.class, options).build());
        resources.add(endpoint);
        return endpoint;
    }

    @Test
    void aFloodOfMisaddressedFramesLeavesNoEntryAndANewPeerStillConnects() throws IOException
    {
        final UserEndpoint endpoint = open(UserDriverOptions.defaults());
        final int session = endpoint.address().sessionId();
        final List<DatagramSocket> strangers = new ArrayList<>();
        for (int i = 0; i < STRANGERS; i++)
        {
            final DatagramSocket stranger = channel();
            strangers.add(stranger);
            final boolean wrongEndpoint = (i & 1) == 0;
            sendFrom(stranger, endpoint, FrameKind.TINY, wrongEndpoint ? 7 : 0, wrongEndpoint ? session : session + 1,
                1000 + i, i);
            if ((i + 1) % STRANGER_BATCH == 0)
            {
                final long refused = i + 1;
                // batches stay within the socket buffer: a dropped datagram would be no test of the table
                await().atMost(TIMEOUT).until(() -> endpoint.counters().get(Counter.DROPPED_WRONG_ENDPOINT) +
                    endpoint.counters().get(Counter.DROPPED_WRONG_SESSION) == refused);
            }
        }
        assertEquals(STRANGERS / 2, endpoint.counters().get(Counter.DROPPED_WRONG_ENDPOINT));
        assertEquals(STRANGERS / 2, endpoint.counters().get(Counter.DROPPED_WRONG_SESSION));
        assertEquals(STRANGERS, endpoint.counters().get(Counter.NACKS_SENT));
        final byte[] received = new byte[256];
        final NackFrame nack = new NackFrame();
        for (int i = 0; i < STRANGERS; i++)
        {
            final MemorySegment frame = receive(strangers.get(i), received);
            nack.wrap(frame, 0);
            assertEquals(FrameKind.NACK, nack.kind());
            assertEquals((i & 1) == 0 ? NackReason.BAD_ENDPOINT : NackReason.BAD_SESSION, nack.reason(), "stranger " + i);
            assertEquals(1000 + i, nack.dstSession(), "the NACK is addressed to the stranger's session");
        }
        assertEquals(0, endpoint.peerTableSize(), "misaddressed frames left peer entries");

        final UserEndpoint newcomer = open(UserDriverOptions.defaults());
        final int endpointAtNewcomer = newcomer.acquirePeer(endpoint.address().board());
        send(newcomer, endpointAtNewcomer, FrameKind.CONNECT_REQUEST, 0, 1);
        final int[] newcomerAtEndpoint = {-1};
        awaitEvent(endpoint, e -> e.type() == EventType.RECV_CONNECT_REQUEST, event ->
        {
            endpoint.retainPeer(event.peerIndex());
            newcomerAtEndpoint[0] = event.peerIndex();
        });
        assertEquals(newcomer.address().board(), endpoint.peer(newcomerAtEndpoint[0]));
        send(endpoint, newcomerAtEndpoint[0], FrameKind.TINY, newcomer.address().sessionId(), 2);
        awaitEvent(newcomer, e -> e.type() == EventType.RECV_TINY, e -> assertEquals(endpointAtNewcomer, e.peerIndex()));
        send(newcomer, endpointAtNewcomer, FrameKind.TINY, session, 3);
        awaitEvent(endpoint, e -> e.type() == EventType.RECV_TINY,
            e -> assertEquals(newcomerAtEndpoint[0], e.peerIndex()));
        assertEquals(1, endpoint.peerTableSize());
    }

    @Test
    void thousandsOfShortLivedPeersNeverFillTheTable() throws IOException
    {
        final UserEndpoint endpoint = open(UserDriverOptions.defaults().withSameHost(false));
        final byte[] received = new byte[256];
        final int[] indexes = new int[SHORT_LIVED_PEERS];
        final BoardAddress[] boards = new BoardAddress[SHORT_LIVED_PEERS];
        final Set<BoardAddress> distinct = new HashSet<>();
        for (int i = 0; i < SHORT_LIVED_PEERS; i++)
        {
            try (DatagramSocket peer = channel())
            {
                boards[i] = BoardAddress.udp(LOOPBACK, peer.getLocalPort());
                distinct.add(boards[i]);
                final int index = endpoint.acquirePeer(boards[i]);
                indexes[i] = index;
                final int peerSession = 5000 + i;
                send(endpoint, index, FrameKind.TINY, peerSession, i);
                final FrameFlyweight frame = new FrameFlyweight().wrap(receive(peer, received), 0);
                assertEquals(i, frame.seq(), "peer " + i + " got another peer's frame");
                sendFrom(peer, endpoint, FrameKind.TINY, 0, endpoint.address().sessionId(), peerSession, i);
                final int seq = i;
                awaitEvent(endpoint, e -> e.type() == EventType.RECV_TINY && seqOf(e) == seq,
                    e -> assertEquals(index, e.peerIndex(), "the answer of peer " + seq + " names its index"));
                endpoint.releasePeer(index);
            }
        }
        assertTrue(distinct.size() > PeerRegistry.MAX_PEERS, distinct.size() + " distinct ports");
        assertEquals(PeerRegistry.MAX_PEERS, endpoint.peerTableSize());
        final long reclaimed = endpoint.counters().get(Counter.PEERS_RECLAIMED);
        assertTrue(reclaimed >= distinct.size() - PeerRegistry.MAX_PEERS && reclaimed <= SHORT_LIVED_PEERS -
            PeerRegistry.MAX_PEERS, reclaimed + " reclaimed for " + distinct.size() + " distinct boards");
        assertEquals(0, endpoint.counters().get(Counter.DROPPED_PEER_TABLE_FULL));
        int stale = 0;
        for (int i = 0; i < SHORT_LIVED_PEERS; i++)
        {
            final int index = indexes[i];
            try
            {
                assertEquals(boards[i], endpoint.peer(index), "index " + index + " still names peer " + i);
            }
            catch (final DriverException e)
            {
                assertEquals(DriverError.UNKNOWN_PEER, e.kind(), e.getMessage());
                assertTrue(e.getMessage().contains("was reclaimed"), e.getMessage());
                expect(DriverError.UNKNOWN_PEER, "was reclaimed", () -> send(endpoint, index, FrameKind.TINY, 1, 0));
                stale++;
            }
        }
        assertTrue(stale >= reclaimed, stale + " stale indexes for " + reclaimed + " reclaimed entries");
    }

    @Test
    void aTableOfReferencedPeersIsReportedFullAndOneReleaseMakesRoom() throws IOException
    {
        final UserEndpoint endpoint = open(UserDriverOptions.defaults().withSameHost(false));
        final int[] indexes = new int[PeerRegistry.MAX_PEERS];
        for (int i = 0; i < indexes.length; i++)
        {
            indexes[i] = endpoint.acquirePeer(BoardAddress.udp(LOOPBACK, 10_000 + i));
        }
        expect(DriverError.NO_RESOURCES, "peer table full: all 4096 peers are in use (4096 referenced by the library",
            () -> endpoint.acquirePeer(BoardAddress.udp(LOOPBACK, 9_000)));
        try (DatagramSocket stranger = channel())
        {
            sendFrom(stranger, endpoint, FrameKind.CONNECT_REQUEST, 0, 0, 77, 1);
            await().atMost(TIMEOUT).until(() -> endpoint.counters().get(Counter.DROPPED_PEER_TABLE_FULL) == 1);
        }
        assertEquals(indexes[0], endpoint.acquirePeer(BoardAddress.udp(LOOPBACK, 10_000)), "a known board is found");
        endpoint.releasePeer(indexes[0]);
        endpoint.releasePeer(indexes[0]);
        final int newcomer = endpoint.acquirePeer(BoardAddress.udp(LOOPBACK, 9_000));
        assertEquals(indexes[0] & (PeerRegistry.MAX_PEERS - 1), newcomer & (PeerRegistry.MAX_PEERS - 1),
            "the released slot is the one reclaimed");
        assertNotEquals(indexes[0], newcomer, "the reclaimed slot's index carries a new generation");
        assertEquals(BoardAddress.udp(LOOPBACK, 9_000), endpoint.peer(newcomer));
        assertEquals(1, endpoint.counters().get(Counter.PEERS_RECLAIMED));
        expect(DriverError.UNKNOWN_PEER, "was reclaimed", () -> endpoint.peer(indexes[0]));
        expect(DriverError.BAD_ARGUMENT, "peer index " + indexes[0] + " is not in the peer table",
            () -> endpoint.releasePeer(indexes[0]));
        expect(DriverError.UNKNOWN_PEER, "retainPeer: peer index " + indexes[0],
            () -> endpoint.retainPeer(indexes[0]));
    }

    @Test
    void releasingMoreThanWasTakenFailsNamingTheIndex()
    {
        final UserEndpoint endpoint = open(UserDriverOptions.defaults().withSameHost(false));
        final BoardAddress board = BoardAddress.udp(LOOPBACK, 12_345);
        final int index = endpoint.acquirePeer(board);
        endpoint.retainPeer(index);
        endpoint.releasePeer(index);
        endpoint.releasePeer(index);
        expect(DriverError.BAD_ARGUMENT, "releasePeer: peer index " + index + " (" + board + ") holds no reference",
            () -> endpoint.releasePeer(index));
        expect(DriverError.BAD_ARGUMENT, "releasePeer: peer index 4000 is not in the peer table",
            () -> endpoint.releasePeer(4000));
        expect(DriverError.BAD_ARGUMENT, "releasePeer: peer index -1", () -> endpoint.releasePeer(-1));
        assertEquals(board, endpoint.peer(index), "an unreferenced entry keeps working until it is reclaimed");
        expect(DriverError.BAD_ARGUMENT, "udp: boards",
            () -> endpoint.acquirePeer(BoardAddress.parse("eth:02:00:00:00:00:01")));
    }

    @Test
    void idleEntriesNeverBlockAConnect() throws IOException
    {
        final UserEndpoint endpoint = open(UserDriverOptions.defaults().withSameHost(false));
        for (int i = 0; i < PeerRegistry.MAX_PEERS; i++)
        {
            endpoint.releasePeer(endpoint.acquirePeer(BoardAddress.udp(LOOPBACK, 10_000 + i)));
        }
        try (DatagramSocket newcomer = channel())
        {
            final int sourcePort = newcomer.getLocalPort();
            sendFrom(newcomer, endpoint, FrameKind.CONNECT_REQUEST, 0, 0, 99, 1);
            awaitEvent(endpoint, e -> e.type() == EventType.RECV_CONNECT_REQUEST,
                e -> assertEquals(BoardAddress.udp(LOOPBACK, sourcePort), endpoint.peer(e.peerIndex())));
        }
        assertEquals(1, endpoint.counters().get(Counter.PEERS_RECLAIMED));
        assertEquals(0, endpoint.counters().get(Counter.DROPPED_PEER_TABLE_FULL));
    }

    /** A raw UDP socket on a port the kernel chooses; receives block at most the test's deadline. */
    private DatagramSocket channel() throws IOException
    {
        final DatagramSocket socket = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        socket.setSoTimeout((int)TimeUnit.NANOSECONDS.toMillis(DEADLINE_NS));
        resources.add(socket);
        return socket;
    }

    /** A frame from a raw socket posing as endpoint 0 of the board at its port. */
    private void sendFrom(
        final DatagramSocket from, final UserEndpoint to, final FrameKind kind, final int dstEndpoint,
        final int dstSession, final int srcSession, final int tag) throws IOException
    {
        final int headerBytes = TestFrames.encodeHeader(header, kind, dstEndpoint, 0, dstSession, srcSession, tag);
        final int payloadBytes = TestFrames.payloadBytes(kind);
        final byte[] datagram = new byte[headerBytes + payloadBytes];
        final MemorySegment frame = Arena.ofAuto().allocate(datagram.length);
        MemorySegment.copy(header, 0, frame, 0, headerBytes);
        MemorySegment.copy(payload, 0, frame, headerBytes, payloadBytes);
        TestFrames.stampCheck(frame, datagram.length);
        MemorySegment.copy(frame, ValueLayout.JAVA_BYTE, 0, datagram, 0, datagram.length);
        from.send(new DatagramPacket(datagram, datagram.length,
            to.address().board().endpointSocketAddress(to.address().endpointIndex())));
    }

    private void send(final UserEndpoint from, final int peer, final FrameKind kind, final int dstSession, final int tag)
    {
        final int headerBytes = TestFrames.encodeHeader(header, kind, 0, 0, dstSession, from.address().sessionId(), tag);
        from.send(peer, header.asSlice(0, headerBytes), payload.asSlice(0, TestFrames.payloadBytes(kind)));
    }

    /** Blocks up to the socket's timeout (SocketTimeoutException fails the test). */
    private static MemorySegment receive(final DatagramSocket socket, final byte[] into) throws IOException
    {
        final DatagramPacket packet = new DatagramPacket(into, into.length);
        socket.receive(packet);
        return MemorySegment.ofArray(into).asSlice(0, packet.getLength());
    }

    /** Poll until an event matching {@code wanted} has been handled by {@code check}, within an explicit deadline. */
    private static void awaitEvent(
        final UserEndpoint endpoint, final Predicate<DriverEvent> wanted,
        final Consumer<DriverEvent> check)
    {
        final long deadlineNs = System.nanoTime() + DEADLINE_NS;
        final boolean[] seen = {false};
        while (!seen[0])
        {
            final long leftNs = deadlineNs - System.nanoTime();
            assertTrue(leftNs > 0, "no matching event on " + endpoint);
            endpoint.await(leftNs);
            endpoint.poll(event ->
            {
                if (!seen[0] && wanted.test(event))
                {
                    check.accept(event);
                    seen[0] = true;
                }
            }, 16);
        }
    }

    private static int seqOf(final DriverEvent event)
    {
        return event.buffer().get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN),
            event.frameOffset() + FrameFlyweight.SEQ_OFFSET);
    }
}
