package io.pinmx.rma;

import io.pinmx.job.Job;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.EndpointAddress;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The endpoint of two-sided messages in a job whose ranks all reach each other through shared memory: opened by a
 * rank only when it first sends or receives, or when another rank first sends to it, so that a job that never sends
 * a message opens none, and without a collective, since the other ranks may never take part. The rank publishes the
 * endpoint's address in its control file ({@link MessageAddresses}); a sender raises the receiver's wanted word and
 * connects once the address is there. Caller-driven: the rank's waits in the endpoint and in the job's collectives
 * drive it, and its liveness watcher polls it once a round, so a rank that computes still answers a connect and
 * acknowledges what arrives. Partners are used by the thread that issues the Rma's operations; opening and closing may
 * also happen on the watcher's thread.
 */
final class OnDemandMessageEndpoint implements MessagePeers
{
    /** How long a sender waits for a rank's address, and then for its endpoint to answer the connect. */
    static final Duration PEER_WAIT = Duration.ofSeconds(120);

    /** Where this rank's endpoint is in its life. */
    enum State
    {
        UNOPENED, OPEN, REFUSED, CLOSED
    }

    private final Job job;
    private final Ranks ranks;
    private final MessageAddresses addresses;
    private final Supplier<Endpoint> opener;
    private final Partner[] partners;
    /** The watcher's poll, never matched: it only drives the endpoint. */
    private final Status polled = new Status();
    /** The job's progress hook's poll, on the thread that waits in a collective. */
    private final Status hooked = new Status();
    private State state = State.UNOPENED;
    private Endpoint endpoint;
    private String refusal;

    /**
     * @param opener opens this rank's endpoint, connected to nobody.
     */
    OnDemandMessageEndpoint(final Job job, final Ranks ranks, final Supplier<Endpoint> opener)
    {
        this.job = job;
        this.ranks = ranks;
        this.addresses = ranks.messageAddresses();
        this.opener = opener;
        this.partners = new Partner[ranks.size()];
        ranks.watchAlso(this::watch);
    }

    @Override
    public synchronized Endpoint endpoint()
    {
        return switch (state)
        {
            case OPEN -> endpoint;
            case UNOPENED -> open();
            case REFUSED -> throw new RmaException(refusal);
            case CLOSED -> throw new IllegalStateException("rank " + job.rank() + ": two-sided messages are closed");
        };
    }

    @Override
    public Partner partner(final int rank)
    {
        final Partner known = partners[rank];
        if (null != known)
        {
            return known;
        }
        final Endpoint mine = endpoint();
        final String[] published = addresses.await(rank, PEER_WAIT).split(" ");
        final Partner partner;
        try
        {
            partner = mine.connect(new EndpointAddress(BoardAddress.parse(published[0]),
                Integer.parseInt(published[1]), 0), mine.options().applicationKey(), PEER_WAIT);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(rank, ex);
        }
        partners[rank] = partner.named("rank " + rank).runsOnThisHost(Math.toIntExact(ranks.pid(rank)));
        return partners[rank];
    }

    /** @return where this rank's endpoint is in its life. */
    synchronized State state()
    {
        return state;
    }

    @Override
    public synchronized void close()
    {
        ranks.watchAlso(null);
        if (State.OPEN == state)
        {
            job.progressHook(null);
            endpoint.close();
        }
        state = State.CLOSED;
    }

    private Endpoint open()
    {
        try
        {
            endpoint = opener.get();
        }
        catch (final RuntimeException ex)
        {
            state = State.REFUSED;
            refusal = "rank " + job.rank() + " could not open its endpoint for two-sided messages: " + ex.getMessage();
            addresses.refuse(refusal);
            throw new RmaException(refusal, ex);
        }
        job.progressHook(() -> endpoint.iprobe(MatchInfo.ANY_SOURCE, 0, -1L, hooked));
        final EndpointAddress address = endpoint.address();
        addresses.publish(address.board() + " " + address.endpointIndex());
        state = State.OPEN;
        return endpoint;
    }

    /** On the liveness watcher's thread: opens the endpoint once a sender wants it, and drives it once open. */
    private synchronized void watch()
    {
        try
        {
            if (State.UNOPENED == state && addresses.wanted())
            {
                open();
            }
            if (State.OPEN == state)
            {
                endpoint.iprobe(MatchInfo.ANY_SOURCE, 0, -1L, polled);
            }
        }
        catch (final RuntimeException ex)
        {
            // A refusal is published for the senders and thrown again at this rank's next call; a failed poll
            // surfaces in the caller's own next call.
        }
    }
}
