package io.pinmx.pin.user;

import io.pinmx.pin.spi.BoardAddress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;

/**
 * One endpoint's peers: board address to small index and back, plus per (peer, endpoint) the UDP socket address
 * and whether the board is on this host. Adding is serialised; looking up a datagram's source by
 * (address, base port) is an open-addressing probe that allocates nothing.
 */
final class PeerTable
{
    static final int MAX_PEERS = 4096;
    private static final int HASH_SLOTS = MAX_PEERS * 2;

    private final BoardAddress[] boards = new BoardAddress[MAX_PEERS];
    private final InetAddress[] hosts = new InetAddress[MAX_PEERS];
    private final int[] basePorts = new int[MAX_PEERS];
    private final boolean[] sameHost = new boolean[MAX_PEERS];
    private final InetSocketAddress[][] endpointAddresses = new InetSocketAddress[MAX_PEERS][];
    private final int[] hashToIndexPlusOne = new int[HASH_SLOTS];
    private volatile int count;

    /** Index of {@code board}, added on first use. */
    synchronized int indexOf(final BoardAddress board)
    {
        if (board.kind() != BoardAddress.Kind.UDP)
        {
            throw new IllegalArgumentException("peer " + board + ": the user-space driver only reaches udp: boards");
        }
        final int existing = find(board.inetAddress(), board.basePort());
        if (existing >= 0)
        {
            return existing;
        }
        final int index = count;
        if (index == MAX_PEERS)
        {
            throw new IllegalStateException("peer table full (" + MAX_PEERS + " peers) adding " + board);
        }
        boards[index] = board;
        hosts[index] = board.inetAddress();
        basePorts[index] = board.basePort();
        sameHost[index] = isLocalAddress(board.inetAddress());
        endpointAddresses[index] = new InetSocketAddress[256];
        int slot = hash(board.inetAddress(), board.basePort());
        while (hashToIndexPlusOne[slot] != 0)
        {
            slot = (slot + 1) & (HASH_SLOTS - 1);
        }
        hashToIndexPlusOne[slot] = index + 1;
        count = index + 1;
        return index;
    }

    /** Index of the board that sent from {@code host} with this base port, or -1 if unknown. */
    int find(final InetAddress host, final int basePort)
    {
        int slot = hash(host, basePort);
        while (true)
        {
            final int indexPlusOne = hashToIndexPlusOne[slot];
            if (indexPlusOne == 0)
            {
                return -1;
            }
            final int index = indexPlusOne - 1;
            if (index < count && basePorts[index] == basePort && hosts[index].equals(host))
            {
                return index;
            }
            slot = (slot + 1) & (HASH_SLOTS - 1);
        }
    }

    boolean isValid(final int index)
    {
        return index >= 0 && index < count;
    }

    BoardAddress board(final int index)
    {
        return boards[index];
    }

    boolean isSameHost(final int index)
    {
        return sameHost[index];
    }

    int basePort(final int index)
    {
        return basePorts[index];
    }

    InetSocketAddress socketAddress(final int index, final int endpointIndex)
    {
        final InetSocketAddress[] cache = endpointAddresses[index];
        InetSocketAddress address = cache[endpointIndex];
        if (address == null)
        {
            address = boards[index].endpointSocketAddress(endpointIndex);
            cache[endpointIndex] = address;
        }
        return address;
    }

    static boolean isLocalAddress(final InetAddress address)
    {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress())
        {
            return true;
        }
        try
        {
            return NetworkInterface.getByInetAddress(address) != null;
        }
        catch (final SocketException e)
        {
            return false;
        }
    }

    private static int hash(final InetAddress host, final int basePort)
    {
        final int h = host.hashCode() * 31 + basePort;
        return (h ^ (h >>> 16)) & (HASH_SLOTS - 1);
    }
}
