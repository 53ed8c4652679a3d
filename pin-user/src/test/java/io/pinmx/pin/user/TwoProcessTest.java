package io.pinmx.pin.user;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.wire.FrameKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two endpoints in two JVM processes: this one and a {@link PeerProcess} child. Over plain UDP
 * ({@code sameHost=false}) and over the same-host path (shared-memory ring, process_vm_readv pulls): every frame
 * kind there and back, a 64 MiB pull each way compared by checksum on both sides, and a pull that runs into an
 * unmapped segment of the other process.
 */
class TwoProcessTest
{
    private static final long LARGE_BYTES = 64L << 20;
    private static final long LINE_TIMEOUT_MS = 60_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @ParameterizedTest(name = "sameHost={0}")
    @ValueSource(booleans = {false, true})
    void twoProcessesExchangeEveryFrameKindAndPull64MiBEachWay(final boolean sameHost) throws Exception
    {
        try (ChildJvm child = ChildJvm.start(PeerProcess.class, Boolean.toString(sameHost));
             Arena arena = Arena.ofShared();
             DriverEndpoint local = new UserDriver("multi-process test").open(EndpointConfig.builder()
                 .options(UserDriverOptions.class, UserDriverOptions.defaults().withSameHost(sameHost)).build()))
        {
            final String[] address = child.awaitLine("ADDRESS ", LINE_TIMEOUT_MS).split(" ");
            final BoardAddress childBoard = BoardAddress.parse(address[0]);
            final int childEndpoint = Integer.parseInt(address[1]);
            final int childSession = Integer.parseUnsignedInt(address[2], 16);
            final int peer = local.acquirePeer(childBoard);
            final EventLog log = new EventLog();

            final MemorySegment header = arena.allocate(128);
            final MemorySegment payload = arena.allocate(4000);
            int tag = 1_000;
            for (final FrameKind kind : TestFrames.LIBRARY_KINDS)
            {
                final int headerBytes = TestFrames.encodeHeader(header, kind, childEndpoint, 0, childSession,
                    local.address().sessionId(), tag);
                final MemorySegment body = payload.asSlice(0, TestFrames.payloadBytes(kind));
                Patterns.fill(body, tag);
                local.send(peer, header.asSlice(0, headerBytes), body);
                assertEquals(kind + " " + tag, child.awaitLine("RECV ", LINE_TIMEOUT_MS));
                final int expected = tag;
                final EventLog.Seen echoed = log.awaitEvent(local, TIMEOUT, s -> s.seq() == expected);
                assertEquals(EventType.received(kind), echoed.type());
                assertEquals(childSession, echoed.srcSession());
                assertEquals(peer, echoed.peer());
                assertArrayEquals(body.toArray(ValueLayout.JAVA_BYTE),
                    MemorySegment.ofArray(echoed.frame()).asSlice(headerBytes).toArray(ValueLayout.JAVA_BYTE));
                tag++;
            }
            assertEquals(sameHost ? TestFrames.LIBRARY_KINDS.size() : 0, local.counters().get(Counter.SHM_FRAMES_SENT));
            assertEquals(sameHost ? TestFrames.LIBRARY_KINDS.size() : 0,
                local.counters().get(Counter.SHM_FRAMES_RECEIVED));

            child.send("region " + LARGE_BYTES + " 17");
            final String[] region = child.awaitLine("REGION ", LINE_TIMEOUT_MS).split(" ");
            final MemorySegment target = arena.allocate(LARGE_BYTES, 4096);
            final int targetId = local.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
            local.startPull(new PullSpec().peerIndex(peer).remoteEndpointIndex(childEndpoint)
                .remoteSessionId(childSession).remoteRegionId(Integer.parseInt(region[0])).localRegionId(targetId)
                .length(LARGE_BYTES).pullHandle(64));
            final EventLog.Seen pulled = log.awaitPull(local, TIMEOUT, 64);
            assertEquals(EventType.PULL_DONE, pulled.type(), pulled.message());
            assertEquals(Long.parseLong(region[1]), Patterns.crc(target), "checksum of the 64 MiB pulled from the child");
            assertEquals(sameHost ? 1 : 0, local.counters().get(Counter.PULL_SINGLE_COPY));

            final MemorySegment source = arena.allocate(LARGE_BYTES, 4096);
            Patterns.fill(source, 23);
            final int sourceId = local.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
            child.send("pull " + local.address().board() + " 0 " + Integer.toHexString(local.address().sessionId()) +
                " " + sourceId + " " + LARGE_BYTES + " 65");
            assertEquals("65 " + Patterns.crc(source), child.awaitLine("PULLED ", LINE_TIMEOUT_MS),
                "checksum of the 64 MiB the child pulled from us");
            if (!sameHost)
            {
                assertTrue(local.counters().get(Counter.PULL_REPLY_FRAMES_SENT) >= LARGE_BYTES / 8192);
            }

            child.send("unmapped");
            final String[] bad = child.awaitLine("REGION ", LINE_TIMEOUT_MS).split(" ");
            local.startPull(new PullSpec().peerIndex(peer).remoteEndpointIndex(childEndpoint)
                .remoteSessionId(childSession).remoteRegionId(Integer.parseInt(bad[0])).localRegionId(targetId)
                .length(128 * 1024).pullHandle(66));
            final EventLog.Seen failed = log.awaitPull(local, TIMEOUT, 66);
            assertEquals(DriverError.SEGMENT_FAULT, failed.error(), failed.message());
            assertTrue(failed.message().contains("segment 1 at 0x10000") && failed.message().contains("EFAULT"),
                failed.message());

            child.send("quit");
        }
    }

