package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * ARMCI's two-sided messages ({@code armci_msg_snd}, {@code armci_msg_rcv}, {@code armci_msg_rcvany}) through the
 * endpoint {@link MessagePeers} gives, their match info apart from the one-sided layer's own ({@link RmaTags#MESSAGE})
 * and carrying the sender's rank beside the tag, so that a receive needs no partner of its own: a receiving rank may
 * never have connected to its sender. A receive probes first, so a message longer than the caller's buffer is refused, naming both sizes, and stays queued. Messages from
 * one rank with one tag arrive in the order sent; a message longer than the endpoint's eager size goes by rendezvous.
 * A receive into heap or thread-confined memory, and a send from confined memory, go through a staging buffer this
 * class keeps: the endpoint writes a receive in place, and its progress may run on another thread. Used by the
 * thread that issues the Rma's operations.
 */
final class TwoSidedMessages
{
    /**
     * A wait returns this often to check that the rank awaited is alive: a rank that exited never answers, and the
     * endpoint learns of it only after its peer timeout.
     */
    private static final Duration WAIT_SLICE = Duration.ofMillis(1);
    private static final long TAG_MASK = 0xFFFF_FFFFL;
    private static final int SENDER_SHIFT = Integer.SIZE;
    private static final long SENDER_MASK = 0xFFFFL << SENDER_SHIFT;
    /** Ranks the sender field holds: a job with more is refused two-sided messages. */
    static final int MAX_RANKS = (int)(SENDER_MASK >>> SENDER_SHIFT) + 1;
    private static final long ANY_SENDER_MASK = RmaTags.KIND_MASK | TAG_MASK;
    private static final long ONE_SENDER_MASK = ANY_SENDER_MASK | SENDER_MASK;
    private static final int ANY_RANK = -1;

    private final MessagePeers peers;
    private final Ranks ranks;
    private final int self;
    private final Status probed = new Status();
    private Arena stagingArena;
    private MemorySegment staging = MemorySegment.NULL;

    TwoSidedMessages(final MessagePeers peers, final Ranks ranks)
    {
        this.peers = peers;
        this.ranks = ranks;
        this.self = ranks.self();
    }

    /** Blocks until the buffer may be reused: an eager message once sent, a longer one once its receiver pulled it. */
    void send(final int tag, final MemorySegment buffer, final int to)
    {
        checkPeer(to, "message destination");
        if (null == buffer)
        {
            throw new IllegalArgumentException("message to rank " + to + ": the buffer is null");
        }
        final Partner partner = peers.partner(to);
        // The endpoint stages a heap buffer itself; one confined to this thread it refuses.
        final MemorySegment from = Pieces.shareable(buffer) ? buffer :
            staged(buffer.byteSize()).copyFrom(buffer);
        final Request send;
        try
        {
            send = peers.endpoint().isend(partner, matchInfo(tag, self), from);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(to, ex);
        }
        finish(send, to);
    }

    /**
     * Starts a send of the buffer's bytes, which the endpoint reads until the handle completes it: never staged, so
     * heap or shared memory, not memory confined to this thread.
     */
    void nbSend(final int tag, final MemorySegment buffer, final int to, final RmaHandle handle)
    {
        checkPeer(to, "message destination");
        if (null == buffer)
        {
            throw new IllegalArgumentException("message to rank " + to + ": the buffer is null");
        }
        if (!Pieces.shareable(buffer))
        {
            throw new IllegalArgumentException("non-blocking message to rank " + to + ": the buffer " + buffer +
                " is confined to a thread (the endpoint reads it after the call: heap or shared memory)");
        }
        final Partner partner = peers.partner(to);
        handle.begin();
        final Request send;
        try
        {
            send = peers.endpoint().isend(partner, matchInfo(tag, self), buffer);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(to, ex);
        }
        handle.add(new SentMessage(send, to));
    }

    /** @return the message's length; {@code from} is a world rank. */
    long receive(final int tag, final MemorySegment buffer, final int from)
    {
        checkPeer(from, "message source");
        return take(tag, buffer, from).bytes();
    }

    /** @return the sender and the message's length. */
    ReceivedMessage receiveAny(final int tag, final MemorySegment buffer)
    {
        return take(tag, buffer, ANY_RANK);
    }

