package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.provider.ProgressRunner;
import io.pinmx.pin.provider.ThreadingMode;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * The target side of the operations from ranks reached through the driver that need this rank's CPU (puts,
 * accumulates, read-modify-writes, fences, mutexes, packed gets; other gets are the drivers' pulls and never come
 * here; a packed get larger than a chunk is packed into the {@link PackArea} for the origin to pull): an
 * {@link Agent} per rank, run on a thread of its own by a DEDICATED {@link ProgressRunner}, that serves every request
 * aimed at this rank's slices whether or not the application ever calls the library (unilateral progress).
 * Its idle is the endpoint's wait on the posted receive of the next request: for {@link #POLL_AFTER_REQUEST} after a
 * request it stays on its core (watching the receive, or polling the endpoint itself when no agent thread does), so
 * the next request of an origin issuing them back to back needs no wake-up (a wake-up costs more than the
 * operation); later it parks and the round that completes the receive wakes it. A process allowed on one CPU only
 * parks at once: there the watching would hold the CPU the endpoint's thread needs to complete the receive, and
 * the application's computation. It does not join the endpoint's own agent: serving a request waits in the endpoint
 * for its data, which on the endpoint's agent thread would wait on itself. Every field is the server thread's, but
 * the counters others read and {@link #stopping}.
 * Requests are served one at a time in arrival order, which the endpoint keeps per origin: a rank's operations on
 * this rank take effect in the order it issued them. Accumulates and read-modify-writes use the same atomics as the
 * shared-memory tier, so both tiers are atomic against each other. Mutexes are the same ticket locks: a remote
 * waiter's ticket is taken here and granted in its turn ({@link MutexWaiters}). While this rank has an access epoch open on a slice,
 * a request touching that slice waits for its end in this server's slot of the {@link EpochGate} (and the requests
 * behind it with it, as they are served in order).
 */
final class DataServer implements Agent, AutoCloseable
{
    /** Longest park between duty cycles: a stopping server is seen within it. */
    private static final Duration IDLE_SLICE = Duration.ofMillis(100);
    /** The park while a remote rank waits for a mutex: a same-host unlock changes only memory, seen a slice later. */
    private static final Duration MUTEX_POLL = Duration.ofNanos(100_000);
    /** How long after a request the server keeps polling for the next: a few operations' round trips. */
    private static final Duration POLL_AFTER_REQUEST = Duration.ofMillis(1);
    /** {@link #POLL_AFTER_REQUEST}, or none in a process allowed on one CPU (the JVM reads its affinity mask). */
    private final Duration pollAfterRequest =
        Runtime.getRuntime().availableProcessors() > 1 ? POLL_AFTER_REQUEST : Duration.ZERO;

    private final Endpoint endpoint;
    private final Allocator allocations;
    private final LockStripes stripes;
    private final EpochGate gate;
    private final int gateSlot;
    private final int self;
    private final MemorySegment requests = Arena.ofAuto().allocate(RequestHeader.BUFFER_BYTES, 8);
    private final RequestHeader header = new RequestHeader();
    private final ServerReplies replies;
    private final MutexWaiters mutexes;
    private final String roleName;
    private final ProgressRunner runner;
    /** Set by {@link #close}: a wait for a request's data gives up at its next slice. */
    private volatile boolean stopping;
    /** The posted receive of the next request; null until a duty cycle posts it. Server thread only. */
    private Request next;
    /** The next idle's poll time: {@link #pollAfterRequest} after a request, none once a slice passed empty. */
    private Duration pollFor = pollAfterRequest;
    /** Whether the next idle's rounds send owed acks at once (not after a write its origin completed on a copy). */
    private boolean ackWhenIdle = true;
    /** The server met an error it cannot serve past: its next duty cycle ends it. */
    private boolean ended;
    /** Requests served, pings aside: written by the server thread only. */
    private volatile long requestsServed;
    /** Packed gets answered with a place to pull from, and in chunks: written by the server thread only. */
    private volatile long packedPulled;
    private volatile long packedInChunks;
    /** The request just served was a put or accumulate its origin completed on a copy (see {@link CopiedWrites}). */
    private boolean originCopied;
    private final StagingBuffer staging = new StagingBuffer();
    private final PackArea packArea;

