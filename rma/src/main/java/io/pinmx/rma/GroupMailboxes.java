package io.pinmx.rma;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The exchange of groups other than the world: one-sided messages between members through mailboxes in a world
 * allocation. Rank t's slice holds two slots per sender s (alternating), each a stamp, a total length and one chunk;
 * s puts the chunk and length, then the stamp (the s-to-t message count), and t waits on its own memory until the
 * stamp arrives. Puts from one origin to one target land in order on both tiers, so the stamp comes after its data.
 * Two slots suffice: a member sends its next-but-one message to t only after a later exchange that t entered, so t
 * has read the older one. A payload longer than a chunk travels in rounds, as many as the longest member's needs.
 */
final class GroupMailboxes implements RmaGroup.Exchange
{
    static final long CHUNK_BYTES = 16 * 1024;
    private static final long STAMP_OFFSET = 0;
    private static final long LENGTH_OFFSET = Long.BYTES;
    private static final long DATA_OFFSET = 2 * Long.BYTES;
    static final long SLOT_BYTES = DATA_OFFSET + CHUNK_BYTES;
    private static final int SLOTS_PER_SENDER = 2;

    private final Transfers transfers;
    private final Ranks ranks;
    private final RmaAllocation boxes;
    private final int self;
    private final long[] sent;
    private final long[] received;
    /** Native, the source of every put (blocking, so it is free again when the put returns). */
    private final MemorySegment outgoing;
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.lockWait();

    GroupMailboxes(final Transfers transfers, final Ranks ranks, final RmaAllocation boxes, final int self,
        final Arena arena)
    {
        this.transfers = transfers;
        this.ranks = ranks;
        this.boxes = boxes;
        this.self = self;
        this.sent = new long[ranks.size()];
        this.received = new long[ranks.size()];
        this.outgoing = arena.allocate(SLOT_BYTES, Long.BYTES);
    }

    /** @return the bytes of one rank's mailbox slice in a job of {@code worldSize} ranks. */
    static long sliceBytes(final int worldSize)
    {
        return worldSize * SLOTS_PER_SENDER * SLOT_BYTES;
    }

    @Override
    public List<byte[]> allGather(final RmaGroup group, final byte[] mine)
    {
        final int n = group.size();
        final int me = group.rank();
        final byte[][] all = new byte[n][];
        all[me] = mine;
        long rounds = 1;
        for (long round = 0; round < rounds; round++)
        {
            final long from = round * CHUNK_BYTES;
            final int length = (int)Math.max(0, Math.min(CHUNK_BYTES, mine.length - from));
            for (int g = 0; g < n; g++)
            {
                if (g != me)
                {
                    send(group.worldRank(g), mine, (int)Math.min(from, mine.length), length);
                }
            }
            for (int g = 0; g < n; g++)
            {
                if (g != me)
                {
                    all[g] = receive(group.worldRank(g), all[g], from);
                }
            }
            if (0 == round)
            {
                for (final byte[] theirs : all)
                {
                    rounds = Math.max(rounds, (theirs.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
                }
            }
        }
        final List<byte[]> out = new ArrayList<>(n);
        for (final byte[] theirs : all)
        {
            out.add(theirs);
        }
        return out;
    }

    @Override
    public void barrier(final RmaGroup group)
    {
        allGather(group, new byte[0]);
    }

    private void send(final int target, final byte[] payload, final int from, final int length)
    {
        final long stamp = ++sent[target];
        final long slot = slot(self, stamp);
        outgoing.set(ValueLayout.JAVA_LONG, 0, payload.length);
        MemorySegment.copy(MemorySegment.ofArray(payload), from, outgoing, Long.BYTES, length);
        transfers.put(outgoing.asSlice(0, Long.BYTES + length), boxes, target, slot + LENGTH_OFFSET,
            transfers.blocking());
        transfers.awaitBlocking();
        // On the shared-memory tier the puts are this thread's stores: the stamp must not become visible first.
        VarHandle.storeStoreFence();
        outgoing.set(ValueLayout.JAVA_LONG, 0, stamp);
        transfers.put(outgoing.asSlice(0, Long.BYTES), boxes, target, slot + STAMP_OFFSET, transfers.blocking());
        transfers.awaitBlocking();
    }

    /** @return the sender's payload so far, this round's chunk copied in at {@code from}. */
    private byte[] receive(final int sender, final byte[] sofar, final long from)
    {
        final long stamp = ++received[sender];
        final long slot = slot(sender, stamp);
        final MemorySegment mine = boxes.local();
        idle.reset();
        while (SharedMemoryTier.loadAcquire(mine, slot + STAMP_OFFSET) != stamp)
        {
            if (idle.isBlocking())
            {
                ranks.checkAlive(sender);
            }
            idle.idle();
        }
        final long total = mine.get(ValueLayout.JAVA_LONG, slot + LENGTH_OFFSET);
        final byte[] payload = null == sofar ? new byte[Math.toIntExact(total)] : sofar;
        final long length = Math.max(0, Math.min(CHUNK_BYTES, total - from));
        MemorySegment.copy(mine, slot + DATA_OFFSET, MemorySegment.ofArray(payload), from, length);
        return payload;
    }

    private static long slot(final int sender, final long stamp)
    {
        return (sender * SLOTS_PER_SENDER + (stamp & 1)) * SLOT_BYTES;
    }
}
