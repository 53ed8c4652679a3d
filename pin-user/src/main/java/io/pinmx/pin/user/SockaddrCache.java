package io.pinmx.pin.user;

import io.pinmx.pin.provider.LibcSockets;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/**
 * Socket addresses of one {@link UdpTransport} both ways, cached so steady traffic allocates nothing: a destination
 * {@link InetSocketAddress} (peers and reply addresses are long-lived objects) to its encoded struct sockaddr, keyed
 * by identity; and a received struct sockaddr to the {@link InetSocketAddress} the dispatcher hands on, keyed by its
 * bytes. Direct-mapped: a collision only costs a re-encode. Not thread safe: one for the send side (under the
 * transport's send lock), one for the receive side (agent only).
 */
final class SockaddrCache
{
    private static final int ENTRIES = 64;
    private static final long STRIDE_BYTES = 32;
    private static final ValueLayout.OfShort PORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final int SOCKADDR_IN_BYTES = 16;
    private static final int SOCKADDR_IN6_BYTES = 28;

    private final int family;
    /** One slice per entry, made once: a slice made per send would allocate. */
    private final MemorySegment[] encoded = new MemorySegment[ENTRIES];
    private final InetSocketAddress[] encodedFor = new InetSocketAddress[ENTRIES];
    private final int[] encodedLength = new int[ENTRIES];
    private final InetSocketAddress[] decoded = new InetSocketAddress[ENTRIES];
    private final long[] decodedKey = new long[ENTRIES * 4];

    /** @param family the socket's: AF_INET or AF_INET6 (which takes IPv4 destinations as mapped addresses). */
    SockaddrCache(final Arena arena, final int family)
    {
        this.family = family;
        final MemorySegment area = arena.allocate(ENTRIES * STRIDE_BYTES, 8);
        for (int i = 0; i < ENTRIES; i++)
        {
            encoded[i] = area.asSlice(i * STRIDE_BYTES, STRIDE_BYTES);
        }
    }

    /**
     * @return the encoded sockaddr of {@code to} (its length is {@link #lengthOf}).
     * @throws IOException if an IPv4 socket is asked to reach an IPv6 address.
     */
    MemorySegment encode(final InetSocketAddress to) throws IOException
    {
        final int slot = System.identityHashCode(to) & (ENTRIES - 1);
        final MemorySegment at = encoded[slot];
        if (encodedFor[slot] != to)
        {
            encodedLength[slot] = write(to, at);
            encodedFor[slot] = to;
        }
        return at;
    }

    /** Bytes of the sockaddr {@link #encode} returned last for {@code to}. */
    int lengthOf(final InetSocketAddress to)
    {
        return encodedLength[System.identityHashCode(to) & (ENTRIES - 1)];
    }

    /** Encode {@code to} into {@code at} for this socket's family. @return its length. */
    int write(final InetSocketAddress to, final MemorySegment at) throws IOException
    {
        final InetAddress address = to.getAddress();
        if (address == null)
        {
            throw new IOException("destination " + to + " is unresolved");
        }
        final byte[] bytes = address.getAddress();
        at.fill((byte)0);
        at.set(PORT, 2, (short)to.getPort());
        if (family == LibcSockets.AF_INET)
        {
            if (!(address instanceof Inet4Address))
            {
                throw new IOException("destination " + to + " is IPv6 but the endpoint's socket is IPv4");
            }
            at.set(ValueLayout.JAVA_SHORT, 0, (short)LibcSockets.AF_INET);
            MemorySegment.copy(bytes, 0, at, ValueLayout.JAVA_BYTE, 4, 4);
            return SOCKADDR_IN_BYTES;
        }
        at.set(ValueLayout.JAVA_SHORT, 0, (short)LibcSockets.AF_INET6);
        if (bytes.length == 4)
        {
            at.set(ValueLayout.JAVA_SHORT, 18, (short)-1);
            MemorySegment.copy(bytes, 0, at, ValueLayout.JAVA_BYTE, 20, 4);
        }
        else
        {
            MemorySegment.copy(bytes, 0, at, ValueLayout.JAVA_BYTE, 8, 16);
        }
        return SOCKADDR_IN6_BYTES;
    }

    /** The address of a received sockaddr of {@code length} bytes, or null if it is not an IP one. */
    InetSocketAddress decode(final MemorySegment sockaddr, final int length)
    {
        if (length < SOCKADDR_IN_BYTES)
        {
            return null;
        }
        final long k0 = sockaddr.get(ValueLayout.JAVA_LONG, 0);
        final boolean v6 = length >= SOCKADDR_IN6_BYTES;
        final long k1 = v6 ? sockaddr.get(ValueLayout.JAVA_LONG, 8) : 0;
        final long k2 = v6 ? sockaddr.get(ValueLayout.JAVA_LONG, 16) : 0;
        final long k3 = v6 ? sockaddr.get(ValueLayout.JAVA_INT, 24) : 0;
        final long mixed = (k0 ^ k1 * 31 ^ k2 * 961 ^ k3) * 0x9E3779B97F4A7C15L;
        final int slot = (int)(mixed >>> 58) & (ENTRIES - 1);
        final int key = slot * 4;
        final InetSocketAddress cached = decoded[slot];
        if (cached != null && decodedKey[key] == k0 && decodedKey[key + 1] == k1 && decodedKey[key + 2] == k2 &&
            decodedKey[key + 3] == k3)
        {
            return cached;
        }
        final InetSocketAddress source = read(sockaddr, v6);
        if (source != null)
        {
            decoded[slot] = source;
            decodedKey[key] = k0;
            decodedKey[key + 1] = k1;
            decodedKey[key + 2] = k2;
            decodedKey[key + 3] = k3;
        }
        return source;
    }

    private static InetSocketAddress read(final MemorySegment sockaddr, final boolean v6)
    {
        final int port = sockaddr.get(PORT, 2) & 0xFFFF;
        final byte[] bytes = new byte[v6 ? 16 : 4];
        MemorySegment.copy(sockaddr, ValueLayout.JAVA_BYTE, v6 ? 8 : 4, bytes, 0, bytes.length);
        try
        {
            // getByAddress turns an IPv4-mapped IPv6 address back into the IPv4 one peers are known by
            return new InetSocketAddress(InetAddress.getByAddress(bytes), port);
        }
        catch (final UnknownHostException e)
        {
            return null;
        }
    }
}
