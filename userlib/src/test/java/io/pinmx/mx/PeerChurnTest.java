package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.user.UserDriverOptions;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-lived endpoint meets more short-lived peers, one after the other, than its driver's peer
 * table has entries: each connects from a new UDP port, sends one message and closes. Closing tells
 * the long-lived endpoint, which fails that partner and drops its peer reference, so the driver
 * reclaims entries and every newcomer still connects.
 */
class PeerChurnTest
{
    /** More than the user driver's 4,096 peer entries. */
    private static final int PEERS = 4_200;
    private static final int KEY = 0x6B6B;
    /** Visitors bind ports from here (endpoint index 1 of a board whose base port is this one). */
    private static final int FIRST_PORT = 20_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Arena arena = Arena.ofShared();
    private Endpoint longLived;

    @AfterEach
    void close()
    {
        if (null != longLived)
        {
            longLived.close();
        }
        arena.close();
    }

    @Test
    void moreShortLivedPeersThanPeerEntriesAllConnectAndAreHeard()
    {
        final UserDriverOptions udp = UserDriverOptions.defaults().withSameHost(false);
        longLived = TestEndpoints.open(TestEndpoints.options(0, KEY, udp).build());
        // Light visitors (no driver thread, small rings, few requests, no node counters): what is tested is the
        // long-lived endpoint's peer table, and opening thousands of full-sized endpoints would take minutes.
        final UserDriverOptions visiting = udp.withProgressThread(false).withRingBytes(64 << 10, 256 << 10)
            .withCountersFile(null);
        final MemorySegment out = arena.allocate(8);
        final MemorySegment in = arena.allocate(8);
        int port = FIRST_PORT;
        for (int i = 0; i < PEERS; i++)
        {
            // A port of its own for every visitor (the kernel may hand a just-closed port out again).
            Endpoint opened = null;
            while (null == opened)
            {
                final UserDriverOptions bound = visiting.withBind(InetAddress.getLoopbackAddress(), port++);
                try
                {
                    opened = TestEndpoints.open(TestEndpoints.options(1, KEY, bound).progressMode(ProgressMode.CALLER)
                        .maxRequests(8).build());
                }
                catch (final RuntimeException inUse)
                {
                    assertTrue(port < FIRST_PORT + 2 * PEERS, "no free port near " + port + ": " + inUse.getMessage());
                }
            }
            try (Endpoint visitor = opened)
            {
                final Partner host = visitor.connect(longLived.address(), KEY, TIMEOUT);
                out.set(ValueLayout.JAVA_LONG, 0, i);
                final Request r = longLived.irecv(MatchInfo.ANY_SOURCE, i, MatchInfo.MASK_ALL, in);
                visitor.send(host, i, out, TIMEOUT);
                r.awaitOrThrow(TIMEOUT);
                r.release();
                assertEquals(i, in.get(ValueLayout.JAVA_LONG, 0), "message of visitor " + i);
            }
        }
        final long reclaimed = longLived.counters().driver().get(Counter.PEERS_RECLAIMED);
        assertTrue(reclaimed >= PEERS - 4_096, "peer entries reclaimed: " + reclaimed);
        assertEquals(0, longLived.counters().driver().get(Counter.DROPPED_PEER_TABLE_FULL), "frames dropped for a full table");
        final Partner last = longLived.partner(PEERS - 1);
        Awaitility.await("the last visitor's goodbye").atMost(TIMEOUT).until(() -> null != last.failure());
        assertTrue(last.failure().contains("BAD_SESSION"), last.failure());
    }
}
