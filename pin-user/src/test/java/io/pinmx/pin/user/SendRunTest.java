package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.MediumFragFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;

import static io.pinmx.pin.user.OpenedEndpoints.expect;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code DriverEndpoint.sendRun} on the user driver: a library's run of MEDIUM_FRAG frames arrives whole and in order
 * through the ring or over UDP (there in offloaded sends, a frame with bytes on the Java heap going alone), loss
 * injection drops frames one by one, and a bad run is refused before any of it is sent.
 */
class SendRunTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int FRAGMENT_BYTES = 1400;
    private static final int LAST_FRAGMENT_BYTES = 600;
    private static final int FRAMES = 41;
    private static final int HEAP_FRAME = 30;

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] headers = new MemorySegment[FRAMES];
    private final MemorySegment[] payloads = new MemorySegment[FRAMES];

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
    void aRunArrivesWholeAndInOrder(final boolean sameHost)
    {
        final DriverEndpoint a = open(UserDriverOptions.defaults().withSameHost(sameHost));
        final DriverEndpoint b = open(UserDriverOptions.defaults().withSameHost(sameHost));
        encodeRun(a, b);
        assertEquals(sameHost, a.sendRun(a.acquirePeer(b.address().board()), headers, payloads, FRAMES));

        final List<EventLog.Seen> received = awaitFrames(b, FRAMES);
        for (int k = 0; k < FRAMES; k++)
        {
            assertFrame(k, received.get(k));
        }
        assertEquals(FRAMES, a.counters().get(Counter.FRAMES_SENT_MEDIUM_FRAG));
        assertEquals(sameHost ? FRAMES : 0, a.counters().get(Counter.SHM_FRAMES_SENT));
        // frames 0-29 in one send, 30 (on the heap) alone, 31-40 in one: unless the kernel refuses offload
        assertEquals(sameHost ? 0 : 2, a.counters().get(Counter.OFFLOADED_SENDS));
    }

    @Test
    void lossInjectionDropsFramesOfARunOneByOne()
    {
        final DriverEndpoint a = open(UserDriverOptions.defaults().withSameHost(false).withLoss(0.3, 0, 11));
        final DriverEndpoint b = open(UserDriverOptions.defaults().withSameHost(false));
        encodeRun(a, b);
        a.sendRun(a.acquirePeer(b.address().board()), headers, payloads, FRAMES);

        final long dropped = a.counters().get(Counter.DROPPED_LOSS_INJECTED_TX);
        assertTrue(dropped > 0 && dropped < FRAMES, dropped + " of " + FRAMES + " dropped");
        final List<EventLog.Seen> received = awaitFrames(b, FRAMES - (int)dropped);
        int previous = -1;
        for (final EventLog.Seen seen : received)
        {
            assertTrue(seen.seq() > previous, "frames in order: " + seen.seq() + " after " + previous);
            assertFrame(seen.seq(), seen);
            previous = seen.seq();
        }
        assertEquals(FRAMES, a.counters().get(Counter.FRAMES_SENT_MEDIUM_FRAG));
    }

    @Test
    void aBadRunIsRefusedBeforeAnyFrameGoes()
    {
        final DriverEndpoint a = open(UserDriverOptions.defaults().withSameHost(false));
        final DriverEndpoint b = open(UserDriverOptions.defaults().withSameHost(false));
        final int peer = a.acquirePeer(b.address().board());
        encodeRun(a, b);

        expect(DriverError.BAD_ARGUMENT, "frame count 0", () -> a.sendRun(peer, headers, payloads, 0));
        expect(DriverError.BAD_ARGUMENT, "frame count 42", () -> a.sendRun(peer, headers, payloads, FRAMES + 1));
        expect(DriverError.BAD_ARGUMENT, "(null and", () -> a.sendRun(peer, null, payloads, 1));

        new FrameFlyweight().wrap(headers[7], 0).dstSession(b.address().sessionId() + 1);
        expect(DriverError.BAD_ARGUMENT, "frame 7: names endpoint 0 session " + (b.address().sessionId() + 1),
            () -> a.sendRun(peer, headers, payloads, FRAMES));
        new FrameFlyweight().wrap(headers[7], 0).dstSession(b.address().sessionId());

        final MemorySegment tooLong = payloads[12];
        payloads[12] = arena.allocate(1 << 20);
        expect(DriverError.BAD_ARGUMENT, "sendRun to peer " + peer + ", frame 12: MEDIUM_FRAG frame of",
            () -> a.sendRun(peer, headers, payloads, FRAMES));
        payloads[12] = tooLong;

        headers[20].set(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET, (byte)FrameKind.PULL_REPLY.code());
        expect(DriverError.BAD_ARGUMENT, "frame 20: frame kind PULL_REPLY is the driver's own",
            () -> a.sendRun(peer, headers, payloads, FRAMES));
        assertEquals(0, a.counters().get(Counter.FRAMES_SENT_MEDIUM_FRAG));

        a.close();
        expect(DriverError.ENDPOINT_CLOSED, "sendRun", () -> a.sendRun(peer, headers, payloads, FRAMES));
    }

    /** MEDIUM_FRAG frames of one message from a to b, frame k carrying seq k and a pattern of its own. */
    private void encodeRun(final DriverEndpoint a, final DriverEndpoint b)
    {
        final int headerBytes = FrameKind.MEDIUM_FRAG.headerBytes();
        final long length = (long)(FRAMES - 1) * FRAGMENT_BYTES + LAST_FRAGMENT_BYTES;
        for (int k = 0; k < FRAMES; k++)
        {
            final int bytes = k == FRAMES - 1 ? LAST_FRAGMENT_BYTES : FRAGMENT_BYTES;
            headers[k] = arena.allocate(headerBytes, 8);
            final MediumFragFrame frame = new MediumFragFrame();
            frame.wrap(headers[k], 0);
            frame.encodeHeader(FrameKind.MEDIUM_FRAG, 0, 0, b.address().sessionId(), a.address().sessionId(), k,
                bytes);
            frame.encode(0x2000L, (int)length, k * FRAGMENT_BYTES, k, FRAMES, 0);
            payloads[k] = k == HEAP_FRAME ? MemorySegment.ofArray(new byte[bytes]) : arena.allocate(bytes);
            Patterns.fill(payloads[k], k * 1000L);
        }
    }

    private List<EventLog.Seen> awaitFrames(final DriverEndpoint to, final int frames)
    {
        final EventLog log = new EventLog();
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(1)).until(() ->
        {
            to.poll(log::onEvent, 64);
            return log.all().size() >= frames;
        });
        final List<EventLog.Seen> seen = log.all();
        assertEquals(frames, seen.size(), "frames received");
        return seen;
    }

    private void assertFrame(final int k, final EventLog.Seen seen)
    {
        final int headerBytes = FrameKind.MEDIUM_FRAG.headerBytes();
        assertEquals(EventType.received(FrameKind.MEDIUM_FRAG), seen.type());
        assertEquals(k, seen.seq());
        assertEquals(headerBytes + payloads[k].byteSize(), seen.frame().length, "frame " + k);
        assertArrayEquals(payloads[k].toArray(ValueLayout.JAVA_BYTE),
            MemorySegment.ofArray(seen.frame()).asSlice(headerBytes).toArray(ValueLayout.JAVA_BYTE), "frame " + k);
    }
}
