package io.pinmx.pin.user;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames damaged in flight between two endpoints (a {@link CorruptingRelay} flips bits in their datagrams) never
 * reach the library or a region: the receiver drops them by their CRC32C and counts them, and the sender's resend
 * repairs them.
 */
class FrameCheckTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void closeAll()
    {
        resources.close();
        arena.close();
    }

    @Test
    void aPullThroughARelayThatFlipsBitsEndsByteExactAfterDroppingAndRefetchingTheDamagedFrames() throws Exception
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(20_000_000L, 100);
        final DriverEndpoint server = resources.open(options);
        final DriverEndpoint puller = resources.open(options);
        try (CorruptingRelay relay = new CorruptingRelay(puller.address().board().endpointSocketAddress(0),
            server.address().board().endpointSocketAddress(0), 13))
        {
            final MemorySegment source = arena.allocate(8 << 20);
            Patterns.fill(source, 17);
            final int sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
            final MemorySegment target = arena.allocate(source.byteSize());
            final int targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
            final int serverThroughRelay = puller.acquirePeer(BoardAddress.udp(InetAddress.getLoopbackAddress(),
                relay.port()));
            final PullSpec spec = new PullSpec().peerIndex(serverThroughRelay).remoteEndpointIndex(0)
                .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).remoteOffset(0)
                .localRegionId(targetId).localOffset(0).length(source.byteSize());
            final EventLog log = new EventLog();
            for (int handle = 1; handle <= 3; handle++)
            {
                target.fill((byte)0);
                puller.startPull(spec.pullHandle(handle));
                final EventLog.Seen done = log.awaitPull(puller, TIMEOUT, handle);
                assertEquals(EventType.PULL_DONE, done.type(), done.message());
                assertEquals(-1, source.mismatch(target), "pull " + handle + " through the relay");
            }
            final String seen = "relay: " + relay.relayed() + " datagrams, " + relay.damaged() + " damaged; puller " +
                puller.counters().get(Counter.DROPPED_BAD_CRC) + " dropped by CRC, " +
                puller.counters().get(Counter.PULL_REQUESTS_RESENT) + " requests resent, " +
                puller.counters().get(Counter.PULL_FRAMES_PLACED) + " replies placed; server " +
                server.counters().get(Counter.DROPPED_BAD_CRC) + " dropped by CRC";
            assertTrue(relay.damaged() > 0, seen);
            assertTrue(puller.counters().get(Counter.DROPPED_BAD_CRC) > 0, seen);
            assertTrue(puller.counters().get(Counter.PULL_REQUESTS_RESENT) > 0, seen);
            assertTrue(puller.counters().get(Counter.PULL_FRAMES_PLACED) > 0, "replies read straight into the region: " +
                seen);
        }
    }

    @Test
    void aProbeIsAnsweredOnlyWhenItsTrailerMatches() throws Exception
    {
        final DriverEndpoint endpoint = resources.open(UserDriverOptions.defaults().withSameHost(false));
        try (DatagramChannel raw = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(),
            0)))
        {
            final MemorySegment probe = arena.allocate(LivenessProbes.DATAGRAM_BYTES);
            final ValueLayout.OfLong magic = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
            final ValueLayout.OfInt field = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
            probe.set(magic, 0, LivenessProbes.MAGIC);
            probe.set(field, 8, LivenessProbes.PROBE);
            final FrameChecksum checksum = new FrameChecksum();
            checksum.stampTrailer(probe.address(), LivenessProbes.DATAGRAM_BYTES - FrameChecksum.CHECK_BYTES);
            probe.set(field, 16, 99);
            final InetSocketAddress target = endpoint.address().board().endpointSocketAddress(0);
            raw.send(probe.asByteBuffer(), target);
            await().atMost(TIMEOUT).until(() -> endpoint.counters().get(Counter.DROPPED_BAD_CRC) == 1);
            assertEquals(0, endpoint.counters().get(Counter.LIVENESS_PROBES_ANSWERED), "a damaged probe is not answered");

            checksum.stampTrailer(probe.address(), LivenessProbes.DATAGRAM_BYTES - FrameChecksum.CHECK_BYTES);
            raw.send(probe.asByteBuffer(), target);
            final ByteBuffer answer = ByteBuffer.allocateDirect(256);
            raw.configureBlocking(false);
            await().atMost(TIMEOUT).until(() -> raw.receive(answer.clear()) != null);
            answer.flip();
            assertEquals(LivenessProbes.DATAGRAM_BYTES, answer.remaining());
            assertTrue(checksum.trailerMatches(MemorySegment.ofBuffer(answer).address(), answer.remaining()),
                "the answer carries its own trailer");
            assertEquals(1, endpoint.counters().get(Counter.LIVENESS_PROBES_ANSWERED));
            assertEquals(1, endpoint.counters().get(Counter.DROPPED_BAD_CRC));
        }
    }
}
