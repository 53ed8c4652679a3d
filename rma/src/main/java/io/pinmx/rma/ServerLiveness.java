package io.pinmx.rma;

import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;

import java.util.concurrent.TimeUnit;

/**
 * Whether each rank's data server is known to answer now: it answered this rank within {@link #LEASE_NS}. A stopped
 * target's server answers nothing, so a put the cost model would send there goes to the target's driver instead,
 * which takes it stopped or not. When the lease has run out, a FENCE probe (never waited for) asks the server to
 * answer; its answer renews the lease, so a running target's server is taken again from the next request on. A
 * target stopped within the lease may still be sent a put that then waits for it to run again. Used by the thread
 * that issues operations.
 */
final class ServerLiveness implements ProtocolChoice.Serving
{
    /** How long an answer from a rank's data server counts as its being able to serve a request now. */
    static final long LEASE_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Sends a rank's data server a request it answers, not waited for. */
    interface Prober
    {
        /** @return the receive of the answer, or null if the rank cannot be sent to. */
        Request probe(int rank);
    }

    private final long[] answeredAtNs;
    private final boolean[] answeredOnce;
    /** Per rank, the receive of a probe's answer not yet seen, or null. */
    private final Request[] probes;
    private final Prober prober;

    ServerLiveness(final int ranks, final Prober prober)
    {
        this.answeredAtNs = new long[ranks];
        this.answeredOnce = new boolean[ranks];
        this.probes = new Request[ranks];
        this.prober = prober;
    }

    /** The rank's data server answered a request just now. */
    void answered(final int rank)
    {
        answeredAtNs[rank] = System.nanoTime();
        answeredOnce[rank] = true;
    }

    /**
     * @return whether the rank's data server answered within the lease; if not, probes it (one probe at a time), so
     *         that a later call may find it answering.
     */
    @Override
    public boolean answers(final int rank)
    {
        final Request probe = probes[rank];
        if (null != probe && probe.test())
        {
            if (RequestState.FAILED != probe.state())
            {
                answered(rank);
            }
            probe.release();
            probes[rank] = null;
        }
        if (answeredOnce[rank] && System.nanoTime() - answeredAtNs[rank] < LEASE_NS)
        {
            return true;
        }
        if (null == probes[rank])
        {
            probes[rank] = prober.probe(rank);
        }
        return false;
    }
}
