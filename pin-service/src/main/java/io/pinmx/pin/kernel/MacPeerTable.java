package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.DriverCounters;

/**
 * One kernel endpoint's peers, keyed by MAC address, in a {@link PeerRegistry}. The module delivers only frames
 * addressed to the endpoint (right index, and right session or a CONNECT_REQUEST), so entries come from the
 * library ({@link #acquire}, {@link #retain}) and from the sources of delivered frames, each held while its event
 * is in the handler; a pull holds its peer from the PINMX_IOC_PULL until its end event has been delivered.
 */
final class MacPeerTable
{
    private final PeerRegistry<MacPeer> registry;

    MacPeerTable(final DriverCounters counters)
    {
        this.registry = new PeerRegistry<>(counters);
    }

    /** @return the entry with one library reference, or null when the table is full. */
    MacPeer acquire(final long mac)
    {
        return registry.findOrAdd(MacPeer.keyHash(mac), peer -> peer.mac() == mac, index -> new MacPeer(index, mac),
            PeerRegistry.Use.REFERENCE);
    }

    /** @return the entry with one more library reference, or null when the index is not current. */
    MacPeer retain(final int peerIndex)
    {
        return registry.retain(peerIndex);
    }

    void release(final int peerIndex, final Object owner)
    {
        registry.release(peerIndex, "releasePeer", owner);
    }

    /** Lock-free: the entry an index names, or null when it is not current. */
    MacPeer entry(final int peerIndex)
    {
        return registry.entry(peerIndex);
    }

    /** Lock-free: the entry an index names, held until {@link #releaseHold}, or null when it is not current. */
    MacPeer hold(final int peerIndex)
    {
        final MacPeer peer = registry.entry(peerIndex);
        return null != peer && registry.hold(peer) ? peer : null;
    }

    /**
     * Poll: the entry of an event's source MAC, held until {@link #releaseHold}; added when new.
     *
     * @return the entry, or null when every slot is referenced or held.
     */
    MacPeer holdSource(final long mac)
    {
        final int keyHash = MacPeer.keyHash(mac);
        for (int probe = PeerRegistry.firstProbe(keyHash); ; probe = PeerRegistry.nextProbe(probe))
        {
            final MacPeer peer = registry.probed(probe);
            if (null == peer)
            {
                break;
            }
            if (peer.mac() == mac && registry.hold(peer))
            {
                registry.touch(peer);
                return peer;
            }
        }
        return registry.findOrAdd(keyHash, peer -> peer.mac() == mac, index -> new MacPeer(index, mac),
            PeerRegistry.Use.HOLD);
    }

    void releaseHold(final MacPeer peer)
    {
        registry.releaseHold(peer);
    }

    String describeIndex(final int peerIndex)
    {
        return registry.describeIndex(peerIndex);
    }

    String describeFull()
    {
        return registry.describeFull();
    }

    int size()
    {
        return registry.size();
    }

    int inUse()
    {
        return registry.inUse();
    }
}
