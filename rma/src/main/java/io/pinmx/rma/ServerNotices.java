package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Request;
import io.pinmx.mx.match.MatchInfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What this rank tells other ranks' data servers without waiting for an answer: PINGs that keep a wait for an answer
 * talking to its server, so that the endpoint notices a server that died and fails the wait, the parts of a
 * server's pack area this rank pulled, which ride on the next request to that server, and FENCE probes whose answer
 * says the server runs ({@link ServerLiveness}). Used by the thread that issues
 * operations, as {@link DriverTier} is.
 */
final class ServerNotices
{
    /** How often an origin waiting for a target's answer sends it a PING. */
    private static final Duration PING_INTERVAL = Duration.ofMillis(500);
    private static final long NO_PART = -1;

    private final JobEndpoint job;
    private final Endpoint endpoint;
    private final int self;
    private final RequestHeader header = new RequestHeader();
    private final MemorySegment pingHeader = Arena.ofAuto().allocate(RequestHeader.FIXED_BYTES, 8);
    /** Per rank, the part of its pack area this rank pulled and has not yet told it about, or {@link #NO_PART}. */
    private final long[] pulledParts;
    /** Sends nobody waits for (pings, pack-area releases, probes), released once done. */
    private final List<Request> unanswered = new ArrayList<>();
    /** Per rank, where its answer to a probe lands (the value itself is not read). */
    private final MemorySegment probeAnswers;

    ServerNotices(final JobEndpoint job)
    {
        this.job = job;
        this.endpoint = job.endpoint();
        this.self = job.job().rank();
        this.pulledParts = new long[job.job().size()];
        Arrays.fill(pulledParts, NO_PART);
        this.probeAnswers = Arena.ofAuto().allocate((long)Long.BYTES * job.job().size(), 8);
        header.wrap(pingHeader).encode(RmaOp.PING, self, 0, 0, 0, 0, 0);
    }

    /**
     * Waits for a receive of what the rank's data server sends back. The server answers only if it lives: the wait
     * keeps talking to it (a PING every {@link #PING_INTERVAL}) so that the endpoint notices if not, which fails the
     * receive.
     */
    void awaitAnswer(final int rank, final Request receive)
    {
        while (!receive.await(PING_INTERVAL))
        {
            sendUnanswered(rank, pingHeader);
        }
    }

    /**
     * Tells the rank's data server that the packed get at {@code offset} of its pack area was pulled: with the next
     * request to it (a message of its own would add a send to each packed get), or at once when another part waits
     * for that.
     */
    void releasePacked(final int rank, final long offset)
    {
        if (NO_PART == pulledParts[rank])
        {
            pulledParts[rank] = offset;
            return;
        }
        final MemorySegment head = Arena.ofAuto().allocate(RequestHeader.FIXED_BYTES, 8);
        header.wrap(head).encode(RmaOp.PING, self, 0, 0, 0, 0, 0).releasedPart(offset);
        sendUnanswered(rank, head);
    }

    /** Adds the rank's pulled pack-area part, if one waits, to the request just encoded in {@code encoded}. */
    void releaseWith(final int rank, final RequestHeader encoded)
    {
        if (NO_PART != pulledParts[rank])
        {
            encoded.releasedPart(pulledParts[rank]);
            pulledParts[rank] = NO_PART;
        }
    }

    /**
     * Sends the rank's data server a FENCE of sequence {@code sequence} (of no allocation: it only answers), not waited
     * for.
     *
     * @return the receive of its answer, or null if the rank failed.
     */
    Request probe(final int rank, final long sequence)
    {
        final MemorySegment head = Arena.ofAuto().allocate(RequestHeader.FIXED_BYTES, 8);
        header.wrap(head).encode(RmaOp.FENCE, self, sequence, 0, 0, 0, 0);
        final Request receive;
        try
        {
            receive = endpoint.irecv(job.partner(rank).id(), RmaTags.of(RmaTags.REPLY, sequence), MatchInfo.MASK_ALL,
                probeAnswers.asSlice((long)Long.BYTES * rank, Long.BYTES));
        }
        catch (final MxException ex)
        {
            return null;
        }
        sendUnanswered(rank, head);
        return receive;
    }

    private void sendUnanswered(final int rank, final MemorySegment head)
    {
        unanswered.removeIf(r ->
        {
            if (r.test())
            {
                r.release();
                return true;
            }
            return false;
        });
        try
        {
            unanswered.add(endpoint.isend(job.partner(rank), RmaTags.of(RmaTags.REQUEST, 0), head));
        }
        catch (final MxException ex)
        {
            // the rank failed: the operation waiting on it fails by itself, and a dead server frees nothing
        }
    }
}