    @ParameterizedTest(name = "sameHost={0}")
    @ValueSource(booleans = {false, true})
    void pullFromAKilledProcessFailsWithAClearErrorAndTheEndpointCarriesOn(final boolean sameHost) throws Exception
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withSameHost(sameHost)
            .withPullResend(100_000_000L, 5);
        try (ChildJvm child = ChildJvm.start(PeerProcess.class, Boolean.toString(sameHost));
             Arena arena = Arena.ofShared();
             DriverEndpoint local = new UserDriver("multi-process test").open(EndpointConfig.builder()
                 .options(UserDriverOptions.class, options).build());
             DriverEndpoint other = new UserDriver("multi-process test").open(EndpointConfig.builder()
                 .options(UserDriverOptions.class, options).build()))
        {
            final String[] address = child.awaitLine("ADDRESS ", LINE_TIMEOUT_MS).split(" ");
            final int peer = local.acquirePeer(BoardAddress.parse(address[0]));
            child.send("region 1048576 3");
            final String[] region = child.awaitLine("REGION ", LINE_TIMEOUT_MS).split(" ");
            final MemorySegment target = arena.allocate(1 << 20, 4096);
            final int targetId = local.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
            final PullSpec spec = new PullSpec().peerIndex(peer).remoteEndpointIndex(Integer.parseInt(address[1]))
                .remoteSessionId(Integer.parseUnsignedInt(address[2], 16)).remoteRegionId(Integer.parseInt(region[0]))
                .localRegionId(targetId).length(1 << 20);
            final EventLog log = new EventLog();
            local.startPull(spec.pullHandle(1));
            final EventLog.Seen first = log.awaitPull(local, TIMEOUT, 1);
            assertEquals(EventType.PULL_DONE, first.type(), first.message());

            child.kill();
            local.startPull(spec.pullHandle(2));
            final EventLog.Seen failed = log.awaitPull(local, TIMEOUT, 2);
            assertEquals(sameHost ? DriverError.PEER_UNREACHABLE : DriverError.TIMEOUT, failed.error(), failed.message());
            assertTrue(failed.message().contains(sameHost ? "is gone (ESRCH" : "after 6 requests"), failed.message());

            final MemorySegment source = arena.allocate(1 << 20, 4096);
            Patterns.fill(source, 8);
            final int sourceId = other.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
            local.startPull(new PullSpec().peerIndex(local.acquirePeer(other.address().board())).remoteEndpointIndex(0)
                .remoteSessionId(other.address().sessionId()).remoteRegionId(sourceId).localRegionId(targetId)
                .length(1 << 20).pullHandle(3));
            final EventLog.Seen last = log.awaitPull(local, TIMEOUT, 3);
            assertEquals(EventType.PULL_DONE, last.type(), last.message());
            assertEquals(Patterns.crc(source), Patterns.crc(target));
        }
    }
}
