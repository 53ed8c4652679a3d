package io.pinmx.pin.user;

import io.pinmx.pin.node.ChronicleMapCounterStore;
import io.pinmx.pin.node.CounterStore;
import io.pinmx.pin.node.PendingCounters;
import io.pinmx.pin.node.PublishedCounters;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static io.pinmx.pin.user.OpenedEndpoints.expect;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two endpoints of the user-space driver in this JVM; the multi-process cases are in {@link TwoProcessTest}. */
class UserEndpointTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void closeAll()
    {
        resources.close();
        arena.close();
    }

    private DriverEndpoint open(final UserDriverOptions options)
    {
        return resources.open(options);
    }

    @ParameterizedTest(name = "sameHost={0}")
    @ValueSource(booleans = {false, true})
    void everyLibraryFrameKindArrivesIntact(final boolean sameHost)
    {
        final DriverEndpoint a = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final DriverEndpoint b = open(UserDriverOptions.defaults().withSameHost(sameHost));
        sendEveryLibraryKind(a, a.acquirePeer(b.address().board()), b, b.acquirePeer(a.address().board()), sameHost);
        assertEquals(1, b.counters().get(Counter.FRAMES_RECEIVED_MEDIUM_FRAG));
        assertEquals(1, a.counters().get(Counter.FRAMES_SENT_RNDV));
        assertEquals(sameHost ? TestFrames.LIBRARY_KINDS.size() : 0, a.counters().get(Counter.SHM_FRAMES_SENT));
        assertEquals(sameHost ? TestFrames.LIBRARY_KINDS.size() : 0, b.counters().get(Counter.SHM_FRAMES_RECEIVED));
    }

    @ParameterizedTest(name = "sameHost={0}")
    @ValueSource(booleans = {false, true})
    void pullCopiesAVectorRegionByteForByte(final boolean sameHost)
    {
        final DriverEndpoint server = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final DriverEndpoint puller = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final MemorySegment[] source = {arena.allocate(3 << 20), arena.allocate(12345), arena.allocate(5 << 20)};
        long total = 0;
        for (int i = 0; i < source.length; i++)
        {
            Patterns.fill(source[i], i * 1000L);
            total += source[i].byteSize();
        }
        final int sourceId = server.declareRegion(source, source.length, RegionAccess.READ);
        final MemorySegment target = arena.allocate(total + 100);
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        final PullSpec spec = new PullSpec().peerIndex(puller.acquirePeer(server.address().board()))
            .remoteEndpointIndex(0).remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId)
            .remoteOffset(0).localRegionId(targetId).localOffset(100).length(total).pullHandle(77);
        puller.startPull(spec);
        final EventLog.Seen done = new EventLog().awaitPull(puller, TIMEOUT, 77);
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        assertEquals(total, done.bytes());
        long at = 100;
        for (final MemorySegment segment : source)
        {
            assertEquals(-1, MemorySegment.mismatch(segment, 0, segment.byteSize(), target, at, at + segment.byteSize()));
            at += segment.byteSize();
        }
        assertEquals(sameHost ? 1 : 0, puller.counters().get(Counter.PULL_SINGLE_COPY));
        assertEquals(sameHost ? 0 : 1, puller.counters().get(Counter.PULL_FRAMES_RECEIVED) > 0 ? 1 : 0);
        assertEquals(0, puller.counters().get(Counter.DROPPED_BAD_CRC) + server.counters().get(Counter.DROPPED_BAD_CRC),
            "undamaged frames all pass their check");
        final long received = puller.counters().get(Counter.PULL_FRAMES_RECEIVED);
        final long placed = puller.counters().get(Counter.PULL_FRAMES_PLACED);
        assertTrue(placed <= received && placed >= received * 9 / 10,
            placed + " of " + received + " replies read straight into the local region");
        assertEquals(total, puller.counters().get(Counter.PULL_BYTES));
    }

    @Test
    void repliesReadStraightIntoALocalRegionOfOddSegmentsLandByteExactAcrossTheirBoundaries()
    {
        final DriverEndpoint server = open(UserDriverOptions.defaults().withSameHost(false));
        final DriverEndpoint puller = open(UserDriverOptions.defaults().withSameHost(false));
        final MemorySegment source = arena.allocate(3 << 20);
        Patterns.fill(source, 41);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final MemorySegment[] target = new MemorySegment[200];
        long total = 0;
        for (int i = 0; i < target.length; i++)
        {
            target[i] = arena.allocate(i % 7 == 6 ? (1 << 20) / 3 : 1 + i * 37L);
            total += target[i].byteSize();
        }
        final int targetId = puller.declareRegion(target, target.length, RegionAccess.WRITE);
        final long length = Math.min(total - 5, source.byteSize());
        puller.startPull(new PullSpec().peerIndex(puller.acquirePeer(server.address().board())).remoteEndpointIndex(0)
            .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).remoteOffset(0)
            .localRegionId(targetId).localOffset(5).length(length).pullHandle(8));
        final EventLog.Seen done = new EventLog().awaitPull(puller, TIMEOUT, 8);
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        long at = -5;
        for (final MemorySegment segment : target)
        {
            final long from = Math.max(0, -at);
            final long to = Math.min(segment.byteSize(), length - at);
            if (from < to)
            {
                assertEquals(-1, MemorySegment.mismatch(source, at + from, at + to, segment, from, to),
                    "bytes " + (at + from) + ".." + (at + to));
            }
            at += segment.byteSize();
        }
        assertTrue(puller.counters().get(Counter.PULL_FRAMES_PLACED) > 0);
    }

    @Test
    void aLocalSegmentNotMappedFailsThePullNamingItThoughRepliesAreReadStraightIntoTheRegion()
    {
        final DriverEndpoint server = open(UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(2_000_000L, 5));
        final DriverEndpoint puller = open(UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(2_000_000L, 5));
        final MemorySegment source = arena.allocate(256 * 1024);
        Patterns.fill(source, 3);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final MemorySegment good = arena.allocate(128 * 1024);
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(128 * 1024);
        final int targetId = puller.declareRegion(new MemorySegment[] {good, unmapped}, 2, RegionAccess.WRITE);
        final PullSpec spec = new PullSpec().peerIndex(puller.acquirePeer(server.address().board()))
            .remoteEndpointIndex(0).remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId)
            .remoteOffset(0).localRegionId(targetId).localOffset(0);
        puller.startPull(spec.length(256 * 1024).pullHandle(1));
        final EventLog log = new EventLog();
        final EventLog.Seen failed = log.awaitPull(puller, TIMEOUT, 1);
        assertEquals(EventType.PULL_FAILED, failed.type(), failed.message());
        assertEquals(DriverError.SEGMENT_FAULT, failed.error());
        assertTrue(failed.message().contains("local") && failed.message().contains("segment 1 at 0x") &&
            failed.message().contains("EFAULT"), failed.message());
        puller.startPull(spec.length(128 * 1024).pullHandle(2));
        final EventLog.Seen done = log.awaitPull(puller, TIMEOUT, 2);
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        assertEquals(-1, MemorySegment.mismatch(source, 0, good.byteSize(), good, 0, good.byteSize()));
    }

    @ParameterizedTest(name = "sameHost={0}")
    @ValueSource(booleans = {false, true})
    void anEndpointReachesItselfThroughItsOwnRingAndPullsFromItselfInOneCopy(final boolean sameHost)
    {
        final DriverEndpoint self = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final int peer = self.acquirePeer(self.address().board());
        sendEveryLibraryKind(self, peer, self, peer, sameHost);
        assertEquals(sameHost ? TestFrames.LIBRARY_KINDS.size() : 0, self.counters().get(Counter.SHM_FRAMES_RECEIVED));

        final MemorySegment source = arena.allocate(3 << 20);
        Patterns.fill(source, 9);
        final int sourceId = self.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final MemorySegment target = arena.allocate(source.byteSize());
        final int targetId = self.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        self.startPull(new PullSpec().peerIndex(peer).remoteEndpointIndex(0).remoteSessionId(self.address().sessionId())
            .remoteRegionId(sourceId).remoteOffset(0).localRegionId(targetId).localOffset(0).length(source.byteSize())
            .pullHandle(5));
        final EventLog.Seen done = new EventLog().awaitPull(self, TIMEOUT, 5);
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        assertEquals(-1, source.mismatch(target));
        assertEquals(sameHost ? 1 : 0, self.counters().get(Counter.PULL_SINGLE_COPY));
        assertEquals(sameHost, self.counters().get(Counter.FRAMES_SENT_PULL) == 0, "PULL frames to itself");
    }

    @ParameterizedTest(name = "sameHost={0}")
    @ValueSource(booleans = {false, true})
    void unmappedSegmentFailsOnlyThePullThatTouchesItNamingTheSegment(final boolean sameHost)
    {
        final DriverEndpoint server = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final DriverEndpoint puller = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final MemorySegment good = arena.allocate(64 * 1024);
        Patterns.fill(good, 5);
        final long unmappedAddress = 0x10000;
        final MemorySegment unmapped = MemorySegment.ofAddress(unmappedAddress).reinterpret(64 * 1024);
        final int sourceId = server.declareRegion(new MemorySegment[] {good, unmapped}, 2, RegionAccess.READ);
        final MemorySegment target = arena.allocate(128 * 1024);
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        final int peer = puller.acquirePeer(server.address().board());
        final PullSpec spec = new PullSpec().peerIndex(peer).remoteEndpointIndex(0)
            .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).localRegionId(targetId);
        puller.startPull(spec.remoteOffset(0).localOffset(0).length(128 * 1024).pullHandle(1));
        puller.startPull(spec.remoteOffset(0).localOffset(0).length(64 * 1024).pullHandle(2));
        final EventLog log = new EventLog();
        final EventLog.Seen failed = log.awaitPull(puller, TIMEOUT, 1);
        final EventLog.Seen done = log.awaitPull(puller, TIMEOUT, 2);
        assertEquals(EventType.PULL_FAILED, failed.type());
        assertEquals(DriverError.SEGMENT_FAULT, failed.error());
        assertTrue(failed.message().contains("segment 1 at 0x10000") && failed.message().contains("EFAULT") &&
            failed.message().contains("slot " + RegionTable.slotOfId(sourceId)), failed.message());
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        assertEquals(-1, MemorySegment.mismatch(good, 0, good.byteSize(), target, 0, good.byteSize()));
    }

    @ParameterizedTest(name = "sameHost={0}")
    @ValueSource(booleans = {false, true})
    void remoteUnknownStaleAndOutOfRangeRegionsFailThePull(final boolean sameHost)
    {
        final DriverEndpoint server = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final DriverEndpoint puller = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final MemorySegment source = arena.allocate(10_000);
        final int staleId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        server.destroyRegion(staleId);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        assertEquals(RegionTable.slotOfId(staleId), RegionTable.slotOfId(sourceId), "slot reused");
        final MemorySegment target = arena.allocate(20_000);
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        final PullSpec spec = new PullSpec().peerIndex(puller.acquirePeer(server.address().board()))
            .remoteEndpointIndex(0).remoteSessionId(server.address().sessionId()).localRegionId(targetId);
        final EventLog log = new EventLog();

        puller.startPull(spec.remoteRegionId(staleId).remoteOffset(0).length(100).pullHandle(10));
        final EventLog.Seen stale = log.awaitPull(puller, TIMEOUT, 10);
        assertEquals(DriverError.UNKNOWN_REGION, stale.error(), stale.message());
        assertTrue(stale.message().contains("region " + staleId), stale.message());

        puller.startPull(spec.remoteRegionId(sourceId).remoteOffset(9_000).length(1_001).pullHandle(11));
        final EventLog.Seen range = log.awaitPull(puller, TIMEOUT, 11);
        assertEquals(DriverError.OUT_OF_RANGE, range.error(), range.message());

        final int writeOnlyId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.WRITE);
        puller.startPull(spec.remoteRegionId(writeOnlyId).remoteOffset(0).length(10).pullHandle(13));
        final EventLog.Seen notReadable = log.awaitPull(puller, TIMEOUT, 13);
        assertEquals(DriverError.UNKNOWN_REGION, notReadable.error(), notReadable.message());
        assertTrue(notReadable.message().contains("was not declared READ"), notReadable.message());

        puller.startPull(spec.remoteRegionId(sourceId).remoteOffset(9_000).length(1_000).pullHandle(12));
        assertEquals(EventType.PULL_DONE, log.awaitPull(puller, TIMEOUT, 12).type());
        if (!sameHost)
        {
            assertTrue(server.counters().get(Counter.NACKS_SENT) >= 3, "a PULL resent before its NACK arrived is refused again");
        }
    }

    @Test
    void localBadArgumentsThrowNamingWhatIsWrongAndChangeNothing()
    {
        final DriverEndpoint endpoint = open(UserDriverOptions.defaults().withMaxRegions(2));
        final MemorySegment native1 = arena.allocate(1000);
        final int id = endpoint.declareRegion(new MemorySegment[] {native1}, 1, RegionAccess.READ_WRITE);

        expect(DriverError.BAD_ARGUMENT, "segment 0 is a heap segment",
            () -> endpoint.declareRegion(new MemorySegment[] {MemorySegment.ofArray(new byte[10])}, 1, RegionAccess.READ));
        expect(DriverError.BAD_ARGUMENT, "segment count 257",
            () -> endpoint.declareRegion(new MemorySegment[257], 257, RegionAccess.READ));
        expect(DriverError.BAD_ARGUMENT, "access flags invalid 0x4",
            () -> endpoint.declareRegion(new MemorySegment[] {native1}, 1, 4));
        endpoint.declareRegion(new MemorySegment[] {native1}, 1, RegionAccess.READ);
        expect(DriverError.NO_RESOURCES, "all 2 regions",
            () -> endpoint.declareRegion(new MemorySegment[] {native1}, 1, RegionAccess.READ));
        expect(DriverError.UNKNOWN_REGION, "region 12345", () -> endpoint.destroyRegion(12345));

        final int peer = endpoint.acquirePeer(endpoint.address().board());
        final PullSpec spec = new PullSpec().peerIndex(peer).remoteEndpointIndex(0)
            .remoteSessionId(endpoint.address().sessionId()).remoteRegionId(id).localRegionId(id).length(10);
        expect(DriverError.OUT_OF_RANGE, "local offset 995 + length 10",
            () -> endpoint.startPull(spec.localOffset(995)));
        expect(DriverError.UNKNOWN_REGION, "local region 999",
            () -> endpoint.startPull(spec.localOffset(0).localRegionId(999)));
        expect(DriverError.UNKNOWN_PEER, "peer index 9", () -> endpoint.startPull(spec.localRegionId(id).peerIndex(9)));
        expect(DriverError.UNKNOWN_PEER, "peer index 3",
            () -> endpoint.send(3, arena.allocate(FrameFlyweight.HEADER_BYTES), MemorySegment.NULL));
        expect(DriverError.BAD_ARGUMENT, "shorter than the 32-byte common header",
            () -> endpoint.send(peer, arena.allocate(8), MemorySegment.NULL));
        assertEquals(0, endpoint.counters().get(Counter.PULLS_STARTED));
        endpoint.destroyRegion(id);
        expect(DriverError.UNKNOWN_REGION, "region " + id, () -> endpoint.destroyRegion(id));
    }

    @Test
    void pullsUnfinishedAtCloseAreCountedAsAbandonedNotFailed() throws Exception
    {
        final DriverEndpoint puller = open(UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(java.util.concurrent.TimeUnit.SECONDS.toNanos(30), 1));
        try (java.net.DatagramSocket silent = new java.net.DatagramSocket(
            new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0)))
        {
            final int peer = puller.acquirePeer(io.pinmx.pin.spi.BoardAddress.udp(
                java.net.InetAddress.getLoopbackAddress(), silent.getLocalPort()));
            final int local = puller.declareRegion(new MemorySegment[] {arena.allocate(1 << 20)}, 1, RegionAccess.WRITE);
            puller.startPull(new PullSpec().peerIndex(peer).remoteEndpointIndex(0).remoteSessionId(1234)
                .remoteRegionId(1).localRegionId(local).length(1 << 20).pullHandle(5));
            await().atMost(TIMEOUT).until(() -> puller.counters().get(Counter.FRAMES_SENT_PULL) > 0);
            puller.close();
        }
        assertEquals(1, puller.counters().get(Counter.PULLS_STARTED));
        assertEquals(1, puller.counters().get(Counter.PULLS_ABANDONED));
        assertEquals(0, puller.counters().get(Counter.PULLS_FAILED));
        assertEquals(0, puller.counters().get(Counter.PULLS_DONE));
    }

    @Test
    void anOpenerThatKeepsPollingGetsNoProgressThreadOfTheDriver()
    {
        final EndpointConfig.Builder config = EndpointConfig.builder().endpointIndex(0)
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withCountersFile(null));
        final DriverEndpoint own = new UserDriver("test").open(config.build());
        resources.add(own);
        final DriverEndpoint byOpener = new UserDriver("test").open(config.build().withProgressByOpener());
        resources.add(byOpener);
        assertTrue(progressThreadRuns(own), "a default endpoint has its progress thread");
        assertFalse(progressThreadRuns(byOpener), "the opener's polling is the endpoint's progress");
        assertTrue(byOpener.info().chosenBecause().contains("by the opener's progress thread"), byOpener.info().chosenBecause());
        assertTrue(byOpener.info().features().contains(io.pinmx.pin.spi.DriverFeature.ASYNC_PULL_SERVING));
        assertTrue(EndpointConfig.of(0, 0).withProgressByOpener().progressByOpener());
        assertFalse(EndpointConfig.of(0, 0).progressByOpener());
    }

    private static boolean progressThreadRuns(final DriverEndpoint endpoint)
    {
        final String name = "pinmx-progress-" + endpoint.address();
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    @Test
    void closedEndpointRefusesEveryOperation()
    {
        final DriverEndpoint endpoint = open(UserDriverOptions.defaults());
        final MemorySegment segment = arena.allocate(100);
        final int id = endpoint.declareRegion(new MemorySegment[] {segment}, 1, RegionAccess.READ);
        final int peer = endpoint.acquirePeer(endpoint.address().board());
        endpoint.close();
        endpoint.close();
        final String closed = "is closed";
        expect(DriverError.ENDPOINT_CLOSED, closed, () -> endpoint.declareRegion(new MemorySegment[] {segment}, 1, 1));
        expect(DriverError.ENDPOINT_CLOSED, closed, () -> endpoint.destroyRegion(id));
        expect(DriverError.ENDPOINT_CLOSED, closed, () -> endpoint.send(peer, arena.allocate(64), MemorySegment.NULL));
        expect(DriverError.ENDPOINT_CLOSED, closed, () -> endpoint.startPull(new PullSpec()));
        expect(DriverError.ENDPOINT_CLOSED, closed, () -> endpoint.poll(e -> { }, 1));
        expect(DriverError.ENDPOINT_CLOSED, closed, () -> endpoint.await(1_000));
        expect(DriverError.ENDPOINT_CLOSED, closed, () -> endpoint.acquirePeer(endpoint.address().board()));
        expect(DriverError.ENDPOINT_CLOSED, closed, () -> endpoint.peer(peer));
        assertFalse(java.nio.file.Files.exists(EndpointFile.pathFor(java.nio.file.Path.of("/dev/shm"),
            endpoint.address().board().basePort())), "endpoint file removed");
    }

    @Test
    void aPollThatReceivesItselfReturnsAfterTheFirstDatagramWithAnEventAndLosesNone() throws Exception
    {
        // no responder: only the polls under test may take the datagrams
        final DriverEndpoint endpoint = open(UserDriverOptions.defaults().withProgressThread(false).withResponder(false)
            .withSameHost(false));
        final InetSocketAddress target = endpoint.address().board().endpointSocketAddress(0);
        try (DatagramChannel raw = DatagramChannel.open())
        {
            raw.bind(new InetSocketAddress("127.0.0.1", 0));
            final MemorySegment frame = arena.allocate(256);
            for (int seq = 1; seq <= 3; seq++)
            {
                TestFrames.encodeHeader(frame, FrameKind.TINY, 0, 0, endpoint.address().sessionId(), 42, seq);
                final int frameBytes = FrameKind.TINY.headerBytes() + TestFrames.payloadBytes(FrameKind.TINY);
                TestFrames.stampCheck(frame, frameBytes);
                raw.send(frame.asByteBuffer().limit(frameBytes), target);
            }
            final EventLog log = new EventLog();
            final List<Integer> deliveredPerPoll = new ArrayList<>();
            await().atMost(TIMEOUT).until(() ->
            {
                final int delivered = endpoint.poll(log::onEvent, 64);
                if (delivered > 0)
                {
                    deliveredPerPoll.add(delivered);
                }
                return log.all().size() == 3;
            });
            // loopback queued all three before the first poll: the old poll handed over all three at once
            assertEquals(List.of(1, 1, 1), deliveredPerPoll);
            assertEquals(List.of(1, 2, 3), log.all().stream().map(EventLog.Seen::seq).toList());
            assertEquals(3, endpoint.counters().get(Counter.FRAMES_RECEIVED_TINY));
        }
    }

    @Test
    void malformedFramesAreDroppedCountedAndMisaddressedOnesNacked() throws Exception
    {
        final DriverEndpoint endpoint = open(UserDriverOptions.defaults());
        final InetSocketAddress target = endpoint.address().board().endpointSocketAddress(0);
        try (DatagramChannel raw = DatagramChannel.open())
        {
            raw.bind(new InetSocketAddress("127.0.0.1", 0));
            final MemorySegment frame = arena.allocate(256);
            final ByteBuffer buffer = frame.asByteBuffer();

            raw.send(buffer.clear().limit(5), target);

            TestFrames.encodeHeader(frame, FrameKind.TINY, 0, 0, endpoint.address().sessionId(), 42, 7);
            TestFrames.stampCheck(frame, FrameKind.TINY.headerBytes() + 32);
            frame.set(ValueLayout.JAVA_BYTE, FrameKind.TINY.headerBytes() + 5, (byte)1);
            raw.send(buffer.clear().limit(FrameKind.TINY.headerBytes() + 32), target);

            TestFrames.encodeHeader(frame, FrameKind.TINY, 0, 0, endpoint.address().sessionId(), 42, 1);
            frame.set(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET, (byte)99);
            TestFrames.stampCheck(frame, FrameKind.TINY.headerBytes() + 32);
            raw.send(buffer.clear().limit(FrameKind.TINY.headerBytes() + 32), target);

            TestFrames.encodeHeader(frame, FrameKind.TINY, 0, 0, endpoint.address().sessionId(), 42, 2);
            TestFrames.stampCheck(frame, FrameKind.TINY.headerBytes() + 10);
            raw.send(buffer.clear().limit(FrameKind.TINY.headerBytes() + 10), target);

            TestFrames.encodeHeader(frame, FrameKind.TINY, 0, 0, endpoint.address().sessionId(), 42, 3);
            new FrameFlyweight().wrap(frame, 0).version(7);
            TestFrames.stampCheck(frame, FrameKind.TINY.headerBytes() + 32);
            raw.send(buffer.clear().limit(FrameKind.TINY.headerBytes() + 32), target);

            TestFrames.encodeHeader(frame, FrameKind.TINY, 0, 0, endpoint.address().sessionId() ^ 1, 42, 4);
            TestFrames.stampCheck(frame, FrameKind.TINY.headerBytes() + 32);
            raw.send(buffer.clear().limit(FrameKind.TINY.headerBytes() + 32), target);

            TestFrames.encodeHeader(frame, FrameKind.TINY, 3, 0, endpoint.address().sessionId(), 42, 5);
            TestFrames.stampCheck(frame, FrameKind.TINY.headerBytes() + 32);
            raw.send(buffer.clear().limit(FrameKind.TINY.headerBytes() + 32), target);

            TestFrames.encodeHeader(frame, FrameKind.TINY, 0, 0, endpoint.address().sessionId(), 42, 6);
            TestFrames.stampCheck(frame, FrameKind.TINY.headerBytes() + 32);
            raw.send(buffer.clear().limit(FrameKind.TINY.headerBytes() + 32), target);

            final EventLog log = new EventLog();
            final EventLog.Seen good = log.awaitEvent(endpoint, TIMEOUT, s -> s.type() == EventType.RECV_TINY);
            assertEquals(6, good.seq(), "only the well-formed frame is delivered");
            await().atMost(TIMEOUT).until(() -> endpoint.counters().get(Counter.NACKS_SENT) == 2);
            assertEquals(2, endpoint.counters().get(Counter.DROPPED_BAD_CRC), "too short for a check, and damaged");
            assertEquals(1, endpoint.counters().get(Counter.DROPPED_UNKNOWN_KIND));
            assertEquals(1, endpoint.counters().get(Counter.DROPPED_BAD_LENGTH));
            assertEquals(1, endpoint.counters().get(Counter.DROPPED_BAD_VERSION));
            assertEquals(1, endpoint.counters().get(Counter.DROPPED_WRONG_SESSION));
            assertEquals(1, endpoint.counters().get(Counter.DROPPED_WRONG_ENDPOINT));
            assertEquals(1, log.all().size());

            final ByteBuffer reply = ByteBuffer.allocateDirect(512);
            final List<Integer> reasons = new ArrayList<>();
            raw.configureBlocking(false);
            await().atMost(TIMEOUT).until(() ->
            {
                reply.clear();
                if (raw.receive(reply) != null)
                {
                    final NackFrame nack = new NackFrame().wrap(MemorySegment.ofBuffer(reply.flip()), 0);
                    assertEquals(FrameKind.NACK, nack.kind());
                    assertEquals(42, nack.dstSession());
                    reasons.add(nack.reasonCode());
                }
                return reasons.size() == 2;
            });
            assertTrue(reasons.contains(NackReason.BAD_SESSION.code()) && reasons.contains(NackReason.BAD_ENDPOINT.code()),
                reasons.toString());
        }
    }

    @Test
    void pullCompletesByteExactUnderTenPercentLossBothWays()
    {
        final UserDriverOptions lossy = UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(5_000_000L, 50);
        final DriverEndpoint server = open(lossy.withLoss(0.10, 0.10, 11));
        final DriverEndpoint puller = open(lossy.withLoss(0.10, 0.10, 23));
        final MemorySegment source = arena.allocate(8 << 20);
        Patterns.fill(source, 99);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final MemorySegment target = arena.allocate(8 << 20);
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        puller.startPull(new PullSpec().peerIndex(puller.acquirePeer(server.address().board())).remoteEndpointIndex(0)
            .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).localRegionId(targetId)
            .length(source.byteSize()).pullHandle(5));
        final EventLog.Seen done = new EventLog().awaitPull(puller, Duration.ofSeconds(60), 5);
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        assertEquals(Patterns.crc(source), Patterns.crc(target));
        assertTrue(puller.counters().get(Counter.PULL_REQUESTS_RESENT) > 0);
        assertTrue(puller.counters().get(Counter.DROPPED_LOSS_INJECTED_RX) > 0);
        assertTrue(server.counters().get(Counter.DROPPED_LOSS_INJECTED_TX) > 0);
    }

    @Test
    void concurrentPullsShareTheEndpointsBlocksInFlight() throws Exception
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(TimeUnit.SECONDS.toNanos(30), 1);
        final DriverEndpoint puller = open(options);
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
        {
            final int peer = puller.acquirePeer(BoardAddress.udp(InetAddress.getLoopbackAddress(),
                silent.getLocalPort()));
            final int local = puller.declareRegion(new MemorySegment[] {arena.allocate(8 << 20)}, 1, RegionAccess.WRITE);
            for (int i = 0; i < 8; i++)
            {
                puller.startPull(new PullSpec().peerIndex(peer).remoteEndpointIndex(0).remoteSessionId(1234)
                    .remoteRegionId(1).localRegionId(local).localOffset((long)i << 20).length(1 << 20).pullHandle(i));
            }
            // replies fit the loopback MTU whole: the endpoint's bytes in flight are the option's count of blocks of
            // the first pull, not that count for each of the 8
            await().atMost(TIMEOUT).during(Duration.ofMillis(300))
                .until(() -> puller.counters().get(Counter.FRAMES_SENT_PULL) == options.pullBlocksInFlight());
            puller.close();
        }
        assertEquals(8, puller.counters().get(Counter.PULLS_ABANDONED));
    }

    @Test
    void pullsWaitingForBlocksStartWhenAPullHoldingThemFails() throws Exception
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(2_000_000L, 2);
        final DriverEndpoint server = open(options);
        final DriverEndpoint puller = open(options);
        final MemorySegment source = arena.allocate(3 << 20);
        Patterns.fill(source, 5);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final MemorySegment target = arena.allocate(4 << 20);
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
        {
            puller.startPull(new PullSpec().peerIndex(puller.acquirePeer(BoardAddress.udp(
                InetAddress.getLoopbackAddress(), silent.getLocalPort()))).remoteEndpointIndex(0)
                .remoteSessionId(1234).remoteRegionId(1).localRegionId(targetId).length(1 << 20).pullHandle(1));
            puller.startPull(new PullSpec().peerIndex(puller.acquirePeer(server.address().board()))
                .remoteEndpointIndex(0).remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId)
                .localRegionId(targetId).localOffset(1 << 20).length(source.byteSize()).pullHandle(2));
            final EventLog events = new EventLog();
            assertEquals(DriverError.TIMEOUT, events.awaitPull(puller, TIMEOUT, 1).error());
            final EventLog.Seen done = events.awaitPull(puller, TIMEOUT, 2);
            assertEquals(EventType.PULL_DONE, done.type(), done.message());
        }
        assertEquals(Patterns.crc(source), Patterns.crc(target.asSlice(1 << 20, source.byteSize())));
    }

    @Test
    void manyConcurrentPullsFromOnePeerAllLandByteExact()
    {
        final DriverEndpoint server = open(UserDriverOptions.defaults().withSameHost(false));
        final DriverEndpoint puller = open(UserDriverOptions.defaults().withSameHost(false));
        final int pulls = 32;
        final long eachBytes = (1 << 18) + 4097;
        final MemorySegment source = arena.allocate(pulls * eachBytes);
        Patterns.fill(source, 17);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final MemorySegment target = arena.allocate(source.byteSize());
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        final int peer = puller.acquirePeer(server.address().board());
        for (int i = 0; i < pulls; i++)
        {
            puller.startPull(new PullSpec().peerIndex(peer).remoteEndpointIndex(0)
                .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).remoteOffset(i * eachBytes)
                .localRegionId(targetId).localOffset(i * eachBytes).length(eachBytes).pullHandle(100 + i));
        }
        final EventLog events = new EventLog();
        for (int i = 0; i < pulls; i++)
        {
            final EventLog.Seen done = events.awaitPull(puller, TIMEOUT, 100 + i);
            assertEquals(EventType.PULL_DONE, done.type(), done.message());
        }
        assertEquals(Patterns.crc(source), Patterns.crc(target));
        assertEquals(pulls, puller.counters().get(Counter.PULLS_DONE));
    }

    @Test
    void pullToAClosedPeerFailsWithTimeoutAfterBoundedRetries()
    {
        final UserDriverOptions fast = UserDriverOptions.defaults().withSameHost(false).withPullResend(2_000_000L, 3);
        final DriverEndpoint server = open(fast);
        final DriverEndpoint puller = open(fast);
        final MemorySegment source = arena.allocate(1 << 20);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final int targetId = puller.declareRegion(new MemorySegment[] {arena.allocate(1 << 20)}, 1, RegionAccess.WRITE);
        final PullSpec spec = new PullSpec().peerIndex(puller.acquirePeer(server.address().board())).remoteEndpointIndex(0)
            .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).localRegionId(targetId)
            .length(source.byteSize()).pullHandle(9);
        server.close();
        puller.startPull(spec);
        final EventLog.Seen failed = new EventLog().awaitPull(puller, TIMEOUT, 9);
        assertEquals(DriverError.TIMEOUT, failed.error(), failed.message());
        assertTrue(failed.message().contains("after 4 requests"), failed.message());
        assertTrue(puller.counters().get(Counter.PULL_REQUESTS_RESENT) >= 3);
    }

    @Test
    void pollDrivenEndpointsMakeProgressInsidePollAndAwait()
    {
        final UserDriverOptions pollOnly = UserDriverOptions.defaults().withProgressThread(false);
        final DriverEndpoint server = open(pollOnly.withSameHost(false));
        final DriverEndpoint puller = open(pollOnly.withSameHost(false));
        assertTrue(puller.info().chosenBecause().contains("only inside poll/await"), puller.info().chosenBecause());
        final MemorySegment source = arena.allocate(1 << 20);
        Patterns.fill(source, 3);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final MemorySegment target = arena.allocate(1 << 20);
        final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        puller.startPull(new PullSpec().peerIndex(puller.acquirePeer(server.address().board())).remoteEndpointIndex(0)
            .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).localRegionId(targetId)
            .length(source.byteSize()).pullHandle(4));
        final EventLog log = new EventLog();
        final Thread serverPoller = new Thread(() ->
        {
            while (!Thread.currentThread().isInterrupted())
            {
                server.await(1_000_000);
                server.poll(e -> { }, 16);
            }
        });
        serverPoller.start();
        try
        {
            final EventLog.Seen done = log.awaitPull(puller, TIMEOUT, 4);
            assertEquals(EventType.PULL_DONE, done.type(), done.message());
            assertEquals(-1, source.mismatch(target));
        }
        finally
        {
            serverPoller.interrupt();
            await().atMost(TIMEOUT).until(() -> !serverPoller.isAlive());
        }
        assertTrue(server.counters().get(Counter.PULLS_SERVED) > 0);
    }

    @Test
    void parkedReceiverIsWokenByOneDoorbellAndASpinningOneByNone()
    {
        final DriverEndpoint sender = open(UserDriverOptions.defaults());
        final DriverEndpoint receiver = open(UserDriverOptions.defaults());
        final int peer = sender.acquirePeer(receiver.address().board());
        final MemorySegment header = arena.allocate(64);
        final int headerBytes = TestFrames.encodeHeader(header, FrameKind.ACK, 0, 0, receiver.address().sessionId(),
            sender.address().sessionId(), 1);
        final String progressThread = "pinmx-progress-" + receiver.address();
        final EventLog log = new EventLog();
        int sent = 0;
        while (sent < 5 && sender.counters().get(Counter.DOORBELLS_SENT) == 0)
        {
            // The agent wakes from its selector once a second and spins a little: rarely the frame lands then.
            await().atMost(TIMEOUT).until(() -> isParkedInSelector(progressThread));
            final int tag = ++sent;
            new FrameFlyweight().wrap(header, 0).seq(tag);
            sender.send(peer, header.asSlice(0, headerBytes), MemorySegment.NULL);
            log.awaitEvent(receiver, TIMEOUT, s -> s.type() == EventType.RECV_ACK && s.seq() == tag);
        }
        assertEquals(1, sender.counters().get(Counter.DOORBELLS_SENT));
        assertEquals(sent, sender.counters().get(Counter.SHM_FRAMES_SENT));

        final DriverEndpoint polled = open(UserDriverOptions.defaults().withProgressThread(false));
        final int polledPeer = sender.acquirePeer(polled.address().board());
        final int polledHeaderBytes = TestFrames.encodeHeader(header, FrameKind.ACK, 0, 0,
            polled.address().sessionId(), sender.address().sessionId(), 100);
        sender.send(polledPeer, header.asSlice(0, polledHeaderBytes), MemorySegment.NULL);
        log.awaitEvent(polled, TIMEOUT, s -> s.type() == EventType.RECV_ACK && s.seq() == 100);
        assertEquals(sent + 1, sender.counters().get(Counter.SHM_FRAMES_SENT));
        assertEquals(1, sender.counters().get(Counter.DOORBELLS_SENT), "a receiver that only polls never parks");
    }

    static boolean isParkedInSelector(final String threadName)
    {
        return Thread.getAllStackTraces().entrySet().stream()
            .filter(e -> e.getKey().getName().equals(threadName))
            .anyMatch(e -> java.util.Arrays.stream(e.getValue()).anyMatch(f -> f.getMethodName().equals("awaitReadable")) &&
                java.util.Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().endsWith("LibcSockets") &&
                    f.getMethodName().equals("poll")));
    }

    @Test
    void framesWaitInTheRingWhileTheApplicationDoesNotPollAndNoneIsLost()
    {
        // 200 frames of 4 KiB: five times what the 256 KiB event queue holds; the rest must wait in the ring.
        final DriverEndpoint sender = open(UserDriverOptions.defaults());
        final DriverEndpoint receiver = open(UserDriverOptions.defaults().withRingBytes(1 << 20, 256 << 10)
            .withProgressThread(false));
        final int peer = sender.acquirePeer(receiver.address().board());
        final MemorySegment header = arena.allocate(64);
        final MemorySegment payload = arena.allocate(TestFrames.payloadBytes(FrameKind.MEDIUM_FRAG));
        final int frames = 200;
        for (int i = 0; i < frames; i++)
        {
            final int headerBytes = TestFrames.encodeHeader(header, FrameKind.MEDIUM_FRAG, 0, 0,
                receiver.address().sessionId(), sender.address().sessionId(), i);
            sender.send(peer, header.asSlice(0, headerBytes), payload);
        }
        final int[] next = {0};
        await().atMost(TIMEOUT).until(() ->
        {
            receiver.poll(event ->
            {
                assertEquals(next[0], new FrameFlyweight().wrap(event.frame(), 0).seq(), "frames in order");
                next[0]++;
            }, 5);
            return next[0] == frames;
        });
        assertEquals(frames, receiver.counters().get(Counter.SHM_FRAMES_RECEIVED));
        assertEquals(frames, receiver.counters().get(Counter.FRAMES_RECEIVED_MEDIUM_FRAG));
    }

    @ParameterizedTest(name = "sameHost={0}")
    @ValueSource(booleans = {false, true})
    void aPollingHandlerGetsEachFrameOnceSayingWhetherItCameThroughTheLosslessRing(final boolean sameHost)
    {
        final DriverEndpoint sender = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final DriverEndpoint receiver = open(UserDriverOptions.defaults().withSameHost(sameHost)
            .withProgressThread(false));
        final int peer = sender.acquirePeer(receiver.address().board());
        final MemorySegment header = arena.allocate(64);
        for (int seq = 1; seq <= 2; seq++)
        {
            final int headerBytes = TestFrames.encodeHeader(header, FrameKind.ACK, 0, 0,
                receiver.address().sessionId(), sender.address().sessionId(), seq);
            sender.send(peer, header.asSlice(0, headerBytes), MemorySegment.NULL);
        }
        final List<Integer> seen = new ArrayList<>();
        final boolean[] lossless = {!sameHost};
        final boolean[] thrown = {false};
        await().atMost(TIMEOUT).until(() ->
        {
            try
            {
                receiver.poll(event ->
                {
                    seen.add(new FrameFlyweight().wrap(event.buffer(), event.frameOffset()).seq());
                    lossless[0] = event.lossless();
                    if (!thrown[0])
                    {
                        thrown[0] = true;
                        throw new IllegalStateException("the application's handler failed");
                    }
                }, 16);
            }
            catch (final IllegalStateException e)
            {
                assertEquals("the application's handler failed", e.getMessage());
            }
            return seen.size() >= 2;
        });
        assertEquals(List.of(1, 2), seen, "a frame whose handler threw is not delivered again");
        assertEquals(sameHost, lossless[0]);
        assertEquals(0, receiver.poll(event -> seen.add(-1), 16));
    }

    @Test
    void infoSaysWhatTheProviderIsAndThatItNeverPins()
    {
        final DriverEndpoint endpoint = open(UserDriverOptions.defaults());
        assertTrue(endpoint.info().chosenBecause().startsWith(UserDriver.DESCRIPTION));
        assertFalse(endpoint.info().pinsMemory());
        assertEquals(256, endpoint.info().maxSegments());
        assertNotEquals(0, endpoint.address().sessionId());
    }

    @Test
    void pullAskingForLargerRepliesThanTheServerSendsFailsAtOnceNamingBothSizes()
    {
        // a resend timeout far longer than the test's wait: only the NACK can end this pull in time
        final UserDriverOptions udp = UserDriverOptions.defaults().withSameHost(false).withPullResend(60_000_000_000L, 20);
        final DriverEndpoint server = open(udp.withFramePayloadBytes(4096));
        final DriverEndpoint puller = open(udp.withFramePayloadBytes(8192));
        final MemorySegment source = arena.allocate(1 << 20);
        final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        final int targetId = puller.declareRegion(new MemorySegment[] {arena.allocate(1 << 20)}, 1, RegionAccess.WRITE);
        puller.startPull(new PullSpec().peerIndex(puller.acquirePeer(server.address().board())).remoteEndpointIndex(0)
            .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).localRegionId(targetId)
            .length(source.byteSize()).pullHandle(11));
        final EventLog.Seen failed = new EventLog().awaitPull(puller, TIMEOUT, 11);
        assertEquals(EventType.PULL_FAILED, failed.type(), failed.message());
        assertEquals(DriverError.BAD_ARGUMENT, failed.error(), failed.message());
        assertTrue(failed.message().contains("8192-byte replies") && failed.message().contains("its limit is 4096-byte replies") &&
            failed.message().contains("NACK BAD_FIELD"), failed.message());
        assertEquals(0, puller.counters().get(Counter.PULL_REQUESTS_RESENT), "refused at once, not resent");
        assertTrue(server.counters().get(Counter.NACKS_SENT) >= 1);
        assertTrue(server.counters().get(Counter.DROPPED_BAD_FIELD) >= 1);
    }

    @Test
    void countersArePublishedToTheNodeStoreAndMatchTheEndpointsOwn(@TempDir final Path dir)
    {
        final Path file = dir.resolve("counters.dat");
        final UserDriverOptions options = UserDriverOptions.defaults().withCountersFile(file);
        final UserEndpoint a = (UserEndpoint)open(options);
        final UserEndpoint b = (UserEndpoint)open(options);
        assertNull(((UserEndpoint)open(options.withCountersFile(null))).publishedCountersName(), "publishing is optional");
        final String aName = a.publishedCountersName();
        assertTrue(aName.contains("/pid" + ProcessHandle.current().pid() + "/") &&
            aName.endsWith("/" + a.address().board() + "/0"), aName);
        assertNotEquals(aName, b.publishedCountersName(), "each endpoint under its own name");

        final int bAtA = a.acquirePeer(b.address().board());
        final MemorySegment header = arena.allocate(128);
        final MemorySegment body = arena.allocate(TestFrames.payloadBytes(FrameKind.TINY));
        final EventLog log = new EventLog();
        for (int tag = 1; tag <= 3; tag++)
        {
            final int headerBytes = TestFrames.encodeHeader(header, FrameKind.TINY, 0, 0, b.address().sessionId(),
                a.address().sessionId(), tag);
            a.send(bAtA, header.asSlice(0, headerBytes), body);
            final int expectedTag = tag;
            log.awaitEvent(b, TIMEOUT, seen -> seen.seq() == expectedTag);
        }
        try (CounterStore store = ChronicleMapCounterStore.open(file))
        {
            for (final UserEndpoint endpoint : List.of(a, b))
            {
                await("counters of " + endpoint.publishedCountersName() + " in the store").atMost(TIMEOUT)
                    .until(() -> store.get(endpoint.publishedCountersName())
                        .map(published -> Arrays.equals(endpoint.counters().snapshot(), published.values()))
                        .orElse(false));
            }
            assertEquals(3, store.get(aName).orElseThrow().get(Counter.FRAMES_SENT_TINY));
            assertEquals(3, store.get(b.publishedCountersName()).orElseThrow().get(Counter.FRAMES_RECEIVED_TINY));

            // the last counters are published at close, whatever the rate limit
            final int headerBytes = TestFrames.encodeHeader(header, FrameKind.TINY, 0, 0, b.address().sessionId(),
                a.address().sessionId(), 4);
            a.send(bAtA, header.asSlice(0, headerBytes), body);
            final long[] last = a.counters().snapshot();
            a.close();
            assertArrayEquals(last, store.get(aName).orElseThrow().values());
            assertEquals(4, store.get(aName).orElseThrow().get(Counter.FRAMES_SENT_TINY));
        }
    }

    @Test
    void anEndpointClosedWhileItsStoreIsStillOpeningHasItsFinalCountersPublishedWhenCloseReturns(@TempDir final Path dir)
    {
        for (int round = 0; round < 3; round++)
        {
            // a new file each round: its store opens on a SCHED_IDLE thread, so it is most likely still opening and
            // close leaves the final counters pending beside it instead of waiting
            final Path file = dir.resolve("counters-" + round + ".dat");
            final UserEndpoint endpoint = (UserEndpoint)open(UserDriverOptions.defaults().withCountersFile(file));
            final String name = endpoint.publishedCountersName();
            final long[] last = endpoint.counters().snapshot();
            endpoint.close();
            final long[] published = PendingCounters.list(file).stream()
                .filter(p -> p.endpoint().equals(name)).findFirst().map(PublishedCounters::values)
                .orElseGet(() ->
                {
                    try (CounterStore store = ChronicleMapCounterStore.open(file))
                    {
                        return store.get(name).orElseThrow(() -> new AssertionError("no counters of " + name +
                            " in " + file + " nor pending beside it after close returned")).values();
                    }
                });
            assertArrayEquals(last, published);
        }
    }

    /**
     * Sends one frame of every kind the library sends from {@code from} to its peer {@code peer}, and checks each
     * arrives intact at {@code to} from {@code to}'s peer {@code fromAtTo}, through a shared-memory ring when
     * {@code throughRing}.
     */
    private void sendEveryLibraryKind(
        final DriverEndpoint from, final int peer, final DriverEndpoint to, final int fromAtTo, final boolean throughRing)
    {
        final MemorySegment header = arena.allocate(128);
        final MemorySegment payload = arena.allocate(4000);
        final EventLog log = new EventLog();
        int tag = 100;
        for (final FrameKind kind : TestFrames.LIBRARY_KINDS)
        {
            final int headerBytes = TestFrames.encodeHeader(header, kind, 0, 0, to.address().sessionId(),
                from.address().sessionId(), tag);
            final MemorySegment body = payload.asSlice(0, TestFrames.payloadBytes(kind));
            Patterns.fill(body, tag);
            assertEquals(throughRing, from.send(peer, header.asSlice(0, headerBytes), body), kind + " into a ring");
            final int expectedTag = tag;
            final EventLog.Seen seen = log.awaitEvent(to, TIMEOUT, s -> s.seq() == expectedTag);
            assertEquals(EventType.received(kind), seen.type());
            assertEquals(kind.code(), seen.kindCode());
            assertEquals(from.address().sessionId(), seen.srcSession());
            assertEquals(headerBytes + body.byteSize(), seen.frame().length);
            assertArrayEquals(body.toArray(ValueLayout.JAVA_BYTE),
                MemorySegment.ofArray(seen.frame()).asSlice(headerBytes).toArray(ValueLayout.JAVA_BYTE), kind.name());
            assertEquals(fromAtTo, seen.peer());
            tag++;
        }
    }
}
