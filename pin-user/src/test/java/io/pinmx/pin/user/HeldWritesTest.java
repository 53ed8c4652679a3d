package io.pinmx.pin.user;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.spi.RemoteRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The origin's answer to NACK HELD (a target holding its region back for an access epoch, as pinmx.ko does), through
 * a {@link HoldingRelay} that answers for the target: a put of several frames, a fetch-and-add and a swap held for
 * longer than the resend limit and the shortest answer timeout together neither end nor fail while the target keeps
 * answering HELD, and once it lets them in they land exactly once; a held atomic whose target then falls silent
 * fails with TIMEOUT naming the hold, its word untouched.
 */
class HeldWritesTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long RESEND_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int MAX_RETRIES = 3;
    /** Past the point where an op without answers would have failed: every retry spent and the answer timeout. */
    private static final long HOLD_NS = RemoteWriter.MIN_ANSWER_TIMEOUT_NS + TimeUnit.SECONDS.toNanos(1);
    private static final int PUT_OFFSET = 4096;
    private static final int PUT_BYTES = 20_000;

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();
    private final PutSpec put = new PutSpec();
    private final AtomicSpec atomic = new AtomicSpec();
    private DriverEndpoint target;
    private DriverEndpoint origin;
    private HoldingRelay relay;
    private MemorySegment memory;
    private OneSidedEnds ends;

    @BeforeEach
    void open() throws IOException
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withSameHost(false)
            .withPullResend(RESEND_NS, MAX_RETRIES);
        target = resources.open(options);
        origin = resources.open(options);
        relay = new HoldingRelay(origin.address().board().endpointSocketAddress(0),
            target.address().board().endpointSocketAddress(0));
        memory = arena.allocate(PUT_OFFSET + PUT_BYTES, 4096);
        final RemoteRegion region = target.declareRemoteRegion(new MemorySegment[] {memory}, 1);
        final int peer = origin.acquirePeer(BoardAddress.udp(InetAddress.getLoopbackAddress(), relay.port()));
        put.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
        atomic.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
        ends = new OneSidedEnds(origin);
    }

    @AfterEach
    void close() throws IOException
    {
        relay.close();
        resources.close();
        arena.close();
    }

    @Test
    void heldPutsAndAtomicsWaitPastTheirRetryLimitAndLandOnceWhenLetIn()
    {
        memory.set(ValueLayout.JAVA_LONG, 0, 41);
        memory.set(ValueLayout.JAVA_LONG, 8, 7);
        final MemorySegment source = arena.allocate(PUT_BYTES, 8);
        Patterns.fill(source, 5);
        final int local = origin.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);
        relay.state(HoldingRelay.State.HOLDING);
        origin.startPut(put.source(local, 1).contiguous(PUT_OFFSET, 0, PUT_BYTES));
        origin.startAtomic(atomic.word(AtomicOp.FETCH_ADD, 8, 0, 1, 0, 2));
        origin.startAtomic(atomic.word(AtomicOp.SWAP, 8, 8, 99, 0, 3));

        final long until = System.nanoTime() + HOLD_NS;
        while (System.nanoTime() - until < 0)
        {
            origin.await(RESEND_NS);
            origin.poll((DriverEvent e) ->
            {
                throw new AssertionError("handle " + e.pullHandle() + " ended while its target held it back: " +
                    e.type() + " " + e.error() + " " + e.errorMessage());
            }, 16);
        }
        final String seen = relay.heldNacks() + " NACK HELD, " + origin.counters().get(Counter.REMOTE_WRITES_RESENT) +
            " resends";
        assertTrue(origin.counters().get(Counter.REMOTE_WRITES_RESENT) > 3 * (MAX_RETRIES + 1),
            "each op went on resending past its retry limit: " + seen);
        assertEquals(41, memory.get(ValueLayout.JAVA_LONG, 0), "nothing landed while held: " + seen);
        assertEquals(0, target.counters().get(Counter.ATOMICS_APPLIED));

        relay.state(HoldingRelay.State.PASSING);
        assertEquals(PUT_BYTES, ends.await(1, TIMEOUT_NS, EventType.PUT_DONE).bytes());
        assertEquals(41, ends.await(2, TIMEOUT_NS, EventType.ATOMIC_DONE).oldValue());
        assertEquals(7, ends.await(3, TIMEOUT_NS, EventType.ATOMIC_DONE).oldValue());
        assertEquals(-1, memory.asSlice(PUT_OFFSET, PUT_BYTES).mismatch(source), "the put's bytes");
        assertEquals(42, memory.get(ValueLayout.JAVA_LONG, 0), "added once");
        assertEquals(99, memory.get(ValueLayout.JAVA_LONG, 8));
        assertEquals(2, target.counters().get(Counter.ATOMICS_APPLIED));
    }

    @Test
    void aHeldAtomicWhoseTargetFallsSilentTimesOutNamingTheHold()
    {
        memory.set(ValueLayout.JAVA_LONG, 64, 5);
        relay.state(HoldingRelay.State.HOLDING);
        origin.startAtomic(atomic.word(AtomicOp.FETCH_ADD, 8, 64, 1, 0, 1));
        await().atMost(Duration.ofSeconds(30)).until(() -> relay.heldNacks() > MAX_RETRIES);
        relay.state(HoldingRelay.State.SILENT);
        final OneSidedEnds.End end = ends.await(1, TIMEOUT_NS, EventType.ATOMIC_FAILED);
        assertEquals(DriverError.TIMEOUT, end.error(), end.toString());
        assertTrue(end.message().contains("NACK HELD"), end.message());
        assertEquals(5, memory.get(ValueLayout.JAVA_LONG, 64), "the word is untouched");
    }
}
