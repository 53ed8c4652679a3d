package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.mx.reliability.PartnerState;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A send the driver refuses outright (here: a 32 KiB fragment for a peer whose shared-memory
 * ring takes records of at most 16 KiB, two ends configured differently) can never pass on
 * resend: it fails its request at once with the driver's cause instead of becoming a peer
 * timeout seconds later, and it is not counted as a dropped frame.
 */
class SendFailureTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int KEY = 0x5EED;
    private static final int BIG_FRAGMENT_BYTES = 32 * 1024;

    private final Arena arena = Arena.ofShared();
    private Endpoint big;
    private Endpoint small;

    @AfterEach
    void close()
    {
        if (null != big)
        {
            big.close();
        }
        if (null != small)
        {
            small.close();
        }
        arena.close();
    }

    @Test
    void aSendTheDriverRefusesFailsAtOnceWithTheCauseAndIsNoDrop()
    {
        big = TestEndpoints.open(TestEndpoints.options(1, KEY,
            UserDriverOptions.defaults().withFramePayloadBytes(BIG_FRAGMENT_BYTES))
            .mediumFragmentBytes(BIG_FRAGMENT_BYTES)
            .build());
        small = TestEndpoints.open(TestEndpoints.options(2, KEY,
            UserDriverOptions.defaults().withRingBytes(64 * 1024, 4 << 20))
            .build());
        final Partner partner = big.connect(small.address(), KEY, TIMEOUT);

        // a loaded host may resend the connect request, and the duplicate reply is dropped as stale: count from here
        final long droppedBefore = big.counters().droppedFrames();
        final long postedAt = System.nanoTime();
        final Request send = big.isend(partner, 7, arena.allocate(BIG_FRAGMENT_BYTES));
        assertTrue(send.await(Duration.ofMillis(500)), "the refused send is done at once, not after the peer timeout");
        final long tookMs = (System.nanoTime() - postedAt) / 1_000_000;

        assertEquals(RequestState.FAILED, send.state(), send.toString());
        final String error = send.status().error();
        assertTrue(error.contains("exceeds the shm ring's maximum"), "the driver's cause is named: " + error);
        assertTrue(tookMs < big.options().peerTimeoutNs() / 1_000_000 / 2, "failed after " + tookMs + " ms");
        assertEquals(PartnerState.FAILED, partner.state(), "its sequence stream is broken: the partner failed");
        // the receiver waits for nothing, so it sends nothing the failed connection would have to drop
        assertEquals(droppedBefore, big.counters().droppedFrames(), "a refused send is no dropped frame");
        assertEquals(0, big.counters().resentFrames(), "nothing was resent");
        send.release();
        assertFalse(small.iprobe(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, new Status()),
            "nothing reached the receiver");
        final Request recv = small.irecv(MatchInfo.ANY_SOURCE, 7, MatchInfo.MASK_ALL, arena.allocate(BIG_FRAGMENT_BYTES));

        // The endpoints stay usable: a new connection carries messages that fit.
        final Partner again = big.connect(small.address(), KEY, TIMEOUT);
        final MemorySegment eight = arena.allocate(8);
        eight.fill((byte)0x5A);
        big.send(again, 7, eight, TIMEOUT);
        final Status s = recv.awaitOrThrow(TIMEOUT);
        assertEquals(8, s.bytesTransferred());
        assertEquals(again.id(), partner.id() + 1);
        recv.release();
    }
}
