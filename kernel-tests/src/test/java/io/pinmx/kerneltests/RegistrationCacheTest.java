package io.pinmx.kerneltests;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.EndpointOptions;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.kernel.KernelCounter;
import io.pinmx.pin.kernel.KernelEndpoint;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.provider.Libc;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Why the library's region cache needs no malloc hooks on the kernel provider: a buffer is sent, its memory is
 * unmapped (its arena closed) and new memory with new content is mapped at the same address; the next send of
 * the "same" buffer hits the cache (no second declaration), and the module, told by its MMU notifier, unpinned
 * the old pages and pins the new ones, so the receiver gets the new content.
 */
class RegistrationCacheTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int KEY = 0xCAC4E;
    private static final long BYTES = 256 * 1024;

    @Test
    void aBufferRemappedAtTheSameAddressHitsTheCacheAndTheModuleRepinsItsNewPages()
    {
        final DeclarationCountingDriver sender = new DeclarationCountingDriver(KernelDevices.requireDevice());
        final MemorySegment captureState = Libc.allocateCaptureState(Arena.global());
        try (Endpoint a = Endpoint.open(sender, options(1));
             Endpoint b = Endpoint.open(KernelDevices.requireDevice(), options(2));
             Arena receiveArena = Arena.ofShared())
        {
            final KernelEndpoint kernel = sender.lastOpened();
            KernelDevices.requirePulls(kernel);
            final Partner aToB = a.connect(b.address(), KEY, TIMEOUT);
            final MemorySegment in = receiveArena.allocate(BYTES);

            final long address = Libc.mmap(captureState, 0, BYTES, Libc.PROT_READ | Libc.PROT_WRITE,
                Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
            assertNotEquals(Libc.MAP_FAILED, address, "mmap: errno " + Libc.errno(captureState));
            final Arena first = Arena.ofShared();
            final MemorySegment buffer = MemorySegment.ofAddress(address).reinterpret(BYTES, first,
                s -> Libc.munmap(Libc.allocateCaptureState(Arena.ofAuto()), s.address(), BYTES));
            fill(buffer, 1);
            transfer(a, b, aToB, buffer, in);
            assertFilled(in, 1);
            assertEquals(1, sender.declarations(), "the first send declares its buffer");

            final long[] before = kernel.moduleCounters(new long[PinmxAbi.COUNTERS_MAX]);
            first.close();
            final long again = Libc.mmap(captureState, address, BYTES, Libc.PROT_READ | Libc.PROT_WRITE,
                Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS | Libc.MAP_FIXED, -1, 0);
            assertEquals(address, again, "mmap MAP_FIXED: errno " + Libc.errno(captureState));
            try (Arena second = Arena.ofShared())
            {
                final MemorySegment remapped = MemorySegment.ofAddress(address).reinterpret(BYTES, second,
                    s -> Libc.munmap(Libc.allocateCaptureState(Arena.ofAuto()), s.address(), BYTES));
                fill(remapped, 2);
                transfer(a, b, aToB, remapped, in);
                assertFilled(in, 2);
                assertEquals(1, sender.declarations(), "the second send hit the region cache");
                final long[] after = kernel.moduleCounters(new long[PinmxAbi.COUNTERS_MAX]);
                final long invalidations = delta(before, after, KernelCounter.INVALIDATIONS);
                final long pinned = delta(before, after, KernelCounter.PAGES_PINNED_TOTAL);
                assertTrue(invalidations >= 1, "the unmap invalidated the region: " + invalidations);
                assertTrue(pinned >= BYTES / 4096, "the new pages were pinned: " + pinned + " pages");
            }
        }
    }

    private static EndpointOptions options(final int index)
    {
        return EndpointOptions.builder().driverConfig(KernelDevices.config(index)).applicationKey(KEY).build();
    }

    private static void transfer(final Endpoint a, final Endpoint b, final Partner aToB, final MemorySegment out,
        final MemorySegment in)
    {
        final Request recv = b.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, in);
        final Request send = a.isend(aToB, 1, out);
        recv.awaitOrThrow(TIMEOUT);
        send.awaitOrThrow(TIMEOUT);
        recv.release();
        send.release();
    }

    private static long delta(final long[] before, final long[] after, final KernelCounter counter)
    {
        return after[counter.ordinal()] - before[counter.ordinal()];
    }

    private static void fill(final MemorySegment s, final int seed)
    {
        for (long i = 0; i < s.byteSize(); i += 8)
        {
            s.set(ValueLayout.JAVA_LONG, i, i * 31 + seed);
        }
    }

    private static void assertFilled(final MemorySegment s, final int seed)
    {
        for (long i = 0; i < s.byteSize(); i += 8)
        {
            if (s.get(ValueLayout.JAVA_LONG, i) != i * 31 + seed)
            {
                throw new AssertionError("long at " + i + " is not from fill " + seed);
            }
        }
    }
}
