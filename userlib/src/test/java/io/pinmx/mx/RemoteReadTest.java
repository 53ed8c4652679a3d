package io.pinmx.mx;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One-sided reads ({@link EndpointRegions#iget}) of a region another endpoint exposed, over the user driver's same-host
 * single copy and over its UDP frames: contiguous and many-piece reads land exactly, remote-contiguous pieces go as
 * one pull, heap destinations are staged, the exposing endpoint receives no message, and every refusal names its
 * cause: bad pieces, a range past the region, an unknown or closed region, a partner that is gone.
 */
class RemoteReadTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0x0EAD;
    private static final long REGION_BYTES = 1 << 18;
    private static final long RESEND_MS = 20;
    private static final int MAX_RESENDS = 24;

    private final Arena arena = Arena.ofShared();
    private Endpoint reader;
    private Endpoint owner;
    private Partner toOwner;
    private MemorySegment exposed;
    private ExposedRegion region;

    private void open(final boolean sameHost)
    {
        final UserDriverOptions driver = UserDriverOptions.defaults().withSameHost(sameHost);
        reader = TestEndpoints.open(TestEndpoints.options(1, KEY, driver)
            .resendTimeoutNs(TimeUnit.MILLISECONDS.toNanos(RESEND_MS)).maxResends(MAX_RESENDS).build());
        owner = TestEndpoints.open(TestEndpoints.options(2, KEY, driver).build());
        toOwner = reader.connect(owner.address(), KEY, TIMEOUT);
        exposed = arena.allocate(REGION_BYTES, 4096);
        for (long i = 0; i < REGION_BYTES; i++)
        {
            exposed.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 7 + (i >> 8)));
        }
        region = owner.regions().expose(exposed);
    }

    @AfterEach
    void close()
    {
        if (null != reader)
        {
            reader.close();
            owner.close();
        }
        arena.close();
    }

    private long pulls()
    {
        return reader.counters().driver().get(Counter.PULLS_STARTED);
    }

    private void assertReadOf(final MemorySegment got, final long remoteOffset)
    {
        assertEquals(-1, got.mismatch(exposed.asSlice(remoteOffset, got.byteSize())),
            got.byteSize() + " bytes read at " + remoteOffset);
    }

    @ParameterizedTest(name = "same host {0}")
    @ValueSource(booleans = {true, false})
    void readsLandExactlyWithoutTheOwnerReceivingAnything(final boolean sameHost)
    {
        open(sameHost);
        for (final long size : new long[] {1, 8, 1500, 64 * 1024 + 3, REGION_BYTES - 100})
        {
            final MemorySegment into = arena.allocate(size);
            final Request r = reader.regions().iget(toOwner, region.id(), 100, into);
            assertEquals(size, r.awaitOrThrow(TIMEOUT).bytesTransferred());
            r.release();
            assertReadOf(into, 100);
        }
        // Pieces 0-1 and 3-4 are contiguous in the region, piece 2 is empty: 2 pulls for 5 pieces, filling a
        // 2-segment vector in order.
        final long[] offsets = {4096, 4096 + 10, 9000, 20_000, 20_000 + 33};
        final long[] lengths = {10, 20, 0, 33, 7};
        final MemorySegment first = arena.allocate(25);
        final MemorySegment second = arena.allocate(45);
        final long pullsBefore = pulls();
        final Request r = reader.regions().iget(toOwner, region.id(), offsets, lengths, offsets.length,
            new MemorySegment[] {first, second}, 2);
        assertEquals(70, r.awaitOrThrow(TIMEOUT).bytesTransferred());
        r.release();
        assertEquals(2, pulls() - pullsBefore, "remote-contiguous pieces pulled together");
        assertReadOf(first.asSlice(0, 25), 4096);
        assertReadOf(second.asSlice(0, 5), 4096 + 25);
        assertReadOf(second.asSlice(5, 33), 20_000);
        assertReadOf(second.asSlice(38, 7), 20_033);
        // A heap destination is staged and copied in.
        final byte[] heap = new byte[3000];
        final Request h = reader.regions().iget(toOwner, region.id(), 777, MemorySegment.ofArray(heap));
        h.awaitOrThrow(TIMEOUT);
        h.release();
        assertReadOf(MemorySegment.ofArray(heap), 777);
        // Nothing to read completes at once, without a pull.
        final long beforeEmpty = pulls();
        final Request empty = reader.regions().iget(toOwner, region.id(), 5, arena.allocate(0));
        assertEquals(RequestState.COMPLETED, empty.state());
        empty.release();
        assertEquals(beforeEmpty, pulls());
        assertEquals(0, owner.counters().unexpectedMessages(), "the owner received no message");
        assertEquals(0, owner.counters().driver().get(Counter.PULLS_STARTED), "the owner started nothing");
    }

    @ParameterizedTest(name = "same host {0}")
    @ValueSource(booleans = {true, false})
    void refusalsNameTheirCause(final boolean sameHost)
    {
        open(sameHost);
        final MemorySegment eight = arena.allocate(8);
        assertRefused("remote offset -1", () -> reader.regions().iget(toOwner, region.id(), -1, eight));
        assertRefused("read of 16 bytes in 2 pieces into a destination of 8 bytes", () -> reader.regions().iget(toOwner,
            region.id(), new long[] {0, 8}, new long[] {8, 8}, 2, new MemorySegment[] {eight}, 1));
        assertRefused("only non-empty native memory", () -> owner.regions().expose(MemorySegment.ofArray(new byte[8])));
        assertFails(reader.regions().iget(toOwner, region.id(), REGION_BYTES - 4, eight), "OUT_OF_RANGE");
        assertFails(reader.regions().iget(toOwner, region.id() + 1, 0, eight), "UNKNOWN_REGION");
        region.close();
        assertFails(reader.regions().iget(toOwner, region.id(), 0, eight), "UNKNOWN_REGION");
        region.close();
        // The endpoint still reads a region exposed afterwards.
        final ExposedRegion again = owner.regions().expose(exposed);
        final Request ok = reader.regions().iget(toOwner, again.id(), 16, eight);
        ok.awaitOrThrow(TIMEOUT);
        ok.release();
        assertReadOf(eight, 16);
        owner.close();
        final String failure = readOfClosedOwner(again.id(), eight);
        assertTrue(failure.contains(toOwner.describe()), failure);
    }

    @Test
    void aReadPullingFromAnOwnerThatClosesFailsWithinThePeerTimeoutAndLeavesItsBufferAlone()
    {
        final UserDriverOptions udp = UserDriverOptions.defaults().withSameHost(false);
        reader = TestEndpoints.open(TestEndpoints.options(1, KEY, udp)
            .resendTimeoutNs(TimeUnit.MILLISECONDS.toNanos(RESEND_MS)).maxResends(MAX_RESENDS).build());
        // an owner that serves pulls only while polled: the read's requests wait there until it closes
        owner = TestEndpoints.open(TestEndpoints.options(2, KEY, udp.withProgressThread(false).withResponder(false))
            .progressMode(ProgressMode.CALLER).build());
        toOwner = TestEndpoints.connectPolling(reader, owner, KEY, TIMEOUT);
        region = owner.regions().expose(arena.allocate(REGION_BYTES, 4096));
        final MemorySegment into = arena.allocate(REGION_BYTES, 4096);
        into.fill((byte)0x5A);
        final Request read = reader.regions().iget(toOwner, region.id(), 0, into);
        await().atMost(TIMEOUT)
            .until(() -> reader.counters().driver().get(Counter.FRAMES_SENT_PULL) > 0);
        final long closedAtNs = System.nanoTime();
        owner.close();
        assertTrue(read.await(TIMEOUT), "read of a closed owner ended");
        final long tookMs = (System.nanoTime() - closedAtNs) / 1_000_000;
        final long limitMs = 3 * RESEND_MS * (MAX_RESENDS + 1);
        assertTrue(tookMs <= limitMs, "read of a closed owner failed after " + tookMs + " ms, limit " + limitMs);
        assertEquals(RequestState.FAILED, read.state(), read.toString());
        assertTrue(read.status().error().contains(toOwner.describe()), read.status().error());
        read.release();
        assertEquals(-1, into.mismatch(arena.allocate(REGION_BYTES).fill((byte)0x5A)), "nothing landed in the buffer");
    }

    /**
     * The owner's goodbye may fail the partner before the read is posted (refused) or after: then the read fails once
     * the driver's pull of it ends, never before, so no late reply lands in a released buffer; the library cancels
     * that pull, so this comes within the peer timeout (with slack for load), not at the pull's own timeout.
     */
    private String readOfClosedOwner(final int regionId, final MemorySegment into)
    {
        final Request gone;
        try
        {
            gone = reader.regions().iget(toOwner, regionId, 0, into);
        }
        catch (final MxException refused)
        {
            return refused.getMessage();
        }
        final long postedAtNs = System.nanoTime();
        assertTrue(gone.await(TIMEOUT), "read of a closed endpoint ended");
        final long tookMs = (System.nanoTime() - postedAtNs) / 1_000_000;
        final long limitMs = 3 * RESEND_MS * (MAX_RESENDS + 1);
        assertTrue(tookMs <= limitMs, "read of a closed endpoint failed after " + tookMs + " ms, limit " + limitMs);
        assertEquals(RequestState.FAILED, gone.state(), gone.toString());
        final String error = gone.status().error();
        gone.release();
        return error;
    }

    private static void assertRefused(final String text, final Executable call)
    {
        final String message = assertThrows(IllegalArgumentException.class, call).getMessage();
        assertTrue(message.contains(text), message);
    }

    private static void assertFails(final Request r, final String cause)
    {
        assertTrue(r.await(TIMEOUT), r + " ended");
        assertEquals(RequestState.FAILED, r.state(), r.toString());
        assertTrue(r.status().error().contains(cause) && r.status().error().contains("region"), r.status().error());
        r.release();
    }
}
