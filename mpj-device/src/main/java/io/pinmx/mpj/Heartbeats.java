package io.pinmx.mpj;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.Status;
import io.pinmx.mx.match.MatchInfo;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * Liveness of the job's ranks, checked by a rank that waits. The endpoint only measures silence while it waits on a partner
 * for an ack or a pull, so a rank blocked in a receive from a dead rank would wait forever: a heartbeat (an empty
 * message, its own kind in the match bits) gives it something to be acknowledged; a dead rank never acknowledges
 * it, the endpoint gives the partner up after the peer timeout, and the heartbeat's failure names the rank. At most
 * one heartbeat per rank is in flight. Ranks drain the heartbeats sent to them whenever they wait.
 */
final class Heartbeats implements AutoCloseable
{
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(5);

    private final Endpoint endpoint;
    private final Partner[] partners;
    private final int self;
    private final long bits;
    private final MemorySegment empty;
    private final Request[] inFlight;
    private final String[] dead;
    private final Status drained = new Status();

    Heartbeats(final Endpoint endpoint, final Partner[] partners, final int self, final int epoch,
        final MemorySegment empty)
    {
        this.endpoint = endpoint;
        this.partners = partners;
        this.self = self;
        this.bits = MatchBits.of(MatchBits.KIND_HEARTBEAT, epoch, 0, 0);
        this.empty = empty;
        inFlight = new Request[partners.length];
        dead = new String[partners.length];
    }

    /**
     * Sends every other rank a heartbeat, unless one is still in flight to it.
     *
     * @return why a rank is dead, or null if none is known dead.
     */
    String beat()
    {
        String found = null;
        for (int r = 0; r < partners.length; r++)
        {
            if (r == self)
            {
                continue;
            }
            final Request previous = inFlight[r];
            if (null != previous && previous.state().isDone())
            {
                final String error = previous.status().error();
                previous.release();
                inFlight[r] = null;
                if (null != error)
                {
                    dead[r] = "rank " + r + " is unreachable (" + error + ")";
                }
            }
            if (null == dead[r] && null == inFlight[r])
            {
                try
                {
                    inFlight[r] = endpoint.isend(partners[r], bits, empty);
                }
                catch (final MxException ex)
                {
                    // the endpoint failed the partner already: a heartbeat that completed at once (it went into
                    // the rank's shared-memory ring) stayed unacknowledged until the rank's silence was measured
                    dead[r] = "rank " + r + " is unreachable (" + ex.getMessage() + ")";
                }
            }
            if (null == found)
            {
                found = dead[r];
            }
        }
        return found;
    }

    /** Takes the heartbeats other ranks sent here out of the endpoint. */
    void drain()
    {
        while (endpoint.iprobe(MatchInfo.ANY_SOURCE, bits, MatchBits.KIND_AND_EPOCH_MASK, drained))
        {
            endpoint.recv(drained.source(), drained.matchInfo(), MatchBits.EXACT_MASK, empty, drained,
                DRAIN_TIMEOUT);
        }
    }

    @Override
    public void close()
    {
        for (int r = 0; r < inFlight.length; r++)
        {
            if (null != inFlight[r] && inFlight[r].state().isDone())
            {
                inFlight[r].release();
            }
            inFlight[r] = null;
        }
    }
}
