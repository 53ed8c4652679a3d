package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static io.pinmx.pin.user.OpenedEndpoints.expect;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DriverEndpoint#cancelPull} on the user driver, over UDP from a server that answers PULL requests only while
 * the test polls it: a pull is cancelled while its requests wait there, and the replies the server sends afterwards
 * must land nowhere.
 */
class PullCancelTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** How long the tests keep polling to see that no further event comes. */
    private static final Duration QUIET = Duration.ofMillis(300);
    private static final int PULL_BYTES = 256 << 10;
    private static final byte MARK = (byte)0x5A;

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();
    private DriverEndpoint server;
    private DriverEndpoint puller;
    private MemorySegment source;
    private int sourceId;
    private MemorySegment target;
    private int targetId;
    private int peer;

    @AfterEach
    void closeAll()
    {
        resources.close();
        arena.close();
    }

    private void open(final boolean pullerThread)
    {
        final UserDriverOptions udp = UserDriverOptions.defaults().withSameHost(false);
        server = resources.open(udp.withProgressThread(false).withResponder(false));
        puller = resources.open(udp.withProgressThread(pullerThread));
        source = arena.allocate(PULL_BYTES, 4096);
        Patterns.fill(source, 3);
        sourceId = server.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        target = arena.allocate(2L * PULL_BYTES, 4096);
        target.fill(MARK);
        targetId = puller.declareRegion(new MemorySegment[] {target}, 1, RegionAccess.WRITE);
        peer = puller.acquirePeer(server.address().board());
    }

    private void startPull(final int handle, final long localOffset)
    {
        puller.startPull(new PullSpec().peerIndex(peer).remoteEndpointIndex(server.address().endpointIndex())
            .remoteSessionId(server.address().sessionId()).remoteRegionId(sourceId).localRegionId(targetId)
            .localOffset(localOffset).length(PULL_BYTES).pullHandle(handle));
    }

    @ParameterizedTest(name = "puller progress thread {0}")
    @ValueSource(booleans = {true, false})
    void aCancelledPullEndsOnceAndItsLateRepliesAreDroppedAndCounted(final boolean pullerThread)
    {
        open(pullerThread);
        startPull(7, 0);
        final EventLog events = new EventLog();
        await().atMost(TIMEOUT).until(() ->
        {
            puller.poll(events::onEvent, 64);
            return puller.counters().get(Counter.FRAMES_SENT_PULL) > 0;
        });

        puller.cancelPull(7);
        final EventLog.Seen end = events.awaitPull(puller, TIMEOUT, 7);
        assertEquals(EventType.PULL_FAILED, end.type(), end.message());
        assertEquals(DriverError.CANCELLED, end.error(), end.message());
        assertEquals(0, end.bytes());
        assertTrue(end.message().contains("pull 7") && end.message().contains("cancelled"), end.message());
        assertEquals(1, puller.counters().get(Counter.PULLS_CANCELLED));
        assertEquals(1, puller.counters().get(Counter.PULLS_FAILED));

        // the server now answers the requests it held: every reply arrives late
        await().atMost(TIMEOUT).until(() ->
        {
            server.poll(e -> { }, 64);
            puller.poll(events::onEvent, 64);
            return puller.counters().get(Counter.PULL_DUPLICATE_FRAMES) > 0;
        });
        assertTrue(server.counters().get(Counter.PULLS_SERVED) > 0, "the server served the requests");
        assertEquals(0, puller.counters().get(Counter.PULL_FRAMES_RECEIVED), "no late reply was accepted");
        assertMarked(0, PULL_BYTES);
        pollQuietly(events);
        assertEquals(1, events.all().stream().filter(s -> s.pullHandle() == 7).count(), "one end event");
    }

    @Test
    void aCancelAskedRightAfterTheStartCancelsThatPullAndNoOther()
    {
        open(true);
        startPull(1, 0);
        startPull(2, PULL_BYTES);
        puller.cancelPull(1);
        final EventLog events = new EventLog();
        final EventLog.Seen cancelled = events.awaitPull(puller, TIMEOUT, 1);
        assertEquals(DriverError.CANCELLED, cancelled.error(), cancelled.message());

        final EventLog.Seen done = awaitPullServing(events, 2);
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        assertEquals(-1, source.mismatch(target.asSlice(PULL_BYTES, PULL_BYTES)), "the other pull landed whole");
        assertMarked(0, PULL_BYTES);
        assertEquals(1, puller.counters().get(Counter.PULLS_CANCELLED));
        assertEquals(1, puller.counters().get(Counter.PULLS_DONE));
    }

    @Test
    void cancellingAnEndedOrUnknownPullChangesNothing()
    {
        open(true);
        startPull(3, 0);
        final EventLog events = new EventLog();
        final EventLog.Seen done = awaitPullServing(events, 3);
        assertEquals(EventType.PULL_DONE, done.type(), done.message());

        puller.cancelPull(3);
        puller.cancelPull(3);
        puller.cancelPull(12345);
        pollQuietly(events);
        assertEquals(1, events.all().size(), "no event for cancels of pulls not in flight: " + events.all());
        assertEquals(0, puller.counters().get(Counter.PULLS_CANCELLED));
        assertEquals(0, puller.counters().get(Counter.PULLS_FAILED));
        assertEquals(-1, source.mismatch(target.asSlice(0, PULL_BYTES)));

        puller.close();
        expect(DriverError.ENDPOINT_CLOSED, "cancelPull", () -> puller.cancelPull(3));
    }

    /** The end of a pull, polling the server meanwhile so that it serves the pull. */
    private EventLog.Seen awaitPullServing(final EventLog events, final int handle)
    {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(1)).until(() ->
        {
            server.poll(e -> { }, 64);
            puller.poll(events::onEvent, 64);
            return events.all().stream().anyMatch(s -> s.pullHandle() == handle);
        });
        return events.awaitPull(puller, TIMEOUT, handle);
    }

    private void pollQuietly(final EventLog events)
    {
        final long endNs = System.nanoTime() + QUIET.toNanos();
        while (System.nanoTime() - endNs < 0)
        {
            server.poll(e -> { }, 64);
            puller.poll(events::onEvent, 64);
            puller.await(1_000_000L);
        }
    }

    private void assertMarked(final long from, final long bytes)
    {
        for (long i = from; i < from + bytes; i++)
        {
            final long at = i;
            assertEquals(MARK, target.get(ValueLayout.JAVA_BYTE, at), () -> "byte " + at + " of the cancelled pull's place");
        }
    }
}
