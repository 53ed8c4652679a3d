package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.user.UserDriverOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * This JVM and a {@link PeerMain} JVM exchanging messages over the user-space driver.
 */
class TwoProcessTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long LINE_TIMEOUT_MS = 120_000;
    private static final int KEY = 0x2A2A;
    private static final long MIB = 1024 * 1024;

    private final Arena arena = Arena.ofShared();
    private Endpoint local;

    @AfterEach
    void close()
    {
        if (null != local)
        {
            local.close();
        }
        arena.close();
    }

    private Endpoint openLocal(final boolean sameHost, final double loss, final long resendTimeoutMs, final int maxResends)
    {
        local = TestEndpoints.open(TestEndpoints.options(0, KEY,
            UserDriverOptions.defaults().withSameHost(sameHost).withLoss(loss, loss, 77))
            .resendTimeoutNs(resendTimeoutMs * 1_000_000L)
            .maxResends(maxResends)
            .build());
        return local;
    }

    private String localBoard()
    {
        return local.address().board() + " " + local.address().endpointIndex();
    }

    private MemorySegment patterned(final long size, final long seed)
    {
        final MemorySegment s = arena.allocate(Math.max(1, size)).asSlice(0, size);
        Patterns.fill(s, seed);
        return s;
    }

    @Test
    void everySizeEdgeGoesThereAndBackIntactOverSharedMemory() throws Exception
    {
        sizesThereAndBack(true);
    }

    @Test
    void everySizeEdgeGoesThereAndBackIntactOverUdp() throws Exception
    {
        sizesThereAndBack(false);
    }

    private void sizesThereAndBack(final boolean sameHost) throws Exception
    {
        openLocal(sameHost, 0, 20, 250);
        final long[] sizes = {0, 1, 32, 33, 128, 129, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1, MIB, 64 * MIB};
        try (PeerProcess peer = PeerProcess.start(1, KEY, sameHost, 0, 20, 250))
        {
            final Partner partner = local.connect(peer.address, KEY, TIMEOUT);
            peer.send("ECHO " + sizes.length);
            final MemorySegment in = arena.allocate(64 * MIB);
            for (int i = 0; i < sizes.length; i++)
            {
                final long size = sizes[i];
                final Request recv = local.irecv(partner.id(), i, MatchInfo.MASK_ALL, in.asSlice(0, size));
                local.send(partner, i, patterned(size, i), TIMEOUT);
                final Status s = recv.awaitOrThrow(TIMEOUT);
                assertEquals(size, s.messageLength(), "size " + size);
                assertEquals(size, s.bytesTransferred(), "size " + size);
                assertFalse(s.truncated());
                assertEquals(partner.id(), s.source());
                assertEquals(-1, Patterns.firstMismatch(in, size, i), "size " + size);
                recv.release();
            }
            peer.awaitLine("ECHO_DONE", LINE_TIMEOUT_MS);
        }
    }

    @Test
    void vectorsOfOneTo256SegmentsOnEitherSide() throws Exception
    {
        openLocal(true, 0, 20, 250);
        final int[] counts = {1, 2, 3, 17, 255, 256};
        final long[] sizes = {100, 20_000, 300_000};
        try (PeerProcess peer = PeerProcess.start(1, KEY, true, 0, 20, 250))
        {
            final Partner partner = local.connect(peer.address, KEY, TIMEOUT);
            peer.send("ECHO " + counts.length * sizes.length);
            int message = 0;
            for (final int count : counts)
            {
                for (final long size : sizes)
                {
                    final MemorySegment out = patterned(size, message);
                    final MemorySegment[] sendVector = PeerMain.split(out, count);
                    final MemorySegment in = arena.allocate(size);
                    final MemorySegment[] recvVector = PeerMain.split(in, Math.max(1, 257 - count) > 256 ? 256 : 257 - count);
                    final Request recv = local.irecv(partner.id(), message, MatchInfo.MASK_ALL, recvVector, recvVector.length);
                    final Request send = local.isend(partner, message, sendVector, count);
                    send.awaitOrThrow(TIMEOUT);
                    final Status s = recv.awaitOrThrow(TIMEOUT);
                    assertEquals(size, s.bytesTransferred());
                    assertEquals(-1, Patterns.firstMismatch(in, size, message), count + " segments, " + size + " bytes");
                    send.release();
                    recv.release();
                    message++;
                }
            }
            peer.awaitLine("ECHO_DONE", LINE_TIMEOUT_MS);
        }
    }

    @Test
    void heapBuffersAreStagedBothWays() throws Exception
    {
        openLocal(true, 0, 20, 250);
        try (PeerProcess peer = PeerProcess.start(1, KEY, true, 0, 20, 250))
        {
            final Partner partner = local.connect(peer.address, KEY, TIMEOUT);
            peer.send("ECHO 2");
            for (final int size : new int[] {1000, 200_000})
            {
                final byte[] out = new byte[size];
                final MemorySegment outSegment = MemorySegment.ofArray(out);
                Patterns.fill(outSegment, size);
                final byte[] in = new byte[size];
                final Request recv = local.irecv(partner.id(), size, MatchInfo.MASK_ALL, MemorySegment.ofArray(in));
                local.send(partner, size, outSegment, TIMEOUT);
                recv.awaitOrThrow(TIMEOUT);
                assertEquals(-1, Patterns.firstMismatch(MemorySegment.ofArray(in), size, size));
                recv.release();
            }
            peer.awaitLine("ECHO_DONE", LINE_TIMEOUT_MS);
        }
    }

    @Test
    void masksWildcardsOrderUnexpectedTruncationCancelAndIssend() throws Exception
    {
        openLocal(true, 0, 20, 250);
        try (PeerProcess peer = PeerProcess.start(1, KEY, true, 0, 20, 250))
        {
            peer.command("CONNECT " + localBoard() + " " + KEY, "CONNECTED", LINE_TIMEOUT_MS);
            final Request cancelled = local.irecv(MatchInfo.ANY_SOURCE, 0x1_0000_0001L, MatchInfo.MASK_ALL,
                arena.allocate(64));
            assertTrue(cancelled.cancel());
            assertEquals(RequestState.CANCELLED, cancelled.state());
            assertFalse(cancelled.cancel());
            cancelled.release();

            // all sent before any receive is posted: they wait in the unexpected queue, rendezvous as headers
            peer.command("SEND 0 100000001 10 1 eager 1", "POSTED", LINE_TIMEOUT_MS);
            peer.command("SEND 0 200000001 50000 2 eager 1", "POSTED", LINE_TIMEOUT_MS);
            peer.command("SEND 0 100000002 20000 3 eager 1", "POSTED", LINE_TIMEOUT_MS);
            peer.command("SEND 0 300000000 1000 4 eager 1", "POSTED", LINE_TIMEOUT_MS);
            peer.command("SEND 0 300000001 100000 5 eager 1", "POSTED", LINE_TIMEOUT_MS);
            final Status probe = new Status();
            assertTrue(local.probe(MatchInfo.ANY_SOURCE, 0x3_0000_0001L, MatchInfo.MASK_ALL, probe, TIMEOUT));
            assertEquals(100_000, probe.messageLength());

            final long typeMask = 0xF_0000_0000L;
            final MemorySegment a = arena.allocate(64);
            final Request first = local.irecv(MatchInfo.ANY_SOURCE, 0x1_0000_0000L, typeMask, a);
            assertEquals(0x1_0000_0001L, first.awaitOrThrow(TIMEOUT).matchInfo(), "same sender, same mask: send order");
            assertEquals(-1, Patterns.firstMismatch(a, 10, 1));
            first.release();
            final MemorySegment b = arena.allocate(20_000);
            final Request second = local.irecv(MatchInfo.ANY_SOURCE, 0x1_0000_0000L, typeMask, b);
            assertEquals(0x1_0000_0002L, second.awaitOrThrow(TIMEOUT).matchInfo());
            assertEquals(-1, Patterns.firstMismatch(b, 20_000, 3));
            second.release();
            final MemorySegment c = arena.allocate(50_000);
            final Request any = local.irecv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, c);
            final Status anyStatus = any.awaitOrThrow(TIMEOUT);
            assertEquals(0x2_0000_0001L, anyStatus.matchInfo(), "wildcard takes the earliest remaining message");
            assertEquals(-1, Patterns.firstMismatch(c, 50_000, 2));
            any.release();

            // truncation: eager and rendezvous into short buffers followed by guard bytes that must stay zero
            final MemorySegment eagerSpace = arena.allocate(600);
            final Request shortEager = local.irecv(MatchInfo.ANY_SOURCE, 0x3_0000_0000L, MatchInfo.MASK_ALL,
                eagerSpace.asSlice(0, 500));
            final Status te = shortEager.awaitOrThrow(TIMEOUT);
            assertTrue(te.truncated());
            assertEquals(1000, te.messageLength());
            assertEquals(500, te.bytesTransferred());
            assertEquals(-1, Patterns.firstMismatch(eagerSpace, 500, 4));
            assertAllZero(eagerSpace.asSlice(500));
            shortEager.release();
            final MemorySegment rndvSpace = arena.allocate(60_000);
            final Request shortRndv = local.irecv(MatchInfo.ANY_SOURCE, 0x3_0000_0001L, MatchInfo.MASK_ALL,
                rndvSpace.asSlice(0, 50_000));
            final Status tr = shortRndv.awaitOrThrow(TIMEOUT);
            assertTrue(tr.truncated());
            assertEquals(100_000, tr.messageLength());
            assertEquals(50_000, tr.bytesTransferred());
            assertEquals(-1, Patterns.firstMismatch(rndvSpace, 50_000, 5));
            assertAllZero(rndvSpace.asSlice(50_000));
            shortRndv.release();
            assertEquals("SENDS COMPLETED COMPLETED COMPLETED COMPLETED COMPLETED",
                peer.command("WAIT_SENDS", "SENDS", LINE_TIMEOUT_MS));

            // issend completes only after the match: its RNDV is here (probe), yet it waits for our receive
            peer.command("SEND 0 400000000 16 6 sync 1", "POSTED", LINE_TIMEOUT_MS);
            assertTrue(local.probe(MatchInfo.ANY_SOURCE, 0x4_0000_0000L, MatchInfo.MASK_ALL, probe, TIMEOUT));
            final MemorySegment d = arena.allocate(16);
            final Request sync = local.irecv(MatchInfo.ANY_SOURCE, 0x4_0000_0000L, MatchInfo.MASK_ALL, d);
            sync.awaitOrThrow(TIMEOUT);
            assertEquals(-1, Patterns.firstMismatch(d, 16, 6));
            sync.release();
            assertEquals("SENDS COMPLETED", peer.command("WAIT_SENDS", "SENDS", LINE_TIMEOUT_MS));
            assertFalse(local.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, probe), "nothing left over");
        }
    }

    @Test
    void issendIsNotCompleteBeforeTheMatch() throws Exception
    {
        openLocal(true, 0, 20, 250);
        try (PeerProcess peer = PeerProcess.start(1, KEY, true, 0, 20, 250))
        {
            final Partner partner = local.connect(peer.address, KEY, TIMEOUT);
            final Request sync = local.issend(partner, 9, patterned(16, 9));
            peer.send("RECV 8 ffffffffffffffff 16");
            final Request plain = local.isend(partner, 8, patterned(16, 8));
            plain.awaitOrThrow(TIMEOUT);
            peer.awaitLine("RECEIVED 8", LINE_TIMEOUT_MS);
            assertFalse(sync.test(), "the peer has not posted a receive for match 9");
            peer.send("RECV 9 ffffffffffffffff 16");
            peer.awaitLine("RECEIVED 9 16 16 false " + Patterns.crc(patterned(16, 9), 16), LINE_TIMEOUT_MS);
            sync.awaitOrThrow(TIMEOUT);
            sync.release();
            plain.release();
        }
    }

    @Test
    void wrongKeyIsRefusedByAnotherProcess() throws Exception
    {
        openLocal(true, 0, 20, 250);
        try (PeerProcess peer = PeerProcess.start(1, KEY + 1, true, 0, 20, 250))
        {
            final MxException e = assertThrows(MxException.class, () -> local.connect(peer.address, KEY, TIMEOUT));
            assertTrue(e.getMessage().contains("BAD_KEY"), e.getMessage());
            assertTrue(e.getMessage().contains(peer.address.board().toString()), e.getMessage());
            local.connect(peer.address, KEY + 1, TIMEOUT);
        }
    }

    @Test
    void tenThousandMixedMessagesAtOnePercentLoss() throws Exception
    {
        lossyStream(0.01, 10_000);
    }

    @Test
    void threeThousandMixedMessagesAtTenPercentLoss() throws Exception
    {
        lossyStream(0.10, 3_000);
    }

    private void lossyStream(final double loss, final int count) throws Exception
    {
        openLocal(false, loss, 5, 2000);
        try (PeerProcess peer = PeerProcess.start(1, KEY, false, loss, 5, 2000))
        {
            peer.command("CONNECT " + localBoard() + " " + KEY, "CONNECTED", LINE_TIMEOUT_MS);
            peer.send("STREAM 0 " + count);
            final MemorySegment in = arena.allocate(128 * 1024);
            final Status s = new Status();
            for (int i = 0; i < count; i++)
            {
                local.recv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, in, s, Duration.ofSeconds(120));
                assertEquals(i, s.matchInfo(), "message order");
                final int size = Patterns.mixedSize(i);
                assertEquals(size, s.messageLength(), "message " + i);
                assertEquals(size, s.bytesTransferred(), "message " + i);
                assertEquals(-1, Patterns.firstMismatch(in, size, i), "message " + i + " contents");
            }
            peer.awaitLine("STREAM_DONE " + count, LINE_TIMEOUT_MS);
            assertFalse(local.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, s), "a message arrived twice");
            // The loss really happened on both ends and the sender really recovered by resending.
            final String[] stats = peer.command("STATS", "STATS", LINE_TIMEOUT_MS).split(" ");
            final long peerResent = Long.parseLong(stats[2]);
            final long peerLoss = Long.parseLong(stats[4]) + Long.parseLong(stats[6]);
            final long localLoss = local.counters().driver().get(Counter.DROPPED_LOSS_INJECTED_TX) +
                local.counters().driver().get(Counter.DROPPED_LOSS_INJECTED_RX);
            assertTrue(localLoss > 0, "no loss injected by the receiving driver at " + loss);
            assertTrue(peerLoss > 0, "no loss injected by the sending driver at " + loss);
            assertTrue(peerResent > 0, "the sender resent nothing although " + (localLoss + peerLoss) +
                " frames were lost");
        }
    }

    @Test
    void peerKilledMidTransferFailsItsRequestsWithinTheTimeoutAndNewPeersStillWork() throws Exception
    {
        final long resendTimeoutMs = 20;
        final int maxResends = 50;
        openLocal(false, 0.05, resendTimeoutMs, maxResends);
        final long limitMs = resendTimeoutMs * (maxResends + 1);
        final MemorySegment big = patterned(64 * MIB, 3);
        try (PeerProcess peer = PeerProcess.start(1, KEY, false, 0.05, resendTimeoutMs, maxResends))
        {
            final Partner partner = local.connect(peer.address, KEY, TIMEOUT);
            peer.send("RECV 1 ffffffffffffffff " + 64 * MIB);
            final Request send = local.isend(partner, 1, big);
            final Request recv = local.irecv(partner.id(), 2, MatchInfo.MASK_ALL, arena.allocate(16));
            assertFalse(send.test(), "64 MiB at 5% loss over UDP is still in flight");
            peer.kill();
            final long killedAt = System.nanoTime();
            assertTrue(send.await(Duration.ofMillis(limitMs * 3)), "send failed within the peer timeout");
            final long tookMs = (System.nanoTime() - killedAt) / 1_000_000;
            assertEquals(RequestState.FAILED, send.state());
            // on this host the driver may know the process exited before the silence ran out
            final String error = send.status().error();
            assertTrue(error.contains("unreachable") || error.contains("its process " + peer.pid() + " exited"), error);
            assertTrue(error.contains(peer.address.board().toString()), error);
            assertTrue(recv.await(Duration.ofSeconds(1)));
            assertEquals(RequestState.FAILED, recv.state(), "a receive naming the dead partner fails too");
            assertTrue(tookMs <= limitMs, "failed after " + tookMs + " ms, limit " + limitMs);
            send.release();
            recv.release();
            final MxException after = assertThrows(MxException.class, () -> local.isend(partner, 3, big.asSlice(0, 8)));
            assertTrue(after.getMessage().contains("FAILED"), after.getMessage());
        }
        try (PeerProcess fresh = PeerProcess.start(2, KEY, false, 0, 20, 250))
        {
            final Partner partner = local.connect(fresh.address, KEY, TIMEOUT);
            fresh.send("ECHO 1");
            final MemorySegment in = arena.allocate(MIB);
            final Request recv = local.irecv(partner.id(), 5, MatchInfo.MASK_ALL, in);
            local.send(partner, 5, big.asSlice(0, MIB), TIMEOUT);
            recv.awaitOrThrow(TIMEOUT);
            assertEquals(-1, Patterns.firstMismatch(in, MIB, 3));
            recv.release();
            fresh.awaitLine("ECHO_DONE", LINE_TIMEOUT_MS);
        }
    }

    @Test
    void callerDrivenProgressWithoutAProgressThread() throws Exception
    {
        local = TestEndpoints.open(TestEndpoints.options(0, KEY, UserDriverOptions.defaults())
            .progressMode(ProgressMode.CALLER)
            .build());
        final long[] sizes = {0, 33, 129, 32 * 1024 + 1, MIB};
        try (PeerProcess peer = PeerProcess.start(1, KEY, true, 0, 20, 250))
        {
            final Partner partner = local.connect(peer.address, KEY, TIMEOUT);
            peer.send("ECHO " + sizes.length);
            final MemorySegment in = arena.allocate(MIB);
            for (int i = 0; i < sizes.length; i++)
            {
                final Request recv = local.irecv(partner.id(), i, MatchInfo.MASK_ALL, in.asSlice(0, sizes[i]));
                final Request send = local.isend(partner, i, patterned(sizes[i], i));
                final Request[] both = {send, recv};
                final int first = local.waitAny(both, 2, TIMEOUT);
                assertTrue(first >= 0, "neither the send nor the receive completed within the timeout");
                both[first].awaitOrThrow(TIMEOUT);
                both[1 - first].awaitOrThrow(TIMEOUT);
                send.release();
                recv.release();
                assertEquals(-1, Patterns.firstMismatch(in, sizes[i], i), "size " + sizes[i]);
            }
            peer.awaitLine("ECHO_DONE", LINE_TIMEOUT_MS);
        }
    }

    @Test
    void aFullUnexpectedQueueHoldsTheSenderBackAndLosesNothing() throws Exception
    {
        final int bound = 3;
        final int count = 150;
        local = TestEndpoints.open(TestEndpoints.options(0, KEY, UserDriverOptions.defaults())
            .unexpectedMaxMessages(bound)
            .build());
        try (PeerProcess peer = PeerProcess.start(1, KEY, true, 0, 20, 250))
        {
            peer.command("CONNECT " + localBoard() + " " + KEY, "CONNECTED", LINE_TIMEOUT_MS);
            peer.send("STREAM 0 " + count);
            org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> local.counters().unexpectedMessages() == bound);
            final MemorySegment in = arena.allocate(128 * 1024);
            final Status s = new Status();
            for (int i = 0; i < count; i++)
            {
                assertTrue(local.counters().unexpectedMessages() <= bound, "unexpected queue above its bound");
                local.recv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, in, s, TIMEOUT);
                assertEquals(i, s.matchInfo(), "message order");
                assertEquals(-1, Patterns.firstMismatch(in, Patterns.mixedSize(i), i), "message " + i);
            }
            peer.awaitLine("STREAM_DONE " + count, LINE_TIMEOUT_MS);
            assertEquals(0, local.counters().unexpectedMessages());
        }
    }

    @Test
    void senderKilledWhileWePullFailsOurReceiveClearly() throws Exception
    {
        final long resendTimeoutMs = 20;
        final int maxResends = 50;
        openLocal(false, 0.05, resendTimeoutMs, maxResends);
        // The partner is failed within the peer timeout and its pull cancelled; the receive ends with that pull's
        // end, so no late reply can land in the buffer once the caller has it back. The driver's own pull timeout
        // is longer than this bound.
        final long limitMs = resendTimeoutMs * (maxResends + 1) * 3;
        assertTrue(driverPullTimeoutMs(UserDriverOptions.defaults()) > limitMs, "the bound is below the pull timeout");
        try (PeerProcess peer = PeerProcess.start(1, KEY, false, 0.05, resendTimeoutMs, maxResends))
        {
            peer.command("CONNECT " + localBoard() + " " + KEY, "CONNECTED", LINE_TIMEOUT_MS);
            final Request recv = local.irecv(MatchInfo.ANY_SOURCE, 1, MatchInfo.MASK_ALL, arena.allocate(64 * MIB));
            peer.command("SEND 0 1 " + 64 * MIB + " 1 eager 1", "POSTED", LINE_TIMEOUT_MS);
            org.awaitility.Awaitility.await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(1))
                .until(() -> RequestState.POSTED != recv.state());
            assertEquals(RequestState.PULLING, recv.state(), "64 MiB at 5% loss over UDP is still being pulled");
            peer.kill();
            final long killedAt = System.nanoTime();
            assertTrue(recv.await(Duration.ofMillis(limitMs)), "receive failed within the peer timeout");
            final long tookMs = (System.nanoTime() - killedAt) / 1_000_000;
            assertEquals(RequestState.FAILED, recv.state(), recv.status().toString());
            assertTrue(recv.status().error().contains(peer.address.board().toString()), recv.status().error());
            assertTrue(tookMs <= limitMs, "failed after " + tookMs + " ms, limit " + limitMs);
            recv.release();
        }
    }

    /** How long the user driver pulls from a silent partner before the pull fails: its resends, backed off. */
    private static long driverPullTimeoutMs(final UserDriverOptions options)
    {
        long ns = 0;
        for (int retry = 0; retry <= options.pullMaxRetries(); retry++)
        {
            ns += options.pullResendTimeoutNs() << Math.min(retry, 4);
        }
        return ns / 1_000_000;
    }

    private static void assertAllZero(final MemorySegment s)
    {
        for (long i = 0; i < s.byteSize(); i++)
        {
            assertEquals(0, s.get(ValueLayout.JAVA_BYTE, i), "guard byte " + i + " written past the buffer");
        }
    }
}
