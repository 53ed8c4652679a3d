package io.pinmx.pin.kernel;

import io.pinmx.pin.spi.BoardAddress;

/**
 * One endpoint's peers on an Ethernet link: MAC address (as the low 48 bits of a long) to small index and back.
 * Adding is serialised; finding the index of an event's source MAC is an open-addressing probe that allocates
 * nothing, safe against a concurrent add because a slot is published (volatile count) only once filled.
 */
final class MacPeerTable
{
    static final int MAX_PEERS = 4096;
    private static final int HASH_SLOTS = MAX_PEERS * 2;
    /** Marks a used hash slot, so the all-zero MAC of {@code lo} is a valid key. */
    private static final long USED = 1L << 48;

    private final long[] macs = new long[MAX_PEERS];
    private final BoardAddress[] boards = new BoardAddress[MAX_PEERS];
    private final long[] slotKeys = new long[HASH_SLOTS];
    private final int[] slotIndexes = new int[HASH_SLOTS];
    private volatile int count;

    /** @return the index of the board with this MAC, added on first use. */
    synchronized int indexOf(final long mac)
    {
        final int existing = find(mac);
        if (existing >= 0)
        {
            return existing;
        }
        final int index = count;
        if (index == MAX_PEERS)
        {
            throw new IllegalStateException("peer table full (" + MAX_PEERS + " peers) adding " + toBoard(mac));
        }
        macs[index] = mac;
        boards[index] = toBoard(mac);
        int slot = hash(mac);
        while (slotKeys[slot] != 0)
        {
            slot = (slot + 1) & (HASH_SLOTS - 1);
        }
        slotIndexes[slot] = index;
        slotKeys[slot] = mac | USED;
        count = index + 1;
        return index;
    }

    /** @return the index of the board with this MAC, or -1. */
    int find(final long mac)
    {
        final int known = count;
        final long key = mac | USED;
        int slot = hash(mac);
        while (true)
        {
            final long slotKey = slotKeys[slot];
            if (slotKey == 0)
            {
                return -1;
            }
            if (slotKey == key && slotIndexes[slot] < known)
            {
                return slotIndexes[slot];
            }
            slot = (slot + 1) & (HASH_SLOTS - 1);
        }
    }

    boolean isValid(final int index)
    {
        return index >= 0 && index < count;
    }

    long mac(final int index)
    {
        return macs[index];
    }

    BoardAddress board(final int index)
    {
        return boards[index];
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

    static BoardAddress toBoard(final long mac)
    {
        final byte[] bytes = new byte[BoardAddress.MAC_BYTES];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)(mac >>> (8 * (bytes.length - 1 - i)));
        }
        return BoardAddress.ethernet(bytes);
    }

    private static int hash(final long mac)
    {
        final long h = mac * 0x9E3779B97F4A7C15L;
        return (int)(h >>> 40) & (HASH_SLOTS - 1);
    }
}