    private ReceivedMessage take(final int tag, final MemorySegment buffer, final int from)
    {
        if (null == buffer || buffer.isReadOnly())
        {
            throw new IllegalArgumentException((ANY_RANK == from ? "message from any rank" : "message from rank " +
                from) + ": the buffer " + (null == buffer ? "is null" : buffer + " is read-only"));
        }
        final Endpoint endpoint = peers.endpoint();
        final long match = matchInfo(tag, ANY_RANK == from ? 0 : from);
        final long mask = ANY_RANK == from ? ANY_SENDER_MASK : ONE_SENDER_MASK;
        while (!endpoint.probe(MatchInfo.ANY_SOURCE, match, mask, probed, WAIT_SLICE))
        {
            checkAlive(from);
        }
        final int sender = (int)((probed.matchInfo() & SENDER_MASK) >>> SENDER_SHIFT);
        final long length = probed.messageLength();
        if (length > buffer.byteSize())
        {
            throw new IllegalArgumentException("message of " + length + " bytes from rank " + sender + " (tag " + tag +
                ") does not fit the " + buffer.byteSize() + "-byte buffer: it stays queued for a receive with room");
        }
        final boolean direct = buffer.isNative() && Pieces.shareable(buffer);
        final MemorySegment into = direct ? buffer : staged(length);
        final Request receive;
        try
        {
            receive = endpoint.irecv(probed.source(), matchInfo(tag, sender), ONE_SENDER_MASK, into);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(sender, ex);
        }
        finish(receive, sender);
        if (!direct)
        {
            MemorySegment.copy(into, 0, buffer, 0, length);
        }
        return new ReceivedMessage(sender, length);
    }

    /** @return the longest message that goes eagerly; a longer one goes by rendezvous. */
    long eagerBytes()
    {
        return peers.endpoint().options().rendezvousThresholdBytes();
    }

    /** Frees the staging buffer and what the peers own. */
    void close()
    {
        freeStaging();
        peers.close();
    }

    private void freeStaging()
    {
        if (null != stagingArena)
        {
            stagingArena.close();
            stagingArena = null;
            staging = MemorySegment.NULL;
        }
    }

    private void finish(final Request request, final int rank)
    {
        // A request to a rank that exited fails by itself after the peer timeout; one on this host fails sooner here.
        while (!request.await(WAIT_SLICE))
        {
            ranks.checkAlive(rank);
        }
        final RmaException failed = RequestState.COMPLETED == request.state() ? null :
            RankFailures.failure(rank, request);
        request.release();
        if (null != failed)
        {
            throw failed;
        }
    }

    /** A send started by {@link #nbSend}, finished (its request released) by the first wait that sees it done. */
    private final class SentMessage implements RmaHandle.Completion
    {
        private final Request request;
        private final int rank;
        private boolean finished;

        SentMessage(final Request request, final int rank)
        {
            this.request = request;
            this.rank = rank;
        }

        @Override
        public boolean isDone()
        {
            return finished || request.test();
        }

        @Override
        public void await()
        {
            if (!finished)
            {
                finished = true;
                finish(request, rank);
            }
        }
    }

    /** A receive from any rank waits on all of them: it fails once one has exited, as the job cannot complete. */
    private void checkAlive(final int from)
    {
        if (ANY_RANK != from)
        {
            ranks.checkAlive(from);
            return;
        }
        for (int r = 0; r < ranks.size(); r++)
        {
            if (r != self)
            {
                ranks.checkAlive(r);
            }
        }
    }

    /** @return the first {@code bytes} of the staging buffer, grown to at least that many. */
    private MemorySegment staged(final long bytes)
    {
        if (staging.byteSize() < bytes)
        {
            freeStaging();
            stagingArena = Arena.ofShared();
            staging = stagingArena.allocate(Math.max(bytes, Long.highestOneBit(Math.max(1, bytes)) << 1));
        }
        return staging.asSlice(0, bytes);
    }

    /**
     * @throws IllegalArgumentException naming the rank if it is outside the job or this rank.
     * @throws IllegalStateException    when the job has more ranks than a message's sender field holds.
     * @throws RmaException             naming the rank if it exited.
     */
    private void checkPeer(final int rank, final String what)
    {
        ranks.checkRank(rank, what);
        if (rank == self)
        {
            throw new IllegalArgumentException(what + " rank " + rank + " is this rank: a message goes between two " +
                "ranks");
        }
        if (ranks.size() > MAX_RANKS)
        {
            throw new IllegalStateException("two-sided messages name their sender in 16 bits: a job of " +
                ranks.size() + " ranks has more than " + MAX_RANKS);
        }
        ranks.checkAlive(rank);
    }

    private static long matchInfo(final int tag, final int sender)
    {
        return RmaTags.MESSAGE | (long)sender << SENDER_SHIFT | tag & TAG_MASK;
    }
}
