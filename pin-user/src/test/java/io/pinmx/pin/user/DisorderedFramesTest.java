package io.pinmx.pin.user;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.spi.RemoteRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Puts and atomics over UDP through a {@link DisorderingRelay} that sends every third datagram twice (the copy five
 * datagrams later) and swaps every seventh with the one after it, requests and answers alike: each atomic is applied
 * exactly once (fetch-and-adds of one word, {@link #IN_FLIGHT} in flight at once, return every old value from 0 on
 * exactly once and leave their sum), and a late copy of a put's frame never lands over a later put (puts of two
 * patterns in turn over one range end with the last one's bytes). A put of many windows of PUT frames through the
 * relay, with a twentieth of the origin's received acks dropped too, lands byte-exact.
 */
class DisorderedFramesTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final int ROUNDS = 8;
    private static final int IN_FLIGHT = 32;
    private static final int PUTS = 12;
    private static final int PUT_OFFSET = 8192;
    private static final int PUT_BYTES = 20_000;
    private static final int LARGE_PUT_BYTES = 2 << 20;

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void close()
    {
        resources.close();
        arena.close();
    }

    @Test
    void atomicsApplyOnceAndPutsKeepTheLatestBytesThroughDuplicatedAndSwappedDatagrams() throws Exception
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(TimeUnit.MILLISECONDS.toNanos(5), 200);
        final DriverEndpoint target = resources.open(options);
        final DriverEndpoint origin = resources.open(options);
        try (DisorderingRelay relay = new DisorderingRelay(origin.address().board().endpointSocketAddress(0),
            target.address().board().endpointSocketAddress(0), 3, 5, 7))
        {
            final MemorySegment memory = arena.allocate(PUT_OFFSET + PUT_BYTES, 4096);
            final RemoteRegion region = target.declareRemoteRegion(new MemorySegment[] {memory}, 1);
            final int peer = origin.acquirePeer(BoardAddress.udp(InetAddress.getLoopbackAddress(), relay.port()));
            final OneSidedEnds ends = new OneSidedEnds(origin);
            final AtomicSpec atomic = new AtomicSpec();
            atomic.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
            final boolean[] seen = new boolean[ROUNDS * IN_FLIGHT];
            int handle = 0;
            for (int round = 0; round < ROUNDS; round++)
            {
                final int first = handle + 1;
                for (int i = 0; i < IN_FLIGHT; i++)
                {
                    origin.startAtomic(atomic.word(AtomicOp.FETCH_ADD, 8, 0, 1, 0, ++handle));
                }
                for (int h = first; h <= handle; h++)
                {
                    final int old = (int)ends.await(h, TIMEOUT_NS, EventType.ATOMIC_DONE).oldValue();
                    assertTrue(old >= 0 && old < seen.length, "old value " + old + " of request " + h);
                    assertFalse(seen[old], "old value " + old + " returned twice: an atomic applied twice");
                    seen[old] = true;
                }
            }
            assertEquals(ROUNDS * IN_FLIGHT, memory.get(ValueLayout.JAVA_LONG, 0), "one add per request");
            assertEquals(ROUNDS * IN_FLIGHT, target.counters().get(Counter.ATOMICS_APPLIED));

            final MemorySegment sources = arena.allocate(2L * PUT_BYTES, 8);
            Patterns.fill(sources.asSlice(0, PUT_BYTES), 1);
            Patterns.fill(sources.asSlice(PUT_BYTES, PUT_BYTES), 2);
            final int local = origin.declareRegion(new MemorySegment[] {sources}, 1, RegionAccess.READ);
            final PutSpec put = new PutSpec();
            put.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
            for (int k = 0; k < PUTS; k++)
            {
                origin.startPut(put.source(local, ++handle).contiguous(PUT_OFFSET, (long)(k % 2) * PUT_BYTES,
                    PUT_BYTES));
                assertEquals(PUT_BYTES, ends.await(handle, TIMEOUT_NS, EventType.PUT_DONE).bytes());
                assertEquals(-1, memory.asSlice(PUT_OFFSET, PUT_BYTES)
                    .mismatch(sources.asSlice((long)(k % 2) * PUT_BYTES, PUT_BYTES)), "put " + k + "'s bytes");
            }
            final String seenByRelay = "relay: " + relay.relayed() + " datagrams, " + relay.duplicated() +
                " sent twice, " + relay.swapped() + " swapped; target: " +
                target.counters().get(Counter.ATOMIC_DUPLICATES) + " atomics seen again, " +
                target.counters().get(Counter.PUT_STALE) + " stale put frames";
            assertTrue(relay.duplicated() > 0 && relay.swapped() > 0, seenByRelay);
            assertTrue(target.counters().get(Counter.ATOMIC_DUPLICATES) > 0, seenByRelay);
        }
    }

    @Test
    void aPutOfManyWindowsLandsExactlyThroughDuplicatedSwappedAndLostDatagrams() throws Exception
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(TimeUnit.MILLISECONDS.toNanos(5), 200);
        final DriverEndpoint target = resources.open(options);
        final DriverEndpoint origin = resources.open(options.withLoss(0, 0.05, 7));
        try (DisorderingRelay relay = new DisorderingRelay(origin.address().board().endpointSocketAddress(0),
            target.address().board().endpointSocketAddress(0), 3, 5, 7))
        {
            final MemorySegment memory = arena.allocate(LARGE_PUT_BYTES + PUT_OFFSET, 4096);
            final RemoteRegion region = target.declareRemoteRegion(new MemorySegment[] {memory}, 1);
            final int peer = origin.acquirePeer(BoardAddress.udp(InetAddress.getLoopbackAddress(), relay.port()));
            final MemorySegment source = arena.allocate(LARGE_PUT_BYTES, 8);
            Patterns.fill(source, 3);
            final int local = origin.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
            final PutSpec put = new PutSpec();
            put.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
            origin.startPut(put.source(local, 1).contiguous(PUT_OFFSET, 0, LARGE_PUT_BYTES));
            assertEquals(LARGE_PUT_BYTES, new OneSidedEnds(origin).await(1, TIMEOUT_NS, EventType.PUT_DONE).bytes());
            assertEquals(-1, memory.asSlice(PUT_OFFSET, LARGE_PUT_BYTES).mismatch(source), "the put's bytes");
            final long frames = origin.counters().get(Counter.FRAMES_SENT_PUT);
            final String seen = "origin: " + frames + " PUT frames sent, " +
                origin.counters().get(Counter.REMOTE_WRITES_RESENT) + " resends, " +
                origin.counters().get(Counter.DROPPED_LOSS_INJECTED_RX) + " acks dropped; relay: " +
                relay.duplicated() + " sent twice, " + relay.swapped() + " swapped";
            assertTrue(origin.counters().get(Counter.DROPPED_LOSS_INJECTED_RX) > 0, seen);
            assertTrue(frames > 2 * RemoteOp.WINDOW_FRAMES, "more frames than two windows: " + seen);
        }
    }
}
