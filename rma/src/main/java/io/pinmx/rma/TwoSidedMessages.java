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
import java.util.HashMap;
import java.util.Map;

/**
 * ARMCI's two-sided messages ({@code armci_msg_snd}, {@code armci_msg_rcv}, {@code armci_msg_rcvany}) through the
 * job's endpoint, tagged apart from the one-sided layer's own messages. A receive first probes for the message, so one
 * longer than the caller's buffer is refused, naming both sizes, and stays queued for a receive with room. Messages
 * from one rank with one tag arrive in the order sent. A message is at most the endpoint's eager size
 * ({@link #maxBytes()}): a caller-driven sender of a longer one, which the receiver pulls, was seen waiting for the
 * pull's end after its receiver had the bytes. Used by the thread that issues the Rma's operations.
 */
final class TwoSidedMessages
{
    /**
     * A wait returns to poll the endpoint again this often: a caller-driven endpoint blocked in its driver is not woken
     * by what a same-host partner writes into its ring. Between slices the rank awaited is checked alive.
     */
    private static final Duration WAIT_SLICE = Duration.ofMillis(1);
    private static final long TAG_MASK = 0xFFFF_FFFFL;
    private static final long MATCH_MASK = RmaTags.KIND_MASK | TAG_MASK;

    private final JobEndpoint job;
    private final Endpoint endpoint;
    private final Ranks ranks;
    private final int self;
    private final Map<Integer, Integer> rankOfPartner = new HashMap<>();
    private final Status probed = new Status();
    private final long maxBytes;

    TwoSidedMessages(final JobEndpoint job, final Ranks ranks)
    {
        this.job = job;
        this.endpoint = job.endpoint();
        this.ranks = ranks;
        this.self = job.job().rank();
        this.maxBytes = endpoint.options().rendezvousThresholdBytes();
        for (int r = 0; r < ranks.size(); r++)
        {
            if (r != self)
            {
                rankOfPartner.put(job.partner(r).id(), r);
            }
        }
    }

    /** Returns once the buffer may be reused. */
    void send(final int tag, final MemorySegment buffer, final int to)
    {
        if (null == buffer)
        {
            throw new IllegalArgumentException("message to rank " + to + ": the buffer is null");
        }
        final Partner partner = partner(to, "message destination");
        if (buffer.byteSize() > maxBytes)
        {
            throw new IllegalArgumentException("message of " + buffer.byteSize() + " bytes to rank " + to +
                " is longer than the " + maxBytes + " bytes a message carries");
        }
        final Request send;
        try
        {
            send = endpoint.isend(partner, matchInfo(tag), buffer);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(to, ex);
        }
        // A send to a dead rank fails by itself within the peer timeout: nothing acknowledges it.
        await(send, to);
        final RmaException failed = RequestState.COMPLETED == send.state() ? null : RankFailures.failure(to, send);
        send.release();
        if (null != failed)
        {
            throw failed;
        }
    }

    /** @return the most bytes one message carries. */
    long maxBytes()
    {
        return maxBytes;
    }

    /** @return the message's length; {@code from} is a world rank, or -1 for any. */
    ReceivedMessage receive(final int tag, final MemorySegment buffer, final int from)
    {
        final String what = -1 == from ? "message from any rank" : "message from rank " + from;
        if (null == buffer || buffer.isReadOnly())
        {
            throw new IllegalArgumentException(what + ": the buffer " + (null == buffer ? "is null" : buffer +
                " is read-only"));
        }
        final int source = -1 == from ? MatchInfo.ANY_SOURCE : partner(from, "message source").id();
        while (!endpoint.probe(source, matchInfo(tag), MATCH_MASK, probed, WAIT_SLICE))
        {
            if (-1 != from)
            {
                ranks.checkAlive(from);
            }
        }
        final int sender = rankOfPartner.get(probed.source());
        final long length = probed.messageLength();
        if (length > buffer.byteSize())
        {
            throw new IllegalArgumentException("message of " + length + " bytes from rank " + sender + " (tag " + tag +
                ") does not fit the " + buffer.byteSize() + "-byte buffer: it stays queued for a receive with room");
        }
        // The driver writes a receive in place, which heap memory cannot take: such a buffer gets a copy.
        try (Arena staging = Arena.ofConfined())
        {
            final MemorySegment into = buffer.isNative() ? buffer : staging.allocate(Math.max(1, length));
            final Request receive = endpoint.irecv(probed.source(), matchInfo(tag), MATCH_MASK, into);
            await(receive, sender);
            final RmaException failed = RequestState.COMPLETED == receive.state() ? null :
                RankFailures.failure(sender, receive);
            receive.release();
            if (null != failed)
            {
                throw failed;
            }
            if (into != buffer)
            {
                MemorySegment.copy(into, 0, buffer, 0, length);
            }
        }
        return new ReceivedMessage(sender, length);
    }

    private void await(final Request request, final int rank)
    {
        while (!request.await(WAIT_SLICE))
        {
            ranks.checkAlive(rank);
        }
    }

    private Partner partner(final int rank, final String what)
    {
        ranks.checkRank(rank, what);
        if (rank == self)
        {
            throw new IllegalArgumentException(what + ": rank " + rank + " is this rank (messages go between two ranks)");
        }
        ranks.checkAlive(rank);
        return job.partner(rank);
    }

    private static long matchInfo(final int tag)
    {
        return RmaTags.MESSAGE | tag & TAG_MASK;
    }
}
