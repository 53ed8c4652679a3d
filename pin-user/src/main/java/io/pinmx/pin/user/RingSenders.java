package io.pinmx.pin.user;

import io.pinmx.pin.provider.PeerRegistry;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The senders of this endpoint's shared-memory ring records, by UDP port: each one's socket address, made once from
 * a record's address bytes, and its peer-table entry, so that steady traffic from a port allocates nothing and finds
 * its peer without a lookup by key. A record from a port whose address bytes differ replaces the port's sender. Used
 * by the agent only.
 */
final class RingSenders
{
    private static final int PORTS = 65536;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private final Sender[] byPort = new Sender[PORTS];

    /**
     * The sender of a record: its address bytes (at most 16, the record's address field) compared as two words.
     *
     * @return the sender, or null when the bytes are no IP address (the frame is dropped).
     */
    Sender sender(final int port, final MemorySegment record, final long addressOffset, final int addressLength)
    {
        final long low = word(record, addressOffset, addressLength);
        final long high = word(record, addressOffset + Long.BYTES, addressLength - Long.BYTES);
        final Sender cached = byPort[port];
        if (null != cached && cached.addressLength == addressLength && cached.low == low && cached.high == high)
        {
            return cached;
        }
        final byte[] bytes = new byte[addressLength];
        MemorySegment.copy(record, ValueLayout.JAVA_BYTE, addressOffset, bytes, 0, addressLength);
        try
        {
            final Sender sender = new Sender(new InetSocketAddress(InetAddress.getByAddress(bytes), port), addressLength,
                low, high);
            byPort[port] = sender;
            return sender;
        }
        catch (final UnknownHostException e)
        {
            return null;
        }
    }

    /** The first {@code bytes} (0 to 8; fewer than 0 read none) of the address field at {@code offset} as a word. */
    private static long word(final MemorySegment record, final long offset, final int bytes)
    {
        if (bytes <= 0)
        {
            return 0;
        }
        final long word = record.get(WORD, offset);
        return bytes >= Long.BYTES ? word : word & (-1L >>> (Long.SIZE - Byte.SIZE * bytes));
    }

    /** A sender: its socket address and the peer entry its frames were last held by. */
    static final class Sender
    {
        private final InetSocketAddress address;
        private final int addressLength;
        private final long low;
        private final long high;
        /** The peer its last frame was held by (base port and host), or null. */
        private UdpPeer peer;

        private Sender(final InetSocketAddress address, final int addressLength, final long low, final long high)
        {
            this.address = address;
            this.addressLength = addressLength;
            this.low = low;
            this.high = high;
        }

        InetSocketAddress address()
        {
            return address;
        }

        /**
         * The peer entry of this sender's endpoints at {@code basePort}, held for the event its frame becomes (until
         * {@link PeerRegistry#releaseHold}): the one its last frame found while it is still in its slot, else looked
         * up by key (and added when new).
         *
         * @return the entry, or null when the peer table is full.
         */
        UdpPeer holdPeer(final int basePort, final PeerRegistry<UdpPeer> peers, final UdpPeer.Key key)
        {
            final UdpPeer last = peer;
            if (null != last && last.basePort() == basePort && peers.hold(last))
            {
                peers.touch(last);
                return last;
            }
            final UdpPeer found = peers.holdSource(key.set(address.getAddress(), basePort));
            if (null != found)
            {
                peer = found;
            }
            return found;
        }
    }
}
