package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.mx.reliability.PartnerState;
import io.pinmx.pin.user.UserDriverOptions;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Liveness against real pauses: two processes that stop talking for many peer timeouts stay
 * connected and lose nothing; a partner on this host that is frozen while we wait on it is never
 * given up (its process runs) and, over shared memory, gets no resend, and one that is killed
 * while we only wait for its messages fails at once naming its process; and where only silence can judge (a driver without liveness answers), a
 * partner given up learns it even though it was only frozen. The peer timeout here is
 * {@value #RESEND_MS} ms x ({@value #MAX_RESENDS} + 1).
 */
class PartnerPauseTest
{
    private static final long RESEND_MS = 100;
    private static final int MAX_RESENDS = 4;
    private static final long PEER_TIMEOUT_MS = RESEND_MS * (MAX_RESENDS + 1);
    private static final int KEY = 0x5A5A;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long LINE_TIMEOUT_MS = 60_000;
    /** Sizes of each burst: tiny, medium (fragments) and rendezvous (pull + notify). */
    private static final long[] BURST_BYTES = {8, 20_000, 100_000};
    /** Pause length in peer timeouts, and how many pauses of that length (alternating who speaks first). */
    private static final int[][] PAUSES = {{2, 4}, {5, 3}, {20, 2}};

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

    @Test
    void pausesOfManyPeerTimeoutsLoseNothingOverSharedMemory() throws Exception
    {
        pausesLoseNothing(true);
    }

    @Test
    void pausesOfManyPeerTimeoutsLoseNothingOverUdp() throws Exception
    {
        pausesLoseNothing(false);
    }

    @Test
    void aFrozenPartnerGivenUpLearnsItOverSharedMemory() throws Exception
    {
        frozenPartnerLearnsIt(true);
    }

    @Test
    void aFrozenPartnerGivenUpLearnsItOverUdp() throws Exception
    {
        frozenPartnerLearnsIt(false);
    }

    @Test
    void aFrozenPartnerOnThisHostIsNeverGivenUpOverSharedMemory() throws Exception
    {
        frozenPartnerOnThisHostIsKept(true);
    }

    @Test
    void aFrozenPartnerOnThisHostIsNeverGivenUpOverUdp() throws Exception
    {
        frozenPartnerOnThisHostIsKept(false);
    }

    @Test
    void aKilledPartnerFailsReceivesNamingItAndFromAnySourceAtOnceOverSharedMemory() throws Exception
    {
        killedPartnerFailsReceives(true);
    }

    @Test
    void aKilledPartnerFailsReceivesNamingItAndFromAnySourceAtOnceOverUdp() throws Exception
    {
        killedPartnerFailsReceives(false);
    }

    private Endpoint openLocal(final boolean sameHost)
    {
        local = TestEndpoints.open(localOptions(sameHost));
        return local;
    }

    private static EndpointOptions localOptions(final boolean sameHost)
    {
        return TestEndpoints.options(0, KEY, UserDriverOptions.defaults().withSameHost(sameHost))
            .resendTimeoutNs(TimeUnit.MILLISECONDS.toNanos(RESEND_MS))
            .maxResends(MAX_RESENDS)
            .build();
    }

    /**
     * The peer is frozen (SIGSTOP) for 3 peer timeouts while we wait on it: a receive from it and a send to it
     * (which the peer's posted receive takes once thawed). Its process runs, so it is not given up; thawed, both
     * complete and the partner stays connected.
     */
    private void frozenPartnerOnThisHostIsKept(final boolean sameHost) throws Exception
    {
        openLocal(sameHost);
        try (PeerProcess peer = PeerProcess.start(1, KEY, sameHost, 0, RESEND_MS, MAX_RESENDS))
        {
            peer.command("CONNECT " + localBoard() + " " + KEY, "CONNECTED", LINE_TIMEOUT_MS);
            final Partner partner = firstMessageFromPeer(peer);
            peer.send("RECV_FROM 0 77 64");
            freeze(peer);
            final long resentBefore = local.counters().resentFrames();
            final Request recv = local.irecv(partner.id(), 2, MatchInfo.MASK_ALL, arena.allocate(8));
            final Request send;
            final long resentWhileFrozen;
            final long resentIntoQueueWhileFrozen;
            try
            {
                final MemorySegment data = arena.allocate(64);
                Patterns.fill(data, 77);
                send = local.isend(partner, 0x77, data);
                assertFalse(recv.await(Duration.ofMillis(3 * PEER_TIMEOUT_MS)), "receive from a frozen partner ended: " +
                    recv.status());
                assertTrue(!send.test() || !send.status().isError(), "send to a frozen partner: " + send.status());
                assertEquals(PartnerState.CONNECTED, partner.state(), "a frozen partner on this host: " + partner);
                // once thawed, a peer slow to ack what it took may see a resend: that is the timer's normal work
                resentWhileFrozen = local.counters().resentFrames() - resentBefore;
                resentIntoQueueWhileFrozen = local.counters().resentIntoQueueFrames();
            }
            finally
            {
                signal(peer, "CONT");
            }
            assertEquals("RECEIVED_FROM 77", peer.awaitLine("RECEIVED_FROM", LINE_TIMEOUT_MS));
            assertFalse(send.awaitOrThrow(TIMEOUT).isError());
            if (sameHost)
            {
                // the frame waited untaken in the frozen peer's ring, which cannot lose it
                assertEquals(0, resentWhileFrozen, "frames resent to the frozen peer");
            }
            else
            {
                assertTrue(resentWhileFrozen > 0, "over UDP the unacknowledged frame is resent");
            }
            assertEquals(0, resentIntoQueueWhileFrozen, "resends into the frozen peer's ring");
            peer.command("SEND 0 2 8 2 eager 1", "POSTED", LINE_TIMEOUT_MS);
            final Status got = recv.awaitOrThrow(TIMEOUT);
            assertEquals(8, got.bytesTransferred(), got.toString());
            assertEquals(PartnerState.CONNECTED, partner.state(), "partner after the thaw: " + partner);
            send.release();
            recv.release();
        }
    }

    /**
     * We only wait for the peer's messages (a receive naming it, one from any source; nothing unacknowledged):
     * killed, it fails both at once, well inside the peer timeout, naming its process. Its process id is known
     * first (the driver learns it at the first liveness check of the silent partner), so the failure must be
     * the exact one, not the timeout.
     */
    private void killedPartnerFailsReceives(final boolean sameHost) throws Exception
    {
        openLocal(sameHost);
        try (PeerProcess peer = PeerProcess.start(1, KEY, sameHost, 0, RESEND_MS, MAX_RESENDS))
        {
            peer.command("CONNECT " + localBoard() + " " + KEY, "CONNECTED", LINE_TIMEOUT_MS);
            final Partner partner = firstMessageFromPeer(peer);
            final Request named = local.irecv(partner.id(), 3, MatchInfo.MASK_ALL, arena.allocate(8));
            final Request any = local.irecv(MatchInfo.ANY_SOURCE, 4, MatchInfo.MASK_ALL, arena.allocate(8));
            Awaitility.await("the driver knows the partner's process").atMost(TIMEOUT)
                .until(() -> partner.pid() == peer.pid());
            final long killedNs = System.nanoTime();
            peer.kill();
            assertTrue(named.await(TIMEOUT), "receive naming a killed partner ended");
            assertTrue(any.await(TIMEOUT), "receive from any source ended after a partner was killed");
            final long tookMs = (System.nanoTime() - killedNs) / 1_000_000;
            for (final Request r : new Request[] {named, any})
            {
                assertEquals(RequestState.FAILED, r.state());
                final String error = r.status().error();
                assertTrue(error.contains("is gone: its process " + peer.pid() + " exited"), error);
                assertTrue(error.contains(peer.address.board().toString()), error);
                r.release();
            }
            assertTrue(tookMs < 10 * PEER_TIMEOUT_MS, "failed after " + tookMs + " ms");
            System.out.println("killed partner (sameHost " + sameHost + ") noticed after " + tookMs + " ms");
        }
    }

    private String localBoard()
    {
        return local.address().board() + " " + local.address().endpointIndex();
    }

    /**
     * Bursts of every size class in both directions, separated by pauses of 2, 5 and 20 peer timeouts;
     * after each pause one side speaks first (alternating), and every message arrives exactly once, in order,
     * byte-exact, with no send failing.
     */
    private void pausesLoseNothing(final boolean sameHost) throws Exception
    {
        openLocal(sameHost);
        try (PeerProcess peer = PeerProcess.start(1, KEY, sameHost, 0, RESEND_MS, MAX_RESENDS))
        {
            peer.command("CONNECT " + localBoard() + " " + KEY, "CONNECTED", LINE_TIMEOUT_MS);
            final Partner partner = firstMessageFromPeer(peer);
            int burst = 1;
            for (final int[] pause : PAUSES)
            {
                for (int i = 0; i < pause[1]; i++)
                {
                    // The pause is the scenario under test (both processes idle), not a wait for a result.
                    Thread.sleep(pause[0] * PEER_TIMEOUT_MS);
                    final String context = "after pause " + (i + 1) + " of " + pause[0] + "x the peer timeout";
                    if (0 == i % 2)
                    {
                        burstToPeer(peer, partner, burst++, context);
                        burstFromPeer(peer, burst++, context);
                    }
                    else
                    {
                        burstFromPeer(peer, burst++, context);
                        burstToPeer(peer, partner, burst++, context);
                    }
                }
            }
            assertFalse(local.iprobe(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, new Status()),
                "a message arrived twice");
            assertEquals(PartnerState.CONNECTED, partner.state(), "partner after all pauses: " + partner);
        }
    }

    /** The peer connected to us; its first burst names the partner it is to us. */
    private Partner firstMessageFromPeer(final PeerProcess peer) throws InterruptedException
    {
        final Status s = new Status();
        peer.command("SEND 0 " + Long.toHexString(match(0, 0)) + " 8 0 eager 1", "POSTED", LINE_TIMEOUT_MS);
        local.recv(MatchInfo.ANY_SOURCE, match(0, 0), MatchInfo.MASK_ALL, arena.allocate(8), s, TIMEOUT);
        assertEquals("SENDS COMPLETED", peer.command("WAIT_SENDS", "SENDS", LINE_TIMEOUT_MS));
        return local.partner(s.source());
    }

    private static long match(final int burst, final int message)
    {
        return (long)burst << 8 | message;
    }

    private void burstToPeer(final PeerProcess peer, final Partner partner, final int burst, final String context)
        throws InterruptedException
    {
        final Request[] sends = new Request[BURST_BYTES.length];
        for (int m = 0; m < BURST_BYTES.length; m++)
        {
            final MemorySegment data = arena.allocate(BURST_BYTES[m]);
            Patterns.fill(data, match(burst, m));
            sends[m] = local.isend(partner, match(burst, m), data);
        }
        for (int m = 0; m < BURST_BYTES.length; m++)
        {
            // Any match info: the peer reports what came next, so a duplicate or a reordering shows.
            final String[] got = peer.command("RECV 0 0 " + BURST_BYTES[m], "RECEIVED", LINE_TIMEOUT_MS).split(" ");
            assertEquals(Long.toHexString(match(burst, m)), got[1], "message " + m + " of burst " + burst + " " + context);
            assertEquals(Long.toString(BURST_BYTES[m]), got[3], "bytes of message " + m + " of burst " + burst);
            final MemorySegment expected = arena.allocate(BURST_BYTES[m]);
            Patterns.fill(expected, match(burst, m));
            assertEquals(Long.toString(Patterns.crc(expected, BURST_BYTES[m])), got[5], "contents of message " + m);
        }
        for (final Request send : sends)
        {
            final Status s = send.awaitOrThrow(TIMEOUT);
            assertFalse(s.isError(), context + ": " + s);
            send.release();
        }
    }

    private void burstFromPeer(final PeerProcess peer, final int burst, final String context) throws InterruptedException
    {
        for (int m = 0; m < BURST_BYTES.length; m++)
        {
            peer.command("SEND 0 " + Long.toHexString(match(burst, m)) + " " + BURST_BYTES[m] + " " + match(burst, m) +
                " eager 1", "POSTED", LINE_TIMEOUT_MS);
        }
        final MemorySegment in = arena.allocate(BURST_BYTES[BURST_BYTES.length - 1]);
        final Status s = new Status();
        for (int m = 0; m < BURST_BYTES.length; m++)
        {
            local.recv(MatchInfo.ANY_SOURCE, 0, MatchInfo.MASK_ANY, in, s, TIMEOUT);
            assertEquals(match(burst, m), s.matchInfo(), "message " + m + " of burst " + burst + " " + context);
            assertEquals(BURST_BYTES[m], s.bytesTransferred());
            assertEquals(-1, Patterns.firstMismatch(in, BURST_BYTES[m], match(burst, m)), "contents of message " + m);
        }
        assertEquals("SENDS COMPLETED COMPLETED COMPLETED", peer.command("WAIT_SENDS", "SENDS", LINE_TIMEOUT_MS),
            "the peer's sends " + context);
    }

    /**
     * Over a driver that judges by silence alone: the peer is frozen (SIGSTOP) with a receive posted from us while
     * our send to it waits for an ack: we give it up after the peer timeout, and our receive from it fails. Over UDP the send fails with it; over shared
     * memory the 8 B send completed at once (its frame is in the peer's ring, which cannot lose it) while its
     * unacknowledged frame still made us wait on the peer. Thawed, the peer must learn it at once: its receive
     * fails naming the cause.
     */
    private void frozenPartnerLearnsIt(final boolean sameHost) throws Exception
    {
        local = Endpoint.open(new SilenceOnlyDriver(), localOptions(sameHost));
        try (PeerProcess peer = PeerProcess.start(1, KEY, sameHost, 0, RESEND_MS, MAX_RESENDS))
        {
            peer.command("CONNECT " + localBoard() + " " + KEY, "CONNECTED", LINE_TIMEOUT_MS);
            final Partner partner = firstMessageFromPeer(peer);
            peer.send("RECV_FROM 0 77 64");
            freeze(peer);
            final long resentBefore = local.counters().resentFrames();
            try
            {
                final Request recv = local.irecv(partner.id(), 2, MatchInfo.MASK_ALL, arena.allocate(8));
                final Request send = local.isend(partner, 1, arena.allocate(8));
                assertTrue(recv.await(Duration.ofMillis(PEER_TIMEOUT_MS * 20)), "receive from a frozen partner ended");
                assertTrue(recv.status().isError(), recv.status().toString());
                assertTrue(recv.status().error().contains("unreachable"), recv.status().error());
                assertTrue(send.await(Duration.ofMillis(PEER_TIMEOUT_MS)), "send to a frozen partner ended");
                assertEquals(!sameHost, send.status().isError(), send.status().toString());
                if (!sameHost)
                {
                    assertTrue(send.status().error().contains("unreachable"), send.status().error());
                }
                recv.release();
                send.release();
            }
            finally
            {
                signal(peer, "CONT");
            }
            final String failed = peer.awaitLine("RECV_FAILED", LINE_TIMEOUT_MS);
            assertTrue(failed.contains("BAD_SESSION") && failed.contains(local.address().board().toString()), failed);
        }
    }

    /** SIGSTOP, and wait until it took: kill(2) only queues it, and the peer's threads may run (and ack) until then. */
    private static void freeze(final PeerProcess peer) throws IOException, InterruptedException
    {
        signal(peer, "STOP");
        Awaitility.await("every thread of peer " + peer.pid() + " stopped").atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(5)).until(() -> allThreadsStopped(peer.pid()));
    }

    /** @return true if every thread of the process is in state T (stopped) in /proc. */
    private static boolean allThreadsStopped(final long pid) throws IOException
    {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task")))
        {
            for (final Path task : (Iterable<Path>)tasks::iterator)
            {
                final String stat = Files.readString(task.resolve("stat"));
                // The state follows the command name in parentheses, which may itself hold spaces.
                if ('T' != stat.charAt(stat.lastIndexOf(')') + 2))
                {
                    return false;
                }
            }
        }
        return true;
    }

    private static void signal(final PeerProcess peer, final String signal) throws IOException, InterruptedException
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(peer.pid())).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && 0 == kill.exitValue(), "kill -" + signal + " " + peer.pid());
    }
}
