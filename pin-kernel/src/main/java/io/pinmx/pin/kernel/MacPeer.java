package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.PeerEntry;
import io.pinmx.pin.provider.PeerKey;
import io.pinmx.pin.spi.BoardAddress;

/** One peer board of a kernel endpoint: its MAC address (the low 48 bits of a long, first byte highest). */
final class MacPeer extends PeerEntry
{
    private final long mac;

    MacPeer(final int index, final long mac)
    {
        super(index, keyHash(mac), toBoard(mac));
        this.mac = mac;
    }

    static int keyHash(final long mac)
    {
        return Long.hashCode(mac);
    }

    long mac()
    {
        return mac;
    }

    /** @return the MAC of an Ethernet board as the low 48 bits of a long, first byte highest. */
    static long macOf(final BoardAddress board)
    {
        final byte[] bytes = board.mac();
        long mac = 0;
        for (final byte b : bytes)
        {
            mac = mac << 8 | (b & 0xFF);
        }
        return mac;
    }

    /** The registry key of a kernel peer: its MAC. The poller keeps one and sets it per event. */
    static final class Key implements PeerKey<MacPeer>
    {
        private long mac;

        Key set(final long newMac)
        {
            this.mac = newMac;
            return this;
        }

        @Override
        public int keyHash()
        {
            return MacPeer.keyHash(mac);
        }

        @Override
        public boolean matches(final MacPeer entry)
        {
            return entry.mac() == mac;
        }

        @Override
        public MacPeer create(final int index)
        {
            return new MacPeer(index, mac);
        }
    }

    static BoardAddress toBoard(final long mac)
    {
        final byte[] bytes = new byte[BoardAddress.MAC_BYTES];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)(mac >>> (8 * (bytes.length - 1 - i)));
        }
        return BoardAddress.ethernet(bytes);
    }
}
