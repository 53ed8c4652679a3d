package io.pinmx.pin.user;

import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.DriverCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The ring's senders by port: one sender object while a port's address bytes stay the same (whatever lies in the
 * address field past them), a new one when they change, none for bytes that are no address; the peer entry a
 * sender's last frame found is reused while it is in its slot and the frame's base port is its own, and looked up
 * again otherwise.
 */
class RingSendersTest
{
    private static final int PORT = 40_001;
    private static final int BASE_PORT = 40_000;
    private static final long ADDRESS_OFFSET = 16;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment record = arena.allocate(64, 8);
    private final RingSenders senders = new RingSenders();
    private final PeerRegistry<UdpPeer> peers = new PeerRegistry<>(new DriverCounters());
    private final UdpPeer.Key key = new UdpPeer.Key();

    @AfterEach
    void close()
    {
        arena.close();
    }

    @Test
    void aPortKeepsItsSenderWhileItsAddressBytesStayTheSame() throws UnknownHostException
    {
        writeAddress(new byte[] {127, 0, 0, 1});
        final RingSenders.Sender first = senders.sender(PORT, record, ADDRESS_OFFSET, 4);
        assertEquals(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), PORT), first.address());
        record.set(ValueLayout.JAVA_BYTE, ADDRESS_OFFSET + 4, (byte)0x5A);
        record.set(ValueLayout.JAVA_BYTE, ADDRESS_OFFSET + 15, (byte)0x7F);
        assertSame(first, senders.sender(PORT, record, ADDRESS_OFFSET, 4), "bytes past the address's length do not count");

        writeAddress(new byte[] {127, 0, 0, 2});
        final RingSenders.Sender moved = senders.sender(PORT, record, ADDRESS_OFFSET, 4);
        assertNotSame(first, moved, "other address bytes make a new sender");
        assertEquals(InetAddress.getByAddress(new byte[] {127, 0, 0, 2}), moved.address().getAddress());

        final byte[] loopback6 = new byte[16];
        loopback6[15] = 1;
        writeAddress(loopback6);
        final RingSenders.Sender six = senders.sender(PORT, record, ADDRESS_OFFSET, 16);
        assertEquals(InetAddress.getByAddress(loopback6), six.address().getAddress());
        assertSame(six, senders.sender(PORT, record, ADDRESS_OFFSET, 16));
        assertNotSame(six, senders.sender(PORT + 1, record, ADDRESS_OFFSET, 16), "each port has its own sender");
    }

    @Test
    void bytesThatAreNoAddressGiveNoSender()
    {
        writeAddress(new byte[] {127, 0, 0, 1, 9});
        assertNull(senders.sender(PORT, record, ADDRESS_OFFSET, 0), "an empty address");
        assertNull(senders.sender(PORT, record, ADDRESS_OFFSET, 5), "5 address bytes");
        assertNotNull(senders.sender(PORT, record, ADDRESS_OFFSET, 4));
        assertNull(senders.sender(PORT, record, ADDRESS_OFFSET, 5), "a cached sender of 4 bytes does not answer 5");
    }

    @Test
    void theLastPeerIsHeldAgainWhileItIsInItsSlotAndOfTheFramesBasePort()
    {
        writeAddress(new byte[] {127, 0, 0, 1});
        final RingSenders.Sender sender = senders.sender(PORT, record, ADDRESS_OFFSET, 4);
        final UdpPeer first = sender.holdPeer(BASE_PORT, peers, key);
        assertSame(first, sender.holdPeer(BASE_PORT, peers, key));
        assertEquals(BASE_PORT, first.basePort());
        assertEquals(1, peers.size());

        final UdpPeer other = sender.holdPeer(BASE_PORT - 1, peers, key);
        assertNotSame(first, other, "a frame naming another source endpoint has another base port");
        assertEquals(BASE_PORT - 1, other.basePort());
        assertSame(first, sender.holdPeer(BASE_PORT, peers, key), "found again by key");
        assertEquals(2, peers.size());
        assertEquals(2, peers.inUse(), "each hold is counted");
    }

    @Test
    void aPeerReclaimedSinceTheLastFrameIsLookedUpAgain()
    {
        writeAddress(new byte[] {127, 0, 0, 1});
        final RingSenders.Sender sender = senders.sender(PORT, record, ADDRESS_OFFSET, 4);
        final UdpPeer first = sender.holdPeer(BASE_PORT, peers, key);
        peers.releaseHold(first);
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        UdpPeer last = null;
        for (int i = 1; i < PeerRegistry.MAX_PEERS; i++)
        {
            last = peers.findOrAdd(key.set(loopback, 1 + i), PeerRegistry.Use.HOLD);
        }
        assertNotNull(peers.findOrAdd(key.set(loopback, 1), PeerRegistry.Use.HOLD), "the idle first entry's slot");
        assertNull(peers.entry(first.index()), "the first entry was reclaimed");
        peers.releaseHold(last);

        final UdpPeer again = sender.holdPeer(BASE_PORT, peers, key);
        assertNotNull(again);
        assertNotSame(first, again);
        assertEquals(BASE_PORT, again.basePort());
        assertSame(again, peers.entry(again.index()), "the entry in its slot now");
    }

    private void writeAddress(final byte[] bytes)
    {
        record.fill((byte)0);
        MemorySegment.copy(bytes, 0, record, ValueLayout.JAVA_BYTE, ADDRESS_OFFSET, bytes.length);
    }
}
