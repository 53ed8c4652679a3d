package io.pinmx.pin.spi;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Where a board is: either a UDP host and base port (endpoint {@code k} of the board listens on
 * base port + k) or an Ethernet MAC address. Text forms: {@code udp:127.0.0.1:40000},
 * {@code udp:[::1]:40000}, {@code eth:02:00:00:00:00:01}.
 */
public final class BoardAddress
{
    /** Length of an Ethernet MAC address. */
    public static final int MAC_BYTES = 6;
    /** Highest port number. */
    public static final int MAX_PORT = 65535;

    private static final String UDP_PREFIX = "udp:";
    private static final String ETH_PREFIX = "eth:";
    private static final HexFormat MAC_FORMAT = HexFormat.ofDelimiter(":");

    /** The carrier of a board's frames. */
    public enum Kind
    {
        /** MXoE frames as UDP datagram payloads (user-space driver). */
        UDP,
        /** MXoE frames after an Ethernet header with EtherType 0x86DF (kernel module). */
        ETHERNET
    }

    private final Kind kind;
    private final InetAddress inetAddress;
    private final int basePort;
    private final byte[] mac;

    private BoardAddress(final Kind kind, final InetAddress inetAddress, final int basePort, final byte[] mac)
    {
        this.kind = kind;
        this.inetAddress = inetAddress;
        this.basePort = basePort;
        this.mac = mac;
    }

    /**
     * @param address  host address of the board.
     * @param basePort port of endpoint 0, in 1..65535.
     * @return a UDP board address.
     */
    public static BoardAddress udp(final InetAddress address, final int basePort)
    {
        if (null == address)
        {
            throw new IllegalArgumentException("UDP board address: host address is null");
        }
        if (basePort < 1 || basePort > MAX_PORT)
        {
            throw new IllegalArgumentException("UDP board address: base port " + basePort + " not in 1.." + MAX_PORT);
        }
        return new BoardAddress(Kind.UDP, address, basePort, null);
    }

    /**
     * @param mac six bytes; copied.
     * @return an Ethernet board address.
     */
    public static BoardAddress ethernet(final byte[] mac)
    {
        if (null == mac || mac.length != MAC_BYTES)
        {
            throw new IllegalArgumentException(
                "Ethernet board address: MAC must be " + MAC_BYTES + " bytes, got " + (null == mac ? "null" : mac.length));
        }
        return new BoardAddress(Kind.ETHERNET, null, 0, mac.clone());
    }

    /**
     * Parse the text form. Host names are not resolved: UDP addresses must be literal IP addresses
     * so parsing never blocks on DNS.
     *
     * @param text {@code udp:IP:PORT}, {@code udp:[IPV6]:PORT} or {@code eth:XX:XX:XX:XX:XX:XX}.
     * @return the address.
     * @throws IllegalArgumentException naming the text and what is wrong with it.
     */
    public static BoardAddress parse(final String text)
    {
        if (null == text)
        {
            throw new IllegalArgumentException("board address is null");
        }
        if (text.startsWith(UDP_PREFIX))
        {
            return parseUdp(text, text.substring(UDP_PREFIX.length()));
        }
        if (text.startsWith(ETH_PREFIX))
        {
            return parseEthernet(text, text.substring(ETH_PREFIX.length()));
        }
        throw new IllegalArgumentException(
            "board address '" + text + "': expected udp:HOST_IP:BASE_PORT or eth:XX:XX:XX:XX:XX:XX");
    }

