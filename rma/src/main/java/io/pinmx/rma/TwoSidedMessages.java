package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
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
import java.util.Arrays;

/**
 * ARMCI's two-sided messages ({@code armci_msg_snd}, {@code armci_msg_rcv}, {@code armci_msg_rcvany}) through a
 * job's endpoint, their match info apart from the one-sided layer's own ({@link RmaTags#MESSAGE}). A receive probes
 * first, so a message longer than the caller's buffer is refused, naming both sizes, and stays queued. Messages from
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
    private static final long MATCH_MASK = RmaTags.KIND_MASK | TAG_MASK;
    private static final int ANY_RANK = -1;

    private final JobEndpoint job;
    private final Endpoint endpoint;
    private final Ranks ranks;
    private final int self;
    /** World rank by partner id: a probe names the partner, {@code armci_msg_rcvany} answers with the rank. */
    private final int[] rankOfPartner;
    private final Status probed = new Status();
    private Arena stagingArena;
    private MemorySegment staging = MemorySegment.NULL;

    TwoSidedMessages(final JobEndpoint job, final Ranks ranks)
    {
        this.job = job;
        this.endpoint = job.endpoint();
        this.ranks = ranks;
        this.self = job.job().rank();
        int highestId = 0;
        for (int r = 0; r < ranks.size(); r++)
        {
            highestId = r == self ? highestId : Math.max(highestId, job.partner(r).id());
        }
        this.rankOfPartner = new int[highestId + 1];
        Arrays.fill(rankOfPartner, ANY_RANK);
        for (int r = 0; r < ranks.size(); r++)
        {
            if (r != self)
            {
                rankOfPartner[job.partner(r).id()] = r;
            }
        }
    }

    /** Blocks until the buffer may be reused: an eager message once sent, a longer one once its receiver pulled it. */
    void send(final int tag, final MemorySegment buffer, final int to)
    {
        final Partner partner = partner(to, "message destination");
        if (null == buffer)
        {
            throw new IllegalArgumentException("message to rank " + to + ": the buffer is null");
        }
        // The endpoint stages a heap buffer itself; one confined to this thread it refuses.
        final MemorySegment from = Pieces.shareable(buffer) ? buffer :
            staged(buffer.byteSize()).copyFrom(buffer);
        final Request send;
        try
        {
            send = endpoint.isend(partner, matchInfo(tag), from);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(to, ex);
        }
        finish(send, to);
    }

    /** @return the message's length; {@code from} is a world rank. */
    long receive(final int tag, final MemorySegment buffer, final int from)
    {
        return receive(tag, buffer, from, partner(from, "message source").id()).bytes();
    }

    /** @return the sender and the message's length. */
    ReceivedMessage receiveAny(final int tag, final MemorySegment buffer)
    {
        return receive(tag, buffer, ANY_RANK, MatchInfo.ANY_SOURCE);
    }

    private ReceivedMessage receive(final int tag, final MemorySegment buffer, final int from, final int source)
    {
        if (null == buffer || buffer.isReadOnly())
        {
            throw new IllegalArgumentException((ANY_RANK == from ? "message from any rank" : "message from rank " +
                from) + ": the buffer " + (null == buffer ? "is null" : buffer + " is read-only"));
        }
        while (!endpoint.probe(source, matchInfo(tag), MATCH_MASK, probed, WAIT_SLICE))
        {
            checkAlive(from);
        }
        final int sender = rankOfPartner[probed.source()];
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
            receive = endpoint.irecv(probed.source(), matchInfo(tag), MATCH_MASK, into);
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
        return endpoint.options().rendezvousThresholdBytes();
    }

    /** Frees the staging buffer. */
    void close()
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
            close();
            stagingArena = Arena.ofShared();
            staging = stagingArena.allocate(Math.max(bytes, Long.highestOneBit(Math.max(1, bytes)) << 1));
        }
        return staging.asSlice(0, bytes);
    }

    private Partner partner(final int rank, final String what)
    {
        ranks.checkRank(rank, what);
        if (rank == self)
        {
            throw new IllegalArgumentException(what + " rank " + rank + " is this rank: a message goes between two " +
                "ranks");
        }
        ranks.checkAlive(rank);
        return job.partner(rank);
    }

    private static long matchInfo(final int tag)
    {
        return RmaTags.MESSAGE | tag & TAG_MASK;
    }
}
