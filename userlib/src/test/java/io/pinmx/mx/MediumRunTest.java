package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Medium messages over UDP go to the driver as runs of MEDIUM_FRAG frames (one offloaded send each in the user
 * driver), cut by the send window's room and refilled as acks come, and arrive intact in order, lost frames included.
 */
class MediumRunTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int KEY = 0x3A11;
    private static final int FRAGMENT_BYTES = 1024;
    private static final long[] SIZES = {FRAGMENT_BYTES + 1, 5000, 20_000, 32 * 1024};
    private static final int MESSAGES_PER_SIZE = 20;

    private final Arena arena = Arena.ofShared();
    private final List<Endpoint> endpoints = new ArrayList<>();

    @AfterEach
    void close()
    {
        endpoints.forEach(Endpoint::close);
        arena.close();
    }

    private Endpoint open(final int index, final int windowFrames, final double txLoss)
    {
        final Endpoint e = TestEndpoints.open(TestEndpoints.options(index, KEY,
                UserDriverOptions.defaults().withSameHost(false).withLoss(txLoss, 0, 5))
            .mediumFragmentBytes(FRAGMENT_BYTES).sendWindowFrames(windowFrames).resendTimeoutNs(2_000_000L).build());
        endpoints.add(e);
        return e;
    }

    @ParameterizedTest(name = "window {0} frames, {1} of frames lost")
    @CsvSource({"64, 0", "4, 0", "64, 0.05"})
    void mediumMessagesArriveIntactInOrderFromRuns(final int windowFrames, final double txLoss)
    {
        final Endpoint a = open(1, windowFrames, txLoss);
        final Endpoint b = open(2, 64, 0);
        final Partner aToB = a.connect(b.address(), KEY, TIMEOUT);

        final List<Request> receives = new ArrayList<>();
        final List<MemorySegment> into = new ArrayList<>();
        final List<Request> sends = new ArrayList<>();
        int seed = 0;
        for (final long size : SIZES)
        {
            for (int m = 0; m < MESSAGES_PER_SIZE; m++, seed++)
            {
                final MemorySegment in = arena.allocate(size);
                into.add(in);
                receives.add(b.irecv(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, in));
                sends.add(a.isend(aToB, 7, pattern(size, seed)));
            }
        }
        seed = 0;
        for (int i = 0; i < receives.size(); i++, seed++)
        {
            final Status status = receives.get(i).awaitOrThrow(TIMEOUT);
            final MemorySegment in = into.get(i);
            assertEquals(in.byteSize(), status.bytesTransferred(), "message " + i);
            assertEquals(-1, in.mismatch(pattern(in.byteSize(), seed)), "message " + i + " arrived in its order, intact");
            sends.get(i).awaitOrThrow(TIMEOUT);
        }
        final long offloaded = a.counters().driver().get(Counter.OFFLOADED_SENDS);
        if (0 == txLoss)
        {
            assertTrue(offloaded >= receives.size(), offloaded + " offloaded sends for " + receives.size() + " messages");
        }
        else
        {
            // a frame dropped from a run of two leaves one frame to send alone
            assertTrue(offloaded > 0, "no offloaded send");
            assertTrue(a.counters().driver().get(Counter.DROPPED_LOSS_INJECTED_TX) > 0, "frames were lost");
        }
    }

    private MemorySegment pattern(final long size, final int seed)
    {
        final MemorySegment s = arena.allocate(size);
        for (long i = 0; i < size; i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 13 + seed));
        }
        return s;
    }
}
