package io.pinmx.rma;

import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;

import java.util.ArrayDeque;

/**
 * Small puts and accumulates through the driver that completed locally once their data was copied into their
 * request (ARMCI's blocking put returns when the source may be reused; only a fence says it reached the target):
 * per target rank, their sends still waiting for the endpoint's ack (each request holds the copy it sends from until
 * it is released). Without this a blocking 8 B put cost a round trip before the fence that follows it cost another.
 * <p>
 * A send is released once acked, checked before each later operation on the rank and all of them after a fence (the
 * fence's reply acknowledges every message sent before it). One that failed (the target died) fails the next
 * operation on that rank, naming it, so no error is lost. At most {@link #MAX_PER_RANK} wait per rank: past that the
 * oldest is awaited, which bounds the copies held. Owned by the thread that issues operations.
 */
final class CopiedWrites
{
    /** The largest put or accumulate that completes on its copy: a copy this size costs well under a round trip. */
    static final long MAX_COPIED_BYTES = 4096;
    static final int MAX_PER_RANK = 64;

    private final ArrayDeque<Request>[] sends;
    /** Per rank, the first failure found and not yet reported. */
    private final RmaException[] failures;

    @SuppressWarnings("unchecked")
    CopiedWrites(final int ranks)
    {
        sends = new ArrayDeque[ranks];
        failures = new RmaException[ranks];
        for (int r = 0; r < ranks; r++)
        {
            sends[r] = new ArrayDeque<>();
        }
    }

    /** A send of a copy to the rank; awaits the rank's oldest when {@link #MAX_PER_RANK} are waiting. */
    void add(final int rank, final Request send)
    {
        if (sends[rank].size() >= MAX_PER_RANK)
        {
            releaseOldest(rank, true);
        }
        sends[rank].addLast(send);
    }

    /**
     * Releases the rank's acknowledged sends (in order, up to the first not yet acked; {@code all}: awaits every one)
     * and throws the first failure among them, or one found earlier.
     *
     * @throws RmaException naming the rank if a copied put or accumulate to it failed.
     */
    void check(final int rank, final boolean all)
    {
        while (!sends[rank].isEmpty() && (all || sends[rank].peekFirst().test()))
        {
            releaseOldest(rank, all);
        }
        final RmaException failed = failures[rank];
        if (null != failed)
        {
            failures[rank] = null;
            throw failed;
        }
    }

    private void releaseOldest(final int rank, final boolean await)
    {
        final Request r = sends[rank].removeFirst();
        if (await)
        {
            r.await(DriverTier.UNTIL_DONE);
        }
        if (RequestState.FAILED == r.state() && null == failures[rank])
        {
            failures[rank] = new RmaException("an earlier put or accumulate to rank " + rank + " failed: " +
                r.status().error());
        }
        r.release();
    }
}
