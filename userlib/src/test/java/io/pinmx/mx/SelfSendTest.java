package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.user.UserDriverOptions;
import io.pinmx.pin.wire.FrameKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An endpoint that sends to itself (an MPI rank sending to its own rank) over the user-space driver: every message
 * takes the same-host path (its own shared-memory ring, one process_vm_readv per rendezvous), never UDP, and
 * arrives intact.
 */
class SelfSendTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int KEY = 0x5E1F;
    private static final long[] SIZES = {0, 1, 32, 33, 128, 129, 8192, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1,
        1 << 20, 4 << 20};

    private final Arena arena = Arena.ofShared();
    private Endpoint endpoint;

    @AfterEach
    void close()
    {
        if (endpoint != null)
        {
            endpoint.close();
        }
        arena.close();
    }

    private Partner openSelf(final ProgressMode mode)
    {
        final UserDriverOptions driver = UserDriverOptions.defaults().withProgressThread(ProgressMode.THREAD == mode);
        endpoint = TestEndpoints.open(TestEndpoints.options(1, KEY, driver).progressMode(mode).ackDelayNs(0).build());
        return endpoint.connect(endpoint.address(), KEY, TIMEOUT);
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void everySizeClassReachesItselfByteExactOverSharedMemory(final ProgressMode mode)
    {
        final Partner self = openSelf(mode);
        int rendezvous = 0;
        for (final long size : SIZES)
        {
            for (final boolean receiveFirst : new boolean[] {true, false})
            {
                final long tag = size * 2 + (receiveFirst ? 1 : 0);
                final MemorySegment out = arena.allocate(Math.max(1, size)).asSlice(0, size);
                Patterns.fill(out, tag);
                final MemorySegment in = arena.allocate(Math.max(1, size)).asSlice(0, size);
                final Request recv;
                final Request send;
                if (receiveFirst)
                {
                    recv = endpoint.irecv(MatchInfo.ANY_SOURCE, tag, MatchInfo.MASK_ALL, in);
                    send = endpoint.isend(self, tag, out);
                }
                else
                {
                    send = endpoint.isend(self, tag, out);
                    recv = endpoint.irecv(MatchInfo.ANY_SOURCE, tag, MatchInfo.MASK_ALL, in);
                }
                final Status status = recv.awaitOrThrow(TIMEOUT);
                send.awaitOrThrow(TIMEOUT);
                assertEquals(size, status.bytesTransferred(), "size " + size);
                assertEquals(self.id(), status.source(), "size " + size);
                assertEquals(-1, Patterns.firstMismatch(in, size, tag), "size " + size);
                recv.release();
                send.release();
                rendezvous += size > 32 * 1024 ? 1 : 0;
            }
        }
        final DriverCounters counters = endpoint.counters().driver();
        assertEquals(rendezvous, counters.get(Counter.PULL_SINGLE_COPY), "every rendezvous one process_vm_readv");
        assertEquals(0, counters.get(Counter.FRAMES_SENT_PULL), "no pull by frames");
        assertEquals(frames(counters, true), counters.get(Counter.SHM_FRAMES_SENT), "every frame into the own ring");
        assertEquals(frames(counters, false), counters.get(Counter.SHM_FRAMES_RECEIVED), "every frame from it");
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void selfSendsBeyondTheRingsCapacityWaitAndArriveInOrder(final ProgressMode mode)
    {
        // 160 unexpected 32 KiB messages (5 MiB) into a 1 MiB ring before any receive is posted
        final Partner self = openSelf(mode);
        final int messages = 160;
        final long size = 32 * 1024;
        final MemorySegment out = arena.allocate(size * messages);
        final Request[] sends = new Request[messages];
        for (int i = 0; i < messages; i++)
        {
            final MemorySegment piece = out.asSlice(i * size, size);
            Patterns.fill(piece, i);
            sends[i] = endpoint.isend(self, 7, piece);
        }
        final MemorySegment in = arena.allocate(size);
        for (int i = 0; i < messages; i++)
        {
            endpoint.recv(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, in, new Status(), TIMEOUT);
            assertEquals(-1, Patterns.firstMismatch(in, size, i), "message " + i + " in order and intact");
        }
        for (final Request send : sends)
        {
            send.awaitOrThrow(TIMEOUT);
            send.release();
        }
        assertEquals(0, endpoint.counters().failedSends());
    }

    private static long frames(final DriverCounters counters, final boolean sent)
    {
        long frames = 0;
        for (final FrameKind kind : FrameKind.values())
        {
            frames += counters.get(sent ? Counter.sent(kind) : Counter.received(kind));
        }
        return frames;
    }
}