    private static BoardAddress parseUdp(final String text, final String rest)
    {
        final int colon = rest.lastIndexOf(':');
        if (colon <= 0 || colon == rest.length() - 1)
        {
            throw new IllegalArgumentException("board address '" + text + "': expected udp:HOST_IP:BASE_PORT");
        }
        String host = rest.substring(0, colon);
        final String portText = rest.substring(colon + 1);
        if (host.startsWith("["))
        {
            if (!host.endsWith("]"))
            {
                throw new IllegalArgumentException("board address '" + text + "': unterminated IPv6 literal");
            }
            host = host.substring(1, host.length() - 1);
        }
        else if (host.indexOf(':') >= 0)
        {
            throw new IllegalArgumentException("board address '" + text + "': IPv6 literals must be in brackets");
        }
        final int port;
        try
        {
            port = Integer.parseInt(portText);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("board address '" + text + "': port '" + portText + "' is not a number");
        }
        if (port < 1 || port > MAX_PORT)
        {
            throw new IllegalArgumentException("board address '" + text + "': port " + port + " not in 1.." + MAX_PORT);
        }
        if (!isIpLiteral(host))
        {
            throw new IllegalArgumentException("board address '" + text + "': '" + host + "' is not an IP address literal");
        }
        try
        {
            return udp(InetAddress.getByName(host), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("board address '" + text + "': bad IP address '" + host + "'", ex);
        }
    }

    private static boolean isIpLiteral(final String host)
    {
        if (host.isEmpty())
        {
            return false;
        }
        if (host.indexOf(':') >= 0)
        {
            return host.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0);
        }
        final String[] parts = host.split("\\.", -1);
        if (parts.length != 4)
        {
            return false;
        }
        for (final String part : parts)
        {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit) ||
                Integer.parseInt(part) > 255)
            {
                return false;
            }
        }
        return true;
    }

    private static BoardAddress parseEthernet(final String text, final String rest)
    {
        if (rest.length() != MAC_BYTES * 3 - 1)
        {
            throw new IllegalArgumentException("board address '" + text + "': expected eth:XX:XX:XX:XX:XX:XX");
        }
        try
        {
            return ethernet(MAC_FORMAT.parseHex(rest));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("board address '" + text + "': bad MAC address '" + rest + "'", ex);
        }
    }

    /**
     * @return the carrier.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * @return the host address of a UDP board.
     * @throws IllegalStateException for an Ethernet board.
     */
    public InetAddress inetAddress()
    {
        requireKind(Kind.UDP);
        return inetAddress;
    }

    /**
     * @return the port of endpoint 0 of a UDP board.
     * @throws IllegalStateException for an Ethernet board.
     */
    public int basePort()
    {
        requireKind(Kind.UDP);
        return basePort;
    }

    /**
     * @param endpointIndex endpoint of the board.
     * @return the socket address endpoint {@code endpointIndex} of this UDP board listens on.
     */
    public InetSocketAddress endpointSocketAddress(final int endpointIndex)
    {
        requireKind(Kind.UDP);
        final int port = basePort + endpointIndex;
        if (endpointIndex < 0 || port > MAX_PORT)
        {
            throw new IllegalArgumentException(
                "endpoint " + endpointIndex + " of board " + this + ": port " + port + " out of range");
        }
        return new InetSocketAddress(inetAddress, port);
    }

    /**
     * @return a copy of the MAC address of an Ethernet board.
     * @throws IllegalStateException for a UDP board.
     */
    public byte[] mac()
    {
        requireKind(Kind.ETHERNET);
        return mac.clone();
    }

    private void requireKind(final Kind expected)
    {
        if (kind != expected)
        {
            throw new IllegalStateException("board " + this + " is " + kind + ", not " + expected);
        }
    }

    /**
     * @return the text form accepted by {@link #parse(String)}.
     */
    @Override
    public String toString()
    {
        if (kind == Kind.ETHERNET)
        {
            return ETH_PREFIX + MAC_FORMAT.formatHex(mac);
        }
        final String host = inetAddress.getHostAddress();
        return UDP_PREFIX + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + basePort;
    }

    @Override
    public boolean equals(final Object other)
    {
        if (this == other)
        {
            return true;
        }
        if (!(other instanceof BoardAddress that) || kind != that.kind)
        {
            return false;
        }
        return kind == Kind.ETHERNET ?
            Arrays.equals(mac, that.mac) :
            basePort == that.basePort && inetAddress.equals(that.inetAddress);
    }

    @Override
    public int hashCode()
    {
        return kind == Kind.ETHERNET ? Arrays.hashCode(mac) : 31 * inetAddress.hashCode() + basePort;
    }
}
