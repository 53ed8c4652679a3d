package io.pinmx.pin.provider;

import io.pinmx.pin.spi.BoardAddress;

/**
 * One peer of an endpoint as the {@link PeerRegistry} keeps it: its index and board, fixed for the entry's life,
 * and the bookkeeping that decides when the slot may be reclaimed. A provider subclasses it with how it reaches
 * the board (socket address, MAC). An entry object is never reused: a reclaimed slot gets a new entry with a new
 * index, so a thread still holding the old object sends where the old index pointed, never to the new peer.
 */
public abstract class PeerEntry
{
    private final int index;
    private final int keyHash;
    private final BoardAddress board;
    /** The library's references ({@code acquirePeer}, {@code retainPeer}); read and written under the registry lock. */
    int references;
    /** Events queued or being delivered, and pulls in flight, naming this entry; updated atomically. */
    volatile int holds;
    /** Registry tick of the last use; plain and racy on purpose: it only orders reclaim candidates. */
    long lastUsedTick;

    /**
     * @param index   the index the registry gave ({@link PeerRegistry#add}'s factory argument).
     * @param keyHash hash of the provider's key (address and port, MAC), as given to the registry.
     * @param board   the board this entry reaches.
     */
    protected PeerEntry(final int index, final int keyHash, final BoardAddress board)
    {
        this.index = index;
        this.keyHash = keyHash;
        this.board = board;
    }

    /** @return the peer index: slot in the low bits, the slot's generation above. */
    public final int index()
    {
        return index;
    }

    /** @return hash of the provider's key. */
    public final int keyHash()
    {
        return keyHash;
    }

    /** @return the board. */
    public final BoardAddress board()
    {
        return board;
    }
}
