package io.pinmx.pin.user;

import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

import java.net.InetAddress;

/**
 * One user-space endpoint's peers, keyed by (IP address, base port), in a {@link PeerRegistry}. The library takes
 * references ({@link #acquire}, {@link #retain}, {@link #release}); the agent holds the entry of every frame it
 * queues as an event until poll has delivered it, and a pull holds its peer until its completion is delivered. A
 * frame that does not become an event (misaddressed, PULL, PULL_REPLY, a NACK of a PULL) never creates an entry.
 */
final class PeerTable
{
    private final PeerRegistry<UdpPeer> registry;

    PeerTable(final DriverCounters counters)
    {
        this.registry = new PeerRegistry<>(counters);
    }

    /** Application thread: the entry for {@code board} with one library reference; null when the table is full. */
    UdpPeer acquire(final BoardAddress board)
    {
        if (board.kind() != BoardAddress.Kind.UDP)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "acquirePeer: peer " + board +
                ": the user-space driver only reaches udp: boards");
        }
        final InetAddress host = board.inetAddress();
        final int basePort = board.basePort();
        return registry.findOrAdd(UdpPeer.keyHash(host, basePort), peer -> peer.is(host, basePort),
            index -> new UdpPeer(index, board), PeerRegistry.Use.REFERENCE);
    }

    /** @return the entry with one more library reference, or null when the index is not current. */
    UdpPeer retain(final int peerIndex)
    {
        return registry.retain(peerIndex);
    }

    void release(final int peerIndex, final Object owner)
    {
        registry.release(peerIndex, "releasePeer", owner);
    }

    /** Lock-free: the entry an index names, or null when it is not current. */
    UdpPeer entry(final int peerIndex)
    {
        return registry.entry(peerIndex);
    }

    /** Lock-free: the entry an index names, held until {@link #releaseHold}, or null when it is not current. */
    UdpPeer hold(final int peerIndex)
    {
        final UdpPeer peer = registry.entry(peerIndex);
        return null != peer && registry.hold(peer) ? peer : null;
    }

    /**
     * Agent: the entry of a frame's source, held for the event the frame becomes; added when new.
     *
     * @return the entry, or null when every slot is referenced or held.
     */
    UdpPeer holdSource(final InetAddress host, final int basePort)
    {
        final int keyHash = UdpPeer.keyHash(host, basePort);
        for (int probe = PeerRegistry.firstProbe(keyHash); ; probe = PeerRegistry.nextProbe(probe))
        {
            final UdpPeer peer = registry.probed(probe);
            if (null == peer)
            {
                break;
            }
            if (peer.keyHash() == keyHash && peer.is(host, basePort) && registry.hold(peer))
            {
                registry.touch(peer);
                return peer;
            }
        }
        return registry.findOrAdd(keyHash, peer -> peer.is(host, basePort),
            index -> new UdpPeer(index, BoardAddress.udp(host, basePort)), PeerRegistry.Use.HOLD);
    }

    void releaseHold(final UdpPeer peer)
    {
        registry.releaseHold(peer);
    }

    /** Poll: the event naming this index has been delivered. */
    void releaseHold(final int peerIndex)
    {
        final UdpPeer peer = registry.entry(peerIndex);
        if (null != peer)
        {
            registry.releaseHold(peer);
        }
    }

    /** @return why an index is refused (reclaimed slot), or "". */
    String describeIndex(final int peerIndex)
    {
        return registry.describeIndex(peerIndex);
    }

    String describeFull()
    {
        return registry.describeFull();
    }

    /** @return entries present, for tests and diagnostics. */
    int size()
    {
        return registry.size();
    }

    /** @return entries referenced or held, for tests and diagnostics. */
    int inUse()
    {
        return registry.inUse();
    }

    long reclaimed()
    {
        return registry.reclaimed();
    }
}
