package io.pinmx.kerneltests;

import io.pinmx.pin.kernel.KernelCounter;
import io.pinmx.pin.kernel.KernelDriver;
import io.pinmx.pin.kernel.KernelDriverOptions;
import io.pinmx.pin.kernel.KernelDriverProvider;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.select.DriverSelector;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverProvider;
import io.pinmx.pin.wire.EagerFrame;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.MediumFragFrame;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.pinmx.kerneltests.Patterns.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel provider on its own, over {@code lo}: two endpoints of this process exchange frames through
 * pinmx.ko, and every failure the provider reports names its cause and errno. Skipped where /dev/pinmx is not
 * usable; the pull tests also where the module has no pull engine.
 */
class KernelEndpointTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final Arena arena = Arena.ofShared();
    private KernelDriver driver;
    private KernelEndpoint a;
    private KernelEndpoint b;
    private int aToB;

    @BeforeEach
    void open()
    {
        driver = KernelDevices.requireDevice();
        a = (KernelEndpoint)driver.open(KernelDevices.config(1));
        b = (KernelEndpoint)driver.open(KernelDevices.config(2));
        aToB = a.acquirePeer(b.address().board());
    }

    @AfterEach
    void close()
    {
        if (null != a)
        {
            a.close();
            b.close();
        }
        arena.close();
    }

    /** What a test keeps of a received event, copied out of the ring slot during the call. */
    private record Received(EventType type, int peer, byte[] frame, long ringBytes, int pullHandle, long bytes,
        DriverError error, String message)
    {
    }

    private static List<Received> pollUntil(final KernelEndpoint endpoint, final int count)
    {
        final List<Received> received = new ArrayList<>();
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (received.size() < count && System.nanoTime() - deadlineNs < 0)
        {
            endpoint.await(deadlineNs - System.nanoTime());
            endpoint.poll((DriverEvent e) -> received.add(new Received(e.type(), e.peerIndex(),
                e.frame().toArray(ValueLayout.JAVA_BYTE), e.buffer().byteSize(), e.pullHandle(), e.bytes(), e.error(),
                e.errorMessage().toString())), 16);
        }
        assertEquals(count, received.size(), "events received within the deadline: " + received);
        return received;
    }

    private MemorySegment eagerHeader(final FrameKind kind, final int dstSession, final int payload, final long match)
    {
        final MemorySegment header = arena.allocate(kind.headerBytes());
        new FrameFlyweight().wrap(header, 0).encodeHeader(kind, b.address().endpointIndex(),
            a.address().endpointIndex(), dstSession, a.address().sessionId(), 7, payload);
        if (kind == FrameKind.MEDIUM_FRAG)
        {
            new MediumFragFrame().wrap(header, 0).encode(match, payload, 0, 0, 1, 7);
        }
        else
        {
            new EagerFrame().wrap(header, 0).encode(match, payload);
        }
        return header;
    }

    @Test
    void eagerFramesArriveAndAreHandedOverInPlaceInTheMappedRing()
    {
        assertEquals("kernel", a.info().providerName());
        assertTrue(a.info().pinsMemory());
        assertTrue(a.info().chosenBecause().contains("chosen because test: /dev/pinmx speaks pinmx ABI version " + PinmxAbi.ABI_VERSION),
            a.info().chosenBecause());
        assertEquals(PinmxAbi.MXOE_MAX_BYTES - FrameKind.MEDIUM_FRAG.headerBytes(), a.info().mediumFragPayloadBytes());
        final int medium = a.info().mediumFragPayloadBytes();
        final FrameKind[] kinds = {FrameKind.TINY, FrameKind.SMALL, FrameKind.MEDIUM_FRAG};
        final int[] sizes = {32, 128, medium};
        for (int i = 0; i < kinds.length; i++)
        {
            a.send(aToB, eagerHeader(kinds[i], b.address().sessionId(), sizes[i], i), pattern(arena, sizes[i], i));
        }
        final List<Received> received = pollUntil(b, kinds.length);
        for (int i = 0; i < kinds.length; i++)
        {
            final Received r = received.get(i);
            assertEquals(EventType.received(kinds[i]), r.type());
            assertEquals(a.address().board(), b.peer(r.peer()), "the event's peer is the sender's board");
            assertEquals(PinmxAbi.RING_BYTES, r.ringBytes(), "the frame is read where it lies in the mapped ring");
            assertEquals(kinds[i].headerBytes() + sizes[i], r.frame().length, "frame length without padding");
            final byte[] payload = new byte[sizes[i]];
            System.arraycopy(r.frame(), kinds[i].headerBytes(), payload, 0, sizes[i]);
            assertArrayEquals(pattern(arena, sizes[i], i).toArray(ValueLayout.JAVA_BYTE), payload,
                kinds[i] + " payload");
            assertEquals(1, b.counters().get(Counter.received(kinds[i])));
            assertEquals(1, a.counters().get(Counter.sent(kinds[i])));
        }
    }

    /**
     * Send and receive allocate nothing per frame: the ioctl arguments live in per-thread native scratch and the
     * received frame is handed over in its ring slot. After one warm-up pass every pass counts: a one-off (class
     * loading, a compilation) may show in one pass, but an allocation every few thousand frames shows in several.
     */
    @Test
    void sendingAndPollingAllocateNothingPerFrame()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final MemorySegment header = eagerHeader(FrameKind.SMALL, b.address().sessionId(), 100, 1);
        final MemorySegment payload = pattern(arena, 100, 1);
        final long[] received = new long[1];
        final io.pinmx.pin.spi.EventHandler handler = e -> received[0] += e.frameLength();
        final int frames = 2_000;
        final int passes = 8;
        final long[] allocated = new long[passes];
        for (int pass = -1; pass < passes; pass++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < frames; i++)
            {
                a.send(aToB, header, payload);
                while (b.poll(handler, 8) == 0)
                {
                    Thread.onSpinWait();
                }
            }
            final long bytes = threads.getCurrentThreadAllocatedBytes() - before;
            if (pass >= 0)
            {
                allocated[pass] = bytes;
            }
        }
        assertEquals((passes + 1L) * frames * (FrameKind.SMALL.headerBytes() + 100), received[0]);
        final long passesAllocating = java.util.Arrays.stream(allocated).filter(bytes -> bytes > 0).count();
        assertTrue(passesAllocating <= 1 && java.util.Arrays.stream(allocated).sum() < 1024,
            "bytes allocated per pass of " + frames + " sends and receives: " + java.util.Arrays.toString(allocated));
    }

    /** A started pull whose end event was not polled before close is counted as abandoned, not as failed. */
    @Test
    void aPullUnfinishedAtCloseIsCountedAsAbandoned()
    {
        KernelDevices.requirePulls(a);
        final int remote = b.declareRegion(new MemorySegment[]{pattern(arena, 1 << 20, 3)}, 1, RegionAccess.READ);
        final int local = a.declareRegion(new MemorySegment[]{arena.allocate(1 << 20)}, 1, RegionAccess.WRITE);
        a.startPull(pullFromB(remote, local, 1 << 20, 9));
        a.close();
        assertEquals(1, a.counters().get(Counter.PULLS_STARTED));
        assertEquals(1, a.counters().get(Counter.PULLS_ABANDONED));
        assertEquals(0, a.counters().get(Counter.PULLS_FAILED));
        assertEquals(0, a.counters().get(Counter.PULLS_DONE));
    }

    @Test
    void framesForAnotherSessionAreDroppedAndCountedByTheModule()
    {
        final long[] before = a.moduleCounters(new long[PinmxAbi.COUNTERS_MAX]);
        a.send(aToB, eagerHeader(FrameKind.TINY, b.address().sessionId() + 1, 4, 1), pattern(arena, 4, 1));
        a.send(aToB, eagerHeader(FrameKind.TINY, b.address().sessionId(), 4, 2), pattern(arena, 4, 2));
        final List<Received> received = pollUntil(b, 1);
        assertEquals(EventType.RECV_TINY, received.getFirst().type(), "only the frame with the right session");
        final long[] after = a.moduleCounters(new long[PinmxAbi.COUNTERS_MAX]);
        final int wrongSession = KernelCounter.RX_WRONG_SESSION.ordinal();
        assertEquals(1, after[wrongSession] - before[wrongSession], "PINMX_CNT_RX_WRONG_SESSION");
        final Received nack = pollUntil(a, 1).getFirst();
        assertEquals(EventType.RECV_NACK, nack.type(), "the module answers a wrong session with a NACK");
        assertEquals(NackReason.BAD_SESSION, new NackFrame().wrap(MemorySegment.ofArray(nack.frame()), 0).reason());
    }

    @Test
    void awaitSleepsUntilAFrameArrivesOrTheTimeoutPasses() throws InterruptedException
    {
        final long startNs = System.nanoTime();
        assertFalse(b.await(TimeUnit.MILLISECONDS.toNanos(200)));
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(200), "waited the whole timeout");
        final Thread sender = Thread.ofPlatform().start(() ->
            a.send(aToB, eagerHeader(FrameKind.TINY, b.address().sessionId(), 1, 1), pattern(arena, 1, 1)));
        assertTrue(b.await(TIMEOUT_NS), "woken by the frame");
        assertEquals(1, b.poll(e -> { }, 8));
        assertTrue(sender.join(java.time.Duration.ofNanos(TIMEOUT_NS)));
    }

    @Test
    void theProviderChoiceFollowsTheModulesAbiVersion()
    {
        final PinDriver chosen = DriverSelector.select(null, null, List.of(new UserDriverProvider(),
            new KernelDriverProvider(KernelDriverOptions.DEFAULT_DEVICE, PinmxAbi.ABI_VERSION)));
        assertInstanceOf(KernelDriver.class, chosen);
        assertTrue(chosen.info().chosenBecause().contains("chosen because /dev/pinmx speaks pinmx ABI version " + PinmxAbi.ABI_VERSION),
            chosen.info().chosenBecause());
        final PinDriver mismatched = DriverSelector.select(null, null, List.of(new UserDriverProvider(),
            new KernelDriverProvider(KernelDriverOptions.DEFAULT_DEVICE, PinmxAbi.ABI_VERSION + 1)));
        assertInstanceOf(UserDriver.class, mismatched);
        assertTrue(mismatched.info().chosenBecause().contains("/dev/pinmx speaks pinmx ABI version " + PinmxAbi.ABI_VERSION +
            ", this library speaks version " + (PinmxAbi.ABI_VERSION + 1)), mismatched.info().chosenBecause());
    }

    @Test
    void aWrongAbiVersionIsRefusedNamingBothVersionsAndTheErrno()
    {
        final DriverException e = assertThrows(DriverException.class, () -> driver.open(KernelDevices.config(3,
            KernelDriverOptions.defaults().withAbiVersion(PinmxAbi.ABI_VERSION + 1))));
        assertEquals(93, e.errno(), e.getMessage());
        assertTrue(e.getMessage().contains("PINMX_IOC_HELLO on /dev/pinmx: the module speaks ABI version " +
            PinmxAbi.ABI_VERSION + ", this library asked for " + (PinmxAbi.ABI_VERSION + 1) + ": EPROTONOSUPPORT"), e.getMessage());
    }

    @Test
    void anEndpointIndexInUseIsRefusedNamingIt()
    {
        final DriverException e = assertThrows(DriverException.class, () -> driver.open(KernelDevices.config(2)));
        assertEquals(DriverError.NO_RESOURCES, e.kind());
        assertTrue(e.getMessage().contains("interface lo endpoint index 2 is held by another endpoint: EADDRINUSE"),
            e.getMessage());
    }

    @Test
    void aClosedEndpointRefusesEveryOperationNamingTheDevice()
    {
        final MemorySegment buffer = pattern(arena, 64, 1);
        final MemorySegment header = eagerHeader(FrameKind.TINY, b.address().sessionId(), 4, 1);
        a.close();
        a.close();
        final List<DriverException> refusals = List.of(
            assertThrows(DriverException.class, () -> a.send(aToB, header, buffer.asSlice(0, 4))),
            assertThrows(DriverException.class, () -> a.poll(e -> { }, 1)),
            assertThrows(DriverException.class, () -> a.await(1)),
            assertThrows(DriverException.class, () -> a.declareRegion(new MemorySegment[]{buffer}, 1, RegionAccess.READ)),
            assertThrows(DriverException.class, () -> a.destroyRegion(1)));
        for (final DriverException e : refusals)
        {
            assertEquals(DriverError.ENDPOINT_CLOSED, e.kind(), e.getMessage());
            assertEquals(9, e.errno(), e.getMessage());
            assertTrue(e.getMessage().contains("(/dev/pinmx) is closed: EBADF"), e.getMessage());
        }
        assertEquals(0, a.counters().get(Counter.sent(FrameKind.TINY)), "counters stay readable");
        assertEquals("kernel", a.info().providerName());
    }

    @Test
    void closingFromInsideAnEventHandlerIsRefusedInsteadOfDeadlocking()
    {
        a.send(aToB, eagerHeader(FrameKind.TINY, b.address().sessionId(), 1, 1), pattern(arena, 1, 1));
        final List<DriverException> refused = new ArrayList<>();
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (refused.isEmpty() && System.nanoTime() - deadlineNs < 0)
        {
            b.await(deadlineNs - System.nanoTime());
            b.poll(e -> refused.add(assertThrows(DriverException.class, b::close)), 1);
        }
        assertEquals(1, refused.size(), "an event arrived");
        assertTrue(refused.getFirst().getMessage().contains("from inside its own event handler"),
            refused.getFirst().getMessage());
        b.close();
        assertThrows(DriverException.class, () -> b.poll(e -> { }, 1), "closed after poll returned");
    }

    @Test
    void regionsAreDeclaredWithoutTouchingPagesAndBadSegmentsNameTheErrno()
    {
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(4096);
        final int id = a.declareRegion(new MemorySegment[]{pattern(arena, 100, 1), unmapped}, 2, RegionAccess.READ);
        assertTrue(id >= 1, "region id " + id);
        a.destroyRegion(id);
        final DriverException gone = assertThrows(DriverException.class, () -> a.destroyRegion(id));
        assertEquals(DriverError.UNKNOWN_REGION, gone.kind());
        assertEquals(2, gone.errno());
        assertTrue(gone.getMessage().contains("region " + id + " is not declared"), gone.getMessage());

        final MemorySegment nullSegment = MemorySegment.ofAddress(0).reinterpret(4096);
        final DriverException fault = assertThrows(DriverException.class,
            () -> a.declareRegion(new MemorySegment[]{nullSegment}, 1, RegionAccess.READ));
        assertEquals(DriverError.SEGMENT_FAULT, fault.kind());
        assertEquals(14, fault.errno());
        assertTrue(fault.getMessage().contains("PINMX_IOC_DECLARE on /dev/pinmx (1 segments, first at 0x0, READ) " +
            "failed: EFAULT"), fault.getMessage());
    }

    /** Reopens {@code a} so its pulls go as frames ({@code onWire}) or as the module's same-interface copy. */
    private void reopenPuller(final boolean onWire, final int pinMode)
    {
        a.close();
        a = (KernelEndpoint)driver.open(KernelDevices.config(1,
            KernelDriverOptions.defaults().withPullsOnWire(onWire).withPinMode(pinMode)));
        aToB = a.acquirePeer(b.address().board());
    }

    private PullSpec pullFromB(final int remote, final int local, final int length, final int handle)
    {
        return new PullSpec().peerIndex(aToB).remoteEndpointIndex(b.address().endpointIndex())
            .remoteSessionId(b.address().sessionId()).remoteRegionId(remote).localRegionId(local).length(length)
            .pullHandle(handle);
    }

    @ParameterizedTest(name = "on the wire: {0}")
    @ValueSource(booleans = {false, true})
    void aPullCopiesARemoteRegionAndReportsDoneWithTheCallersHandle(final boolean onWire)
    {
        KernelDevices.requirePulls(a);
        reopenPuller(onWire, -1);
        final int length = 300_000;
        final MemorySegment source = pattern(arena, length, 5);
        final MemorySegment target = arena.allocate(length);
        final long[] before = a.moduleCounters(new long[PinmxAbi.COUNTERS_MAX]);
        final int remote = b.declareRegion(new MemorySegment[]{source}, 1, RegionAccess.READ);
        final int local = a.declareRegion(new MemorySegment[]{target}, 1, RegionAccess.WRITE);
        a.startPull(pullFromB(remote, local, length, 0x1234));
        final Received done = pollUntil(a, 1).getFirst();
        assertEquals(EventType.PULL_DONE, done.type(), done.message());
        assertEquals(0x1234, done.pullHandle());
        assertEquals(length, done.bytes());
        assertEquals(-1, source.mismatch(target), "pulled bytes equal the source");
        final long[] after = a.moduleCounters(new long[PinmxAbi.COUNTERS_MAX]);
        final int replies = KernelCounter.PULL_REPLIES_RECEIVED.ordinal();
        final int copies = KernelCounter.PULLS_LOCAL.ordinal();
        assertEquals(onWire ? 0 : 1, after[copies] - before[copies], "same-interface copies");
        assertTrue(onWire == after[replies] - before[replies] >= length / a.info().pullReplyPayloadBytes(),
            "PULL_REPLY frames written: " + (after[replies] - before[replies]));
        assertEquals(1, a.counters().get(Counter.PULLS_DONE));
        assertEquals(length, a.counters().get(Counter.PULL_BYTES));
    }

    @ParameterizedTest(name = "on the wire: {0}")
    @ValueSource(booleans = {false, true})
    void aPullFromAnUnmappedRemoteSegmentFailsNamingTheRemoteSide(final boolean onWire)
    {
        KernelDevices.requirePulls(a);
        reopenPuller(onWire, -1);
        final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(4096);
        final int remote =
            b.declareRegion(new MemorySegment[]{pattern(arena, 4096, 1), unmapped}, 2, RegionAccess.READ);
        final int local = a.declareRegion(new MemorySegment[]{arena.allocate(8192)}, 1, RegionAccess.WRITE);
        a.startPull(pullFromB(remote, local, 8192, 7));
        final Received failed = pollUntil(a, 1).getFirst();
        assertEquals(EventType.PULL_FAILED, failed.type());
        assertEquals(7, failed.pullHandle());
        assertEquals(DriverError.SEGMENT_FAULT, failed.error(), failed.message());
        assertTrue(failed.message().contains("EFAULT"), failed.message());
        assertTrue(failed.message().contains("remote region segment 1 at 0x10000"), failed.message());
        assertEquals(1, a.counters().get(Counter.PULLS_FAILED));
    }

    /** An on-demand local range is pinned before anything is sent, on either path, so the pull fails in the ioctl. */
    @ParameterizedTest(name = "on the wire: {0}")
    @ValueSource(booleans = {false, true})
    void aPullIntoAnUnmappedLocalSegmentFailsNamingTheLocalRegion(final boolean onWire)
    {
        KernelDevices.requirePulls(a);
        reopenPuller(onWire, PinmxAbi.PIN_ON_DEMAND);
        final int remote = b.declareRegion(new MemorySegment[]{pattern(arena, 4096, 1)}, 1, RegionAccess.READ);
        final int local = a.declareRegion(new MemorySegment[]{MemorySegment.ofAddress(0x10000).reinterpret(4096)}, 1,
            RegionAccess.WRITE);
        final DriverException e = assertThrows(DriverException.class,
            () -> a.startPull(pullFromB(remote, local, 4096, 9)));
        assertEquals(DriverError.SEGMENT_FAULT, e.kind(), e.getMessage());
        assertEquals(14, e.errno());
        assertTrue(e.getMessage().contains("local region " + local + " has a page that cannot be pinned: EFAULT"),
            e.getMessage());
        assertEquals(0, a.counters().get(Counter.PULLS_STARTED));
    }

    @Test
    void aPullFromAnUnknownRemoteRegionOrPastItsEndFailsSaying()
    {
        KernelDevices.requirePulls(a);
        reopenPuller(true, -1);
        final int remote = b.declareRegion(new MemorySegment[]{pattern(arena, 4096, 1)}, 1, RegionAccess.READ);
        final int local = a.declareRegion(new MemorySegment[]{arena.allocate(8192)}, 1, RegionAccess.WRITE);
        a.startPull(pullFromB(remote + 100, local, 4096, 1));
        final Received unknown = pollUntil(a, 1).getFirst();
        assertEquals(DriverError.UNKNOWN_REGION, unknown.error(), unknown.message());
        assertTrue(unknown.message().contains("the remote region id is unknown to the peer"), unknown.message());
        a.startPull(pullFromB(remote, local, 8192, 2));
        final Received past = pollUntil(a, 1).getFirst();
        assertEquals(DriverError.OUT_OF_RANGE, past.error(), past.message());
        final DriverException localPast = assertThrows(DriverException.class,
            () -> a.startPull(pullFromB(remote, local, 8193, 3)));
        assertEquals(DriverError.OUT_OF_RANGE, localPast.kind(), localPast.getMessage());
        assertTrue(localPast.getMessage().contains("reaches past the end of local region " + local + ": ERANGE"),
            localPast.getMessage());
    }
}
