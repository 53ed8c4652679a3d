package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.spi.RemoteRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Puts and atomics into target memory that cannot be written fail naming the region offset, write nothing, and never
 * crash the target's JVM (this one): a segment that is not mapped and a page made read-only with mprotect (on one host
 * a put fails on process_vm_writev's EFAULT at the origin; over UDP the target's agent answers NACK SEGMENT_FAULT; an
 * atomic is refused before its word is touched); the memory of a closed arena whose region is still declared (FFM
 * refuses the word: nothing lands in freed memory); and regions destroyed and unmapped while atomics stream at them
 * (destroyRegion returns only once the agent is out of the region, so the unmap never meets a word being applied).
 * On one host (atomics through the target's ring) and over UDP (the same-host path off).
 */
class RemoteWriteFaultTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long PAGE = 4096;
    private static final byte READ_ONLY_FILL = 0x5A;
    private static final int STREAM_ROUNDS = 200;
    private static final int STREAM_ATOMICS = 16;
    private static final MethodHandle MPROTECT = Linker.nativeLinker().downcallHandle(
        Linker.nativeLinker().defaultLookup().find("mprotect").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));

    private final OpenedEndpoints resources = new OpenedEndpoints();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment capture = Libc.allocateCaptureState(arena);
    private final PutSpec put = new PutSpec();
    private final AtomicSpec atomic = new AtomicSpec();
    private DriverEndpoint target;
    private DriverEndpoint origin;
    private OneSidedEnds ends;
    private int peer;
    private int handle;

    private void open(final String path)
    {
        final UserDriverOptions options = UserDriverOptions.defaults().withSameHost(path.equals("same host"));
        target = resources.open(options);
        origin = resources.open(options);
        ends = new OneSidedEnds(origin);
        peer = origin.acquirePeer(target.address().board());
    }

    @AfterEach
    void close()
    {
        resources.close();
        arena.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"same host", "udp"})
    void anUnmappedSegmentAndAReadOnlyPageFailPutsAndAtomicsNamingTheRegionOffset(final String path) throws Throwable
    {
        open(path);
        final long base = Libc.mmap(capture, 0, 3 * PAGE, Libc.PROT_READ | Libc.PROT_WRITE,
            Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        assertNotEquals(Libc.MAP_FAILED, base);
        try
        {
            final MemorySegment writable = MemorySegment.ofAddress(base).reinterpret(PAGE);
            final MemorySegment readOnly = MemorySegment.ofAddress(base + 2 * PAGE).reinterpret(PAGE);
            readOnly.fill(READ_ONLY_FILL);
            assertEquals(0, Libc.munmap(capture, base + PAGE, PAGE));
            assertEquals(0, (int)MPROTECT.invokeExact(base + 2 * PAGE, PAGE, Libc.PROT_READ));
            final RemoteRegion region = target.declareRemoteRegion(new MemorySegment[] {writable,
                MemorySegment.ofAddress(base + PAGE).reinterpret(PAGE), readOnly}, 3);
            put.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
            atomic.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
            final MemorySegment source = arena.allocate(PAGE, 8);
            Patterns.fill(source, 11);
            final int local = origin.declareRegion(new MemorySegment[] {source}, 1, RegionAccess.READ);

            expectFault(putAt(local, PAGE + 64, 100), EventType.PUT_FAILED, PAGE + 64);
            expectFault(putAt(local, 2 * PAGE + 64, 100), EventType.PUT_FAILED, 2 * PAGE + 64);
            expectFault(fetchAdd(PAGE + 8), EventType.ATOMIC_FAILED, PAGE + 8);
            expectFault(fetchAdd(2 * PAGE + 128), EventType.ATOMIC_FAILED, 2 * PAGE + 128);
            for (long i = 0; i < PAGE; i++)
            {
                assertEquals(READ_ONLY_FILL, readOnly.get(ValueLayout.JAVA_BYTE, i), "read-only byte " + i);
            }
            assertEquals(0, target.counters().get(Counter.ATOMICS_APPLIED), "no atomic applied");

            ends.await(putAt(local, 64, 100), TIMEOUT_NS, EventType.PUT_DONE);
            assertEquals(-1, writable.asSlice(64, 100).mismatch(source.asSlice(0, 100)), "the mapped page's put");
            writable.set(ValueLayout.JAVA_LONG, 256, 41);
            assertEquals(41, ends.await(fetchAdd(256), TIMEOUT_NS, EventType.ATOMIC_DONE).oldValue());
            assertEquals(42, writable.get(ValueLayout.JAVA_LONG, 256), "the mapped page still takes atomics");
            if (path.equals("same host"))
            {
                assertEquals(0, origin.counters().get(Counter.FRAMES_SENT_PUT), "puts by process_vm_writev");
                assertTrue(origin.counters().get(Counter.SHM_FRAMES_SENT) >= 3, "atomics through the target's ring");
            }
        }
        finally
        {
            Libc.munmap(capture, base, 3 * PAGE);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"same host", "udp"})
    void anAtomicIntoTheMemoryOfAClosedArenaIsRefusedNotAppliedToFreedMemory(final String path)
    {
        open(path);
        final Arena closing = Arena.ofShared();
        final MemorySegment memory = closing.allocate(512, 8);
        final RemoteRegion region = target.declareRemoteRegion(new MemorySegment[] {memory}, 1);
        atomic.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
        assertEquals(0, ends.await(fetchAdd(128), TIMEOUT_NS, EventType.ATOMIC_DONE).oldValue());
        closing.close();
        expectFault(fetchAdd(128), EventType.ATOMIC_FAILED, 128);
        assertEquals(1, target.counters().get(Counter.ATOMICS_APPLIED), "only the atomic before the close");
        target.destroyRegion(region.regionId());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"same host", "udp"})
    void regionsDestroyedAndUnmappedUnderAStreamOfAtomicsNeverCrashTheTarget(final String path)
    {
        open(path);
        int applied = 0;
        int refused = 0;
        for (int round = 0; round < STREAM_ROUNDS; round++)
        {
            final long page = Libc.mmap(capture, 0, PAGE, Libc.PROT_READ | Libc.PROT_WRITE,
                Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
            assertNotEquals(Libc.MAP_FAILED, page);
            final RemoteRegion region = target.declareRemoteRegion(
                new MemorySegment[] {MemorySegment.ofAddress(page).reinterpret(PAGE)}, 1);
            atomic.target().set(peer, 0, target.address().sessionId(), region.regionId(), region.key());
            assertEquals(0, ends.await(fetchAdd(0), TIMEOUT_NS, EventType.ATOMIC_DONE).oldValue(), "round " + round);
            final int first = handle + 1;
            for (int i = 1; i <= STREAM_ATOMICS; i++)
            {
                fetchAdd(8L * i);
            }
            target.destroyRegion(region.regionId());
            assertEquals(0, Libc.munmap(capture, page, PAGE));
            for (int h = first; h <= handle; h++)
            {
                final OneSidedEnds.End end = ends.await(h, TIMEOUT_NS);
                if (end.done())
                {
                    assertEquals(0, end.oldValue(), end.toString());
                    applied++;
                }
                else
                {
                    assertEquals(DriverError.UNKNOWN_REGION, end.error(), end.toString());
                    refused++;
                }
            }
        }
        assertEquals(STREAM_ROUNDS * STREAM_ATOMICS, applied + refused, "applied " + applied + ", refused " + refused);
    }

    private int putAt(final int local, final long remoteOffset, final long bytes)
    {
        origin.startPut(put.source(local, ++handle).contiguous(remoteOffset, 0, bytes));
        return handle;
    }

    private int fetchAdd(final long remoteOffset)
    {
        origin.startAtomic(atomic.word(AtomicOp.FETCH_ADD, 8, remoteOffset, 1, 0, ++handle));
        return handle;
    }

    private void expectFault(final int started, final EventType type, final long regionOffset)
    {
        final OneSidedEnds.End end = ends.await(started, TIMEOUT_NS, type);
        assertEquals(DriverError.SEGMENT_FAULT, end.error(), end.toString());
        assertTrue(end.message().contains("region offset " + regionOffset), end.message());
    }
}
