package io.pinmx.pin.user;

import io.pinmx.pin.spi.PullSpec;

/**
 * One preallocated pull of a {@link PullSlots} pool: the pull's request, its peer (held from submit until the end
 * event has been delivered), its progress and its blocks in flight. The application thread fills the request in
 * {@link PullSlots#claim} under the pool's lock; from then on only the agent reads or writes the slot, until it
 * hands it back with {@link PullSlots#free}.
 * <p>
 * The wire handle is the slot index plus a generation that changes on every claim and free, so a late reply to a
 * finished pull names a generation that no longer matches.
 */
final class PullSlot
{
    static final int SLOT_BITS = 8;
    private static final int GENERATION_MASK = 0xFFFFFF;

    final int index;
    private final PullBlock[] blocks;
    private PullState state = PullState.FREE;
    private int generation;

    int handle;
    UdpPeer peer;
    int remoteEndpoint;
    int remoteSession;
    /** The remote region's key when it is exposed for remote writes, else 0. */
    long remoteKey;
    int remoteRegion;
    long remoteOffset;
    int localRegion;
    long localOffset;
    long length;
    /** UDP pulls: the pull offset of the next block to request, and bytes of blocks complete. */
    long nextRequestOffset;
    /** Whether its replies may be read straight into its local region ({@link ReplyPlacement}). */
    boolean placeable;
    long bytesDone;

    PullSlot(final int index, final int blocksInFlight)
    {
        this.index = index;
        this.blocks = new PullBlock[blocksInFlight];
        for (int b = 0; b < blocksInFlight; b++)
        {
            blocks[b] = new PullBlock();
        }
    }

    void assign(final PullSpec spec, final UdpPeer from)
    {
        nextGeneration();
        handle = spec.pullHandle();
        peer = from;
        remoteEndpoint = spec.remoteEndpointIndex();
        remoteSession = spec.remoteSessionId();
        remoteRegion = spec.remoteRegionId();
        remoteKey = spec.remoteKey();
        remoteOffset = spec.remoteOffset();
        localRegion = spec.localRegionId();
        localOffset = spec.localOffset();
        length = spec.length();
        nextRequestOffset = 0;
        bytesDone = 0;
        state = PullState.SUBMITTED;
    }

    /** Agent: the pull goes over UDP, no block requested yet. */
    void activate()
    {
        for (final PullBlock block : blocks)
        {
            block.clear();
        }
        placeable = true;
        state = PullState.ACTIVE;
    }

    void clear()
    {
        state = PullState.FREE;
        peer = null;
        nextGeneration();
    }

    PullState state()
    {
        return state;
    }

    int wireHandle()
    {
        return generation << SLOT_BITS | index;
    }

    PullBlock[] blocks()
    {
        return blocks;
    }

    /** @return the bytes of the blocks still requested, now cleared (the pull ended before they arrived). */
    long releaseBlocks()
    {
        long released = 0;
        for (final PullBlock block : blocks)
        {
            if (block.inUse())
            {
                released += block.length();
                block.clear();
            }
        }
        return released;
    }

    /** @return the block in flight holding {@code pullOffset}, or null. */
    PullBlock blockOf(final long pullOffset)
    {
        for (final PullBlock block : blocks)
        {
            if (block.covers(pullOffset))
            {
                return block;
            }
        }
        return null;
    }

    String describePeer()
    {
        return "peer " + peer.index() + " (" + peer.board() + " endpoint " + remoteEndpoint + ")";
    }

    private void nextGeneration()
    {
        generation = (generation + 1) & GENERATION_MASK;
    }
}
