package io.pinmx.pin.provider;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The registry's bookkeeping alone: reclaim order, holds, generations, and the hash under heavy collisions. */
class PeerRegistryTest
{
    /** Keys collide on purpose: many keys share each of a few hashes, so deletions move entries within clusters. */
    private static final int HASHES = 13;

    private static final class Peer extends PeerEntry
    {
        final int key;

        Peer(final int index, final int key)
        {
            super(index, key % HASHES, BoardAddress.udp(InetAddress.getLoopbackAddress(), 1 + key % 60_000));
            this.key = key;
        }
    }

    private final DriverCounters counters = new DriverCounters();
    private final PeerRegistry<Peer> registry = new PeerRegistry<>(counters);

    private Peer add(final int key, final PeerRegistry.Use use)
    {
        return registry.findOrAdd(key(key), use);
    }

    private static PeerKey<Peer> key(final int key)
    {
        return new PeerKey<>()
        {
            @Override
            public int keyHash()
            {
                return key % HASHES;
            }

            @Override
            public boolean matches(final Peer entry)
            {
                return entry.key == key;
            }

            @Override
            public Peer create(final int index)
            {
                return new Peer(index, key);
            }
        };
    }

    private Peer probe(final int key)
    {
        for (int probe = PeerRegistry.firstProbe(key % HASHES); ; probe = PeerRegistry.nextProbe(probe))
        {
            final Peer peer = registry.probed(probe);
            if (null == peer || peer.key == key)
            {
                return peer;
            }
        }
    }

    @Test
    void churnUnderCollisionsKeepsEveryLiveEntryFindableAndEveryStaleIndexRefused()
    {
        final Random random = new Random(42);
        final Map<Integer, Peer> live = new HashMap<>();
        final Map<Integer, Integer> staleIndexes = new HashMap<>();
        int nextKey = 0;
        for (int round = 0; round < 20_000; round++)
        {
            final Peer peer = add(nextKey++, PeerRegistry.Use.REFERENCE);
            assertNotNull(peer, "round " + round);
            live.put(peer.key, peer);
            if (live.size() > PeerRegistry.MAX_PEERS / 2 || random.nextBoolean())
            {
                final Peer released = live.values().stream().skip(random.nextInt(live.size())).findFirst().orElseThrow();
                registry.release(released.index(), "test", "registry");
                live.remove(released.key);
                staleIndexes.put(released.key, released.index());
            }
        }
        assertTrue(counters.get(Counter.PEERS_RECLAIMED) > 10_000, counters.get(Counter.PEERS_RECLAIMED) + " reclaimed");
        for (final Peer peer : live.values())
        {
            assertSame(peer, registry.entry(peer.index()), "by index");
            assertSame(peer, probe(peer.key), "by key");
        }
        int refused = 0;
        for (final Map.Entry<Integer, Integer> stale : staleIndexes.entrySet())
        {
            final Peer current = registry.entry(stale.getValue());
            if (null == current)
            {
                refused++;
                assertNull(probe(stale.getKey()), "a reclaimed key is gone from the hash");
            }
            else
            {
                assertEquals(stale.getKey(), current.key, "a stale index never names another key");
            }
        }
        assertEquals(counters.get(Counter.PEERS_RECLAIMED), refused, "each reclaim made exactly one index stale");
    }

    @Test
    void reclaimTakesTheLeastRecentlyUsedIdleEntryAndNeverAHeldOne()
    {
        final Peer[] peers = new Peer[PeerRegistry.MAX_PEERS];
        for (int key = 0; key < peers.length; key++)
        {
            peers[key] = add(key, PeerRegistry.Use.REFERENCE);
        }
        assertNull(add(100_000, PeerRegistry.Use.HOLD), "every entry referenced");
        assertTrue(registry.describeFull().contains("(4096 referenced by the library, 0 only by events"),
            registry.describeFull());
        registry.release(peers[7].index(), "test", "registry");
        registry.release(peers[3].index(), "test", "registry");
        assertTrue(registry.hold(peers[7]), "an idle entry can be held");
        assertTrue(registry.describeFull().contains("(4094 referenced by the library, 1 only by events"),
            registry.describeFull());
        final Peer newcomer = add(100_000, PeerRegistry.Use.REFERENCE);
        assertEquals(peers[3].index() & (PeerRegistry.MAX_PEERS - 1), newcomer.index() & (PeerRegistry.MAX_PEERS - 1),
            "the idle entry that is not held was reclaimed");
        assertNull(registry.entry(peers[3].index()));
        assertSame(peers[7], registry.entry(peers[7].index()), "the held entry stays");
        assertNull(add(100_001, PeerRegistry.Use.REFERENCE), "the held entry is not reclaimed");
        registry.releaseHold(peers[7]);
        registry.release(peers[9].index(), "test", "registry");
        registry.touch(peers[7]);
        final Peer second = add(100_001, PeerRegistry.Use.REFERENCE);
        assertEquals(peers[9].index() & (PeerRegistry.MAX_PEERS - 1), second.index() & (PeerRegistry.MAX_PEERS - 1),
            "of two idle entries the least recently used goes first");
        assertSame(peers[7], registry.entry(peers[7].index()));
        assertEquals(2, registry.reclaimed());
    }

    @Test
    void theContractsPeerOperationsNameTheOperationTheIndexAndTheEndpoint()
    {
        final Peer acquired = registry.acquire("udp:a", key(5), "endpoint-e");
        assertSame(acquired, registry.entryOrThrow("send", acquired.index(), "endpoint-e"));
        registry.retainOrThrow(acquired.index(), "endpoint-e");
        assertSame(acquired, registry.holdSource(key(5)), "a source already known is held, not added");
        final Peer held = registry.holdOrThrow("startPull", acquired.index(), "endpoint-e");
        registry.releaseHold(held);
        registry.releaseHold(acquired.index());
        final Peer stranger = registry.holdSource(key(6));
        assertNotNull(stranger, "an unknown source is added, held");
        registry.releaseHold(stranger);

        final int stale = acquired.index() + (1 << PeerRegistry.SLOT_BITS);
        for (final DriverException e : new DriverException[] {
            assertThrows(DriverException.class, () -> registry.entryOrThrow("send", stale, "endpoint-e")),
            assertThrows(DriverException.class, () -> registry.holdOrThrow("startPull", -1, "endpoint-e")),
            assertThrows(DriverException.class, () -> registry.retainOrThrow(stale, "endpoint-e"))})
        {
            assertEquals(DriverError.UNKNOWN_PEER, e.kind());
            assertTrue(e.getMessage().contains("is not in the peer table of endpoint endpoint-e"), e.getMessage());
        }
        assertTrue(registry.unknownPeer("peer", stale, "endpoint-e").getMessage()
            .startsWith("peer: peer index " + stale), "the message starts with the operation and the index");
    }

    @Test
    void acquireOnAFullTableIsNoResourcesNamingTheBoard()
    {
        for (int k = 0; k < PeerRegistry.MAX_PEERS; k++)
        {
            registry.acquire("board " + k, key(k), "endpoint-e");
        }
        final DriverException full = assertThrows(DriverException.class,
            () -> registry.acquire("udp:late", key(PeerRegistry.MAX_PEERS), "endpoint-e"));
        assertEquals(DriverError.NO_RESOURCES, full.kind());
        assertTrue(full.getMessage().startsWith("acquirePeer udp:late on endpoint endpoint-e: "), full.getMessage());
    }
}
