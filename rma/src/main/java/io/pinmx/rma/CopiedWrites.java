package io.pinmx.rma;

import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Puts and accumulates through the driver that completed locally once their data was copied into their request: the
 * small ones, and those packed inline in their request anyway (ARMCI's blocking put returns when the source may be
 * reused; only a fence says it reached the target): per target rank, their sends still waiting for the endpoint's ack
 * (each request holds the copy it sends from until it is released). Without this a blocking 8 B put cost a round trip
 * before the fence that follows it cost another.
 * <p>
 * A send is released once acked, checked before each later operation on the rank and all of them after a fence (the
 * fence's reply, or the answer a fence awaits instead, acknowledges every message sent before it). One that failed
 * (the target died) fails the next operation on that rank, naming it, so no error is lost. At most
 * {@link #MAX_PER_RANK} wait per rank: past that the oldest is awaited, which bounds the copies held. The copies are
 * made in {@link KeptBuffers} of {@link #BUFFER_BYTES}, or of the largest inline request; a larger request gets
 * memory of its own. Owned by the thread that issues operations.
 */
final class CopiedWrites
{
    /**
     * The largest put or accumulate that completes on its copy whatever its protocol: a copy this size costs well
     * under a round trip.
     */
    static final long MAX_COPIED_BYTES = 4096;
    static final int MAX_PER_RANK = 64;

    /** A copy buffer: room for the largest copied data and a request header of a few hundred pieces. */
    static final long BUFFER_BYTES = 8192;

    private final ArrayDeque<Request>[] sends;
    /** Per rank, the buffer each send in {@link #sends} is sent from, in the same order. */
    private final ArrayDeque<MemorySegment>[] buffers;
    private final KeptBuffers smallBuffers = new KeptBuffers(BUFFER_BYTES);
    private final KeptBuffers largeBuffers;
    /** Per rank, the first failure found and not yet reported. */
    private final RmaException[] failures;

    /** @param largeBufferBytes the largest request sent inline, for which larger buffers are kept. */
    @SuppressWarnings("unchecked")
    CopiedWrites(final int ranks, final long largeBufferBytes)
    {
        this.largeBuffers = new KeptBuffers(Math.max(BUFFER_BYTES, largeBufferBytes));
        sends = new ArrayDeque[ranks];
        buffers = new ArrayDeque[ranks];
        failures = new RmaException[ranks];
        for (int r = 0; r < ranks; r++)
        {
            sends[r] = new ArrayDeque<>();
            buffers[r] = new ArrayDeque<>();
        }
    }

    /** @return a buffer of at least {@code bytes} for a copy to send: a kept one when it fits one. */
    MemorySegment buffer(final long bytes)
    {
        if (bytes <= BUFFER_BYTES)
        {
            return smallBuffers.take();
        }
        return bytes <= largeBuffers.bufferBytes() ? largeBuffers.take() : Arena.ofAuto().allocate(bytes, 8);
    }

    /**
     * A send of a copy to the rank, from {@code buffer} (from {@link #buffer}); awaits the rank's oldest when
     * {@link #MAX_PER_RANK} are waiting.
     */
    void add(final int rank, final Request send, final MemorySegment buffer)
    {
        if (sends[rank].size() >= MAX_PER_RANK)
        {
            releaseOldest(rank, true);
        }
        sends[rank].addLast(send);
        buffers[rank].addLast(buffer);
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
        final MemorySegment buffer = buffers[rank].removeFirst();
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
        if (!smallBuffers.giveBack(buffer))
        {
            largeBuffers.giveBack(buffer);
        }
    }
}
