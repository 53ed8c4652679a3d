package io.pinmx.pin.user;

import io.pinmx.pin.provider.PeerEntry;
import io.pinmx.pin.provider.PeerKey;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;

/**
 * One peer board of a user-space endpoint: its IP address and base port, whether it is on this host, and the
 * socket address of each of its endpoints, built on first use. Immutable but for that cache (whose racy fills are
 * harmless: every fill builds an equal, immutable address).
 */
final class UdpPeer extends PeerEntry
{
    private final InetAddress host;
    private final int basePort;
    private final boolean sameHost;
    private final InetSocketAddress[] endpointAddresses = new InetSocketAddress[256];

    UdpPeer(final int index, final BoardAddress board)
    {
        super(index, keyHash(board.inetAddress(), board.basePort()), board);
        this.host = board.inetAddress();
        this.basePort = board.basePort();
        this.sameHost = isLocalAddress(host);
    }

    static int keyHash(final InetAddress host, final int basePort)
    {
        return host.hashCode() * 31 + basePort;
    }

    boolean is(final InetAddress otherHost, final int otherBasePort)
    {
        return basePort == otherBasePort && host.equals(otherHost);
    }

    boolean isSameHost()
    {
        return sameHost;
    }

    int basePort()
    {
        return basePort;
    }

    InetSocketAddress socketAddress(final int endpointIndex)
    {
        InetSocketAddress address = endpointAddresses[endpointIndex];
        if (null == address)
        {
            address = board().endpointSocketAddress(endpointIndex);
            endpointAddresses[endpointIndex] = address;
        }
        return address;
    }

    /**
     * The registry key of a UDP peer: address and base port. The agent keeps one and sets it per received frame;
     * {@link #of} makes one for {@code acquirePeer}.
     */
    static final class Key implements PeerKey<UdpPeer>
    {
        private InetAddress host;
        private int basePort;
        private BoardAddress board;

        /** @throws DriverException BAD_ARGUMENT unless the board is a udp: board. */
        static Key of(final BoardAddress board)
        {
            if (board.kind() != BoardAddress.Kind.UDP)
            {
                throw new DriverException(DriverError.BAD_ARGUMENT, "acquirePeer: peer " + board +
                    ": the user-space driver only reaches udp: boards");
            }
            final Key key = new Key().set(board.inetAddress(), board.basePort());
            key.board = board;
            return key;
        }

        Key set(final InetAddress host, final int basePort)
        {
            this.host = host;
            this.basePort = basePort;
            this.board = null;
            return this;
        }

        @Override
        public int keyHash()
        {
            return UdpPeer.keyHash(host, basePort);
        }

        @Override
        public boolean matches(final UdpPeer entry)
        {
            return entry.is(host, basePort);
        }

        @Override
        public UdpPeer create(final int index)
        {
            return new UdpPeer(index, null != board ? board : BoardAddress.udp(host, basePort));
        }
    }

    private static boolean isLocalAddress(final InetAddress address)
    {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress())
        {
            return true;
        }
        try
        {
            return null != NetworkInterface.getByInetAddress(address);
        }
        catch (final SocketException e)
        {
            return false;
        }
    }
}