    DataServer(final Endpoint endpoint, final Allocator allocations, final LockStripes stripes, final EpochGate gate,
        final int self, final int ranks)
    {
        this.endpoint = endpoint;
        this.allocations = allocations;
        this.stripes = stripes;
        this.gate = gate;
        this.gateSlot = EpochGate.serverSlot(ranks);
        this.self = self;
        this.packArea = new PackArea(endpoint);
        this.replies = new ServerReplies(endpoint);
        this.mutexes = new MutexWaiters(replies);
        this.roleName = "pinmx-rma-data-server-" + self;
        // No spins or yields of its own: the endpoint's wait on the posted receive polls first, then parks.
        this.runner = ProgressRunner.start(ThreadingMode.DEDICATED,
            new BackoffThenBlockIdleStrategy(0, 0, BackoffThenBlockIdleStrategy.AfterBlock.BLOCK_AGAIN, this::awaitNext),
            this::onError, this);
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    /**
     * One step: post the receive of the next request, or serve the request it received, or, while none has come,
     * send what the replies still owe and grant the mutexes whose turn came.
     *
     * @throws AgentTerminationException once the endpoint stopped under the server, or after an unexpected error.
     */
    @Override
    public int doWork()
    {
        if (ended)
        {
            throw new AgentTerminationException(roleName + " ended");
        }
        if (null == next)
        {
            try
            {
                next = endpoint.irecv(MatchInfo.ANY_SOURCE, RmaTags.REQUEST, RmaTags.KIND_MASK, requests);
            }
            catch (final MxException ex)
            {
                // the endpoint stopped under us (its receive failed with the cause): no request can arrive
                System.err.println("pinmx-rma data server of rank " + self + " ends: " + ex.getMessage());
                ended = true;
                throw new AgentTerminationException(ex);
            }
            return 1;
        }
        if (!next.state().isDone())
        {
            replies.reap();
            mutexes.grant();
            return 0;
        }
        final Request received = next;
        next = null;
        serveReceived(received);
        pollFor = pollAfterRequest;
        ackWhenIdle = !originCopied;
        originCopied = false;
        return 1;
    }

    /**
     * The idle between duty cycles that found no request: the endpoint's wait on the posted receive, staying on the
     * core for {@link #POLL_AFTER_REQUEST} after a request (an origin issuing requests back to back needs no
     * wake-up), then parked until the receive completes or a slice passes. After a small put or accumulate whose
     * origin does not wait for its ack, the acks are held while the server polls: the next request (a fence, say) or
     * its reply carries them, where an ack of its own cost each 8 B put + fence a send at each end.
     */
    private void awaitNext()
    {
        if (null != next && !next.await(mutexes.isEmpty() ? IDLE_SLICE : MUTEX_POLL, pollFor, ackWhenIdle))
        {
            pollFor = Duration.ZERO;
        }
    }

    /** Serves a request whose receive ended, then gives its receive back. */
    private void serveReceived(final Request r)
    {
        if (RequestState.COMPLETED == r.state())
        {
            final Partner origin = endpoint.partner(r.status().source());
            header.wrap(requests);
            try
            {
                serve(origin);
            }
            catch (final RuntimeException ex)
            {
                System.err.println("pinmx-rma data server of rank " + self + ": request " + header.op() +
                    " from rank " + header.originRank() + " failed: " + ex);
            }
        }
        r.release();
        replies.reap();
    }

    /**
     * On the server's thread once it stops: a receive that nothing matched yet is cancelled; one that matched is
     * served (its origin waits for it).
     */
    @Override
    public void onClose()
    {
        if (null == next)
        {
            return;
        }
        final Request last = next;
        next = null;
        if (last.cancel())
        {
            last.release();
            return;
        }
        while (!last.await(IDLE_SLICE))
        {
            replies.reap();
        }
        serveReceived(last);
    }

    /** What a duty cycle or an idle threw, other than the server's own end: named, and the server ends. */
    private void onError(final Throwable error)
    {
        if (!(error instanceof AgentTerminationException))
        {
            System.err.println("pinmx-rma data server of rank " + self + " ends: " + error);
            ended = true;
        }
    }

    /**
     * Waits for a receive of a request's data, polling first as for a request, serving nothing else meanwhile
     * (requests are served in order).
     *
     * @return false if the server is stopping and the receive was cancelled.
     */
    private boolean awaitOrStop(final Request r)
    {
        Duration poll = pollAfterRequest;
        while (!r.await(mutexes.isEmpty() ? IDLE_SLICE : MUTEX_POLL, poll, true))
        {
            poll = Duration.ZERO;
            if (stopping && r.cancel())
            {
                r.release();
                return false;
            }
            replies.reap();
            mutexes.grant();
        }
        return true;
    }

    private void serve(final Partner origin)
    {
        final long pulled = header.releasedPart();
        if (pulled >= 0)
        {
            packArea.release(pulled, origin.id());
        }
        final RmaOp op = header.op();
        if (null == op || RmaOp.PING == op)
        {
            return;
        }
        requestsServed++;
        if ((RmaOp.PUT == op || RmaOp.ACC == op) && header.answersApplied())
        {
            // answered even if the write fails, as a fence is: its origin waits for the answer in its fence
            final long sequence = header.sequence();
            try
            {
                serve(origin, op);
            }
            finally
            {
                SharedMemoryTier.fence();
                answer(origin, sequence, 0);
            }
            return;
        }
        serve(origin, op);
    }

    private void serve(final Partner origin, final RmaOp op)
    {
        final RmaAllocation a = allocations.lookup(header.allocationId());
        if (null == a && RmaOp.FENCE != op)
        {
            throw new IllegalStateException("no live allocation " + header.allocationId());
        }
        if (null == a)
        {
            serve(origin, op, null);
            return;
        }
        gate.enter(gateSlot, a.id(), this::whileHeldBack);
        try
        {
            serve(origin, op, a.slice(self));
        }
        finally
        {
            gate.leave(gateSlot);
        }
    }

    /** Waiting out this rank's access epoch: replies still go out and mutexes are still granted. */
    private void whileHeldBack()
    {
        replies.reap();
        mutexes.grant();
    }

    private void serve(final Partner origin, final RmaOp op, final MemorySegment slice)
    {
        switch (op)
        {
            case PUT, ACC -> write(origin, slice, op);
            case GET_PACKED -> getPacked(origin, slice);
            case GET_SERVED -> answer(origin, slice.asSlice(header.offset(), header.value()));
            case FETCH_ADD_INT -> answer(origin, SharedMemoryTier.fetchAndAdd(slice, header.offset(), (int)header.value()));
            case FETCH_ADD_LONG -> answer(origin, SharedMemoryTier.fetchAndAdd(slice, header.offset(), header.value()));
            case SWAP_INT -> answer(origin, SharedMemoryTier.swap(slice, header.offset(), (int)header.value()));
            case SWAP_LONG -> answer(origin, SharedMemoryTier.swap(slice, header.offset(), header.value()));
            case FENCE ->
            {
                SharedMemoryTier.fence();
                answer(origin, 0);
            }
            case LOCK -> mutexes.lock(origin, header.sequence(), slice, header.offset());
            case TRY_LOCK -> answer(origin, mutexes.tryLock(slice, header.offset()) ? 1 : 0);
            case UNLOCK -> mutexes.unlock(slice, header.offset());
            default -> throw new IllegalStateException("unexpected op " + op);
        }
    }

    private void write(final Partner origin, final MemorySegment slice, final RmaOp op)
    {
        final long[][] pieces = header.targetPieces();
        final long[] offsets = pieces[0];
        final long[] lengths = pieces[1];
        final long total = header.dataBytes();
        final AccumulateScale scale = RmaOp.ACC == op ? header.scale() : null;
        final PieceCursor target = PieceCursor.of(slice, offsets, lengths);
        if (header.inlineBytes() == total)
        {
            apply(target, scale, requests.asSlice(header.headerBytes(), total));
            originCopied = header.isDoneOnCopy();
        }
        else if (RequestHeader.DELIVERY_CHUNKS == header.delivery())
        {
            receiveChunks(origin, slice, offsets, target, scale, total);
        }
        else if (null == scale)
        {
            // Each group of pieces lands straight in the slice: the endpoint pulls it from the origin's memory.
            for (int from = 0; from < offsets.length; from += DriverTier.MAX_VECTOR)
            {
                final int count = Math.min(DriverTier.MAX_VECTOR, offsets.length - from);
                final MemorySegment[] vector = new MemorySegment[count];
                for (int i = 0; i < count; i++)
                {
                    vector[i] = slice.asSlice(offsets[from + i], lengths[from + i]);
                }
                if (!receiveData(origin, vector))
                {
                    return;
                }
            }
        }
        else
        {
            final MemorySegment data = staging.take(total);
            long at = 0;
            for (int from = 0; from < offsets.length; from += DriverTier.MAX_VECTOR)
            {
                long bytes = 0;
                for (int i = from; i < Math.min(offsets.length, from + DriverTier.MAX_VECTOR); i++)
                {
                    bytes += lengths[i];
                }
                if (!receiveData(origin, new MemorySegment[] {data.asSlice(at, bytes)}))
                {
                    // nothing of a request that did not arrive whole is applied, and its buffer is not reused
                    staging.abandon();
                    return;
                }
                at += bytes;
            }
            apply(target, scale, data);
        }
    }

    /**
     * The packed data in chunks: every receive is posted first (they match in order), then each chunk is unpacked
     * or accumulated as it arrives while the next ones travel. A contiguous put receives straight into the slice.
     */
    private void receiveChunks(final Partner origin, final MemorySegment slice, final long[] offsets,
        final PieceCursor target, final AccumulateScale scale, final long total)
    {
        final boolean straight = null == scale && 1 == offsets.length;
        final MemorySegment landing = straight ? slice.asSlice(offsets[0], total) : staging.take(total);
        final MemorySegment[] into = ChunkSchedule.slices(landing);
        final Request[] receives = new Request[into.length];
        final long tag = RmaTags.of(RmaTags.DATA, header.sequence());
        for (int c = 0; c < into.length; c++)
        {
            receives[c] = endpoint.irecv(origin.id(), tag, MatchInfo.MASK_ALL, into[c]);
        }
        for (int c = 0; c < into.length; c++)
        {
            // The server is stopping, or the origin failed: nothing more of this request arrives.
            final boolean arrived = awaitOrStop(receives[c]);
            if (!arrived || RequestState.COMPLETED != receives[c].state())
            {
                Completions.forget(receives, arrived ? c : c + 1);
                // a receive still filling may write into the buffer: the next request gets another
                staging.abandon();
                return;
            }
            receives[c].release();
            if (!straight)
            {
                apply(target, scale, into[c]);
            }
        }
    }

    private void apply(final PieceCursor target, final AccumulateScale scale, final MemorySegment data)
    {
        if (null == scale)
        {
            target.unpack(data);
        }
        else
        {
            target.accumulate(scale, data, stripes);
        }
    }

    /**
     * GET_PACKED: packs the pieces of this rank's slice the request names. Asked to, into a part of the pack area,
     * answering where (the origin pulls it and then releases it); else, or when the area has no room, into chunks,
     * each sent as soon as it is packed so that the origin receives one while the next is packed (the request holds
     * its memory until sent).
     */
    private void getPacked(final Partner origin, final MemorySegment slice)
    {
        final long[][] pieces = header.targetPieces();
        final long total = header.dataBytes();
        final PieceCursor source = PieceCursor.of(slice, pieces[0], pieces[1]);
        if (RequestHeader.DELIVERY_PULL == header.delivery())
        {
            final long at = packArea.reserve(total, origin.id());
            if (at >= 0)
            {
                source.pack(packArea.part(at, total));
                answer(origin, packArea.place(at));
                packedPulled++;
                return;
            }
            answer(origin, PackArea.NO_PLACE);
        }
        packedInChunks++;
        final MemorySegment packed = Arena.ofAuto().allocate(total, 8);
        final long tag = RmaTags.of(RmaTags.PACKED, header.sequence());
        long at = 0;
        for (int c = 0; at < total; c++)
        {
            final long bytes = ChunkSchedule.chunkBytes(c, total - at);
            final MemorySegment chunk = packed.asSlice(at, bytes);
            source.pack(chunk);
            replies.chunk(origin, tag, chunk);
            at += bytes;
        }
    }

    /** @return whether the data arrived whole (not if the server is stopping or the origin failed). */
    private boolean receiveData(final Partner origin, final MemorySegment[] into)
    {
        final Request data = endpoint.irecv(origin.id(), RmaTags.of(RmaTags.DATA, header.sequence()),
            MatchInfo.MASK_ALL, into, into.length);
        if (!awaitOrStop(data))
        {
            return false;
        }
        final boolean whole = RequestState.COMPLETED == data.state();
        data.release();
        return whole;
    }

    private void answer(final Partner origin, final long value)
    {
        replies.value(origin, header.sequence(), value);
    }

    private void answer(final Partner origin, final long sequence, final long value)
    {
        replies.value(origin, sequence, value);
    }

    /** Answers a served get with the bytes. */
    private void answer(final Partner origin, final MemorySegment bytes)
    {
        replies.bytes(origin, header.sequence(), bytes);
    }

    /** @return how many requests (pings aside) this server has served: what the target's CPU did for others. */
    long requestsServed()
    {
        return requestsServed;
    }

    /** @return packed gets answered with a place to pull from, sent in chunks, and the pack area's bytes still held. */
    long[] packedGets()
    {
        return new long[] {packedPulled, packedInChunks, packArea.reservedBytes()};
    }

    /**
     * Stops the server: the duty cycle under way ends (a wait for a request's data within a slice), {@link #onClose}
     * runs on the server's thread, the thread ends; then the pack area is withdrawn.
     */
    @Override
    public void close()
    {
        stopping = true;
        runner.close();
        packArea.close();
    }
}
