package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.spi.AtomicOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The origin side of operations on ranks reached through the driver, each request in the protocol
 * {@link ProtocolChoice} picks. A direct get is one-sided reads of the target's exposed slice ({@link io.pinmx.mx.EndpointRegions#iget}):
 * the drivers move the bytes (the kernel module in softirq, the user driver in whichever thread polls) and the target's
 * data server is not involved; a streamed get reads through {@link StreamBuffers}; a packed get asks the target's
 * {@link DataServer} to pack and send the pieces in chunks. Every other operation is a request to the data server:
 * puts and accumulates as {@link PieceRequests} encodes and sends them; read-modify-writes, fences and mutex
 * operations wait for a reply, pinging the server meanwhile ({@link ServerNotices}). A fence that finds the last write
 * sent since the previous one asked to be answered once applied awaits that answer instead of sending a FENCE
 * ({@link WritesSinceFence}).
 * <p>
 * On a driver that applies one-sided writes itself (the kernel module), puts, int32/int64 accumulates of scale 1 and
 * fetch-and-add/swap go to the target's driver instead ({@link ModuleWrites}), so a stopped target still takes them
 * (as {@link RmaMutexes}' tickets and hand-offs, and blocking small gets, which are pulls there; a strided or vector
 * put goes to the data server where the model prices it lower and the server answers, {@link ServerLiveness});
 * other accumulates, packed gets, fences and the other mutex operations stay with the data server.
 * <p>
 * Order on one target: the endpoint delivers one origin's messages in order and the server serves them in order; a
 * read first fences the target if a put or accumulate went to it since its last fence (so it reads their data), and
 * a request to the server first waits for the reads from that target still pulling (so it cannot land before they
 * read). On the target's driver, blocking operations to one target keep ARMCI's order: each waits until the
 * driver acknowledged the earlier ones ({@link ModuleWrites}). A switch of path waits for the other path: a request
 * to the server first waits until the target's driver acknowledged every operation started to it, and an operation
 * for the driver first fences the server if a write went there since the last fence (and waits for packed gets it
 * may still serve), so a put and then an accumulate to the same bytes land in that order.
 */
final class DriverTier
{
    /** Most segments one endpoint message may gather or scatter. */
    static final int MAX_VECTOR = 256;
    /** Most pieces of a vector operation described in one request. */
    static final int MAX_PIECES_PER_REQUEST = 1024;
    /**
     * The largest blocking contiguous get the target's data server answers with the bytes, one request and one reply
     * as a fetch-and-add, instead of a pull the drivers serve: up to this size the served get is the faster of the
     * two, across a network and between ranks of one host alike. Non-blocking gets still pull, side by side.
     */
    static final long SERVED_GET_MAX_BYTES = 2048;
    /** Sends need no deadline of their own: the endpoint fails them when the target stops answering. */
    static final Duration UNTIL_DONE = Duration.ofDays(365);

    private final JobEndpoint job;
    private final Endpoint endpoint;
    private final int self;
    private final RequestHeader header = new RequestHeader();
    private final ServerNotices notices;
    private final WritesSinceFence writesSinceFence;
    /** The sequence number of this origin's next request, whatever its kind: its answers' tags name it. */
    private long nextSequence = 1;
    private final ProtocolChoice protocols;
    private final CopiedWrites copied;
    private final PieceRequests requests;
    private final ModuleWrites module;
    private final ServerLiveness liveness;
    private final DriverReads reads;
    /** The request and answer of a call: reused, as a call returns only once its send and receive are done. */
    private final MemorySegment askHead = Arena.ofAuto().allocate(RequestHeader.FIXED_BYTES, 8);
    private final MemorySegment askAnswer = Arena.ofAuto().allocate(SERVED_GET_MAX_BYTES, 8);
    private final Predicate<MemorySegment> isDeclared;
    /**
     * The largest request that carries its data inline: one the endpoint sends eagerly. Past its rendezvous
     * threshold the target pulls the request from the origin's memory, and an inline copy, fresh memory each time,
     * would cost a region declaration per put, more than sending from the caller's buffer.
     */
    private final long inlineLimitBytes;

    DriverTier(final JobEndpoint job, final ProtocolChoice protocols, final EpochCounters epochs)
    {
        this.protocols = protocols;
        this.job = job;
        this.endpoint = job.endpoint();
        this.isDeclared = endpoint.regions()::isDeclared;
        final StreamBuffers streams = new StreamBuffers(endpoint);
        this.self = job.job().rank();
        this.writesSinceFence = new WritesSinceFence(endpoint, job.job().size());
        this.notices = new ServerNotices(job);
        this.inlineLimitBytes = Math.min(RequestHeader.BUFFER_BYTES, endpoint.options().rendezvousThresholdBytes());
        this.copied = new CopiedWrites(job.job().size(), inlineLimitBytes);
        this.requests = new PieceRequests(job, notices, protocols, streams, copied, writesSinceFence,
            () -> nextSequence++, inlineLimitBytes);
        this.module = new ModuleWrites(job);
        this.liveness = new ServerLiveness(job.job().size(), rank -> notices.probe(rank, nextSequence++));
        this.reads = new DriverReads(this, job, protocols, epochs, streams, module, isDeclared);
    }

    /**
     * @return the largest put or accumulate, header and data, that travels with its request (its data copied in or a
     *         vector of its pieces); larger ones' pieces are pulled by the target or streamed in chunks.
     */
    long inlineLimitBytes()
    {
        return inlineLimitBytes;
    }

    /** @return the job's endpoint and its partners. */
    JobEndpoint job()
    {
        return job;
    }

    /** @return whether the endpoint has this memory declared (its region cache holds a region over it). */
    boolean isDeclared(final MemorySegment memory)
    {
        return isDeclared.test(memory);
    }

    /**
     * Put or accumulate (scale non-null) of {@code pieces} to {@code rank}; {@code patch}: the remote shape, or null
     * for the pieces' own offsets. Gets from the rank still pulling are waited for first: a write must not land
     * before an earlier get has read.
     */
    void write(final RmaHandle handle, final int rank, final RmaAllocation allocation, final Pieces pieces,
        final StridedPatch patch, final long remoteBase, final AccumulateScale scale)
    {
        try
        {
            if (0 < pieces.totalBytes && module.takes(allocation, rank) &&
                (null == scale ? 1 == pieces.count() || protocols.scatterByModule(rank, pieces, liveness) :
                    ModuleWrites.applies(scale)))
            {
                toModule(rank);
                if (null == scale)
                {
                    module.put(rank, allocation, pieces, handle.isBlocking());
                }
                else
                {
                    module.accumulate(rank, allocation, pieces, scale.type(), handle.isBlocking());
                }
                return;
            }
            writeThroughServer(handle, rank, allocation.id(), pieces, patch, remoteBase, scale);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(rank, ex);
        }
    }

    /**
     * A put the rank's driver scatters, waited for with a fence: the calibration's probe of the NIC-based protocol.
     */
    void putThroughModule(final int rank, final RmaAllocation allocation, final Pieces pieces)
    {
        toModule(rank);
        module.put(rank, allocation, pieces, true);
        fence(rank);
    }

    /** As {@link #write}, always to the rank's data server in the protocol {@link ProtocolChoice} picks. */
    void writeThroughServer(final RmaHandle handle, final int rank, final long allocationId, final Pieces pieces,
        final StridedPatch patch, final long remoteBase, final AccumulateScale scale)
    {
        try
        {
            toServer(rank);
            requests.write(handle, rank, allocationId, pieces, patch, remoteBase, scale);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(rank, ex);
        }
    }

    /** A get of {@code pieces} from the rank's slice, in the protocol {@link DriverReads#read} picks. */
    void read(final RmaHandle handle, final int rank, final RmaAllocation allocation, final Pieces pieces,
        final StridedPatch patch, final long remoteBase)
    {
        reads.read(handle, rank, allocation, pieces, patch, remoteBase);
    }

    /** A blocking contiguous get of at most {@link #SERVED_GET_MAX_BYTES} the rank's data server answers. */
    void servedGet(final int rank, final long allocationId, final long remoteOffset, final MemorySegment into)
    {
        ask(RmaOp.GET_SERVED, rank, allocationId, remoteOffset, into.byteSize());
        MemorySegment.copy(askAnswer, 0, into, 0, into.byteSize());
    }

    /** Starts a get the rank's data server packs ({@link PackedGet}), after its driver acknowledged every operation. */
    PackedGet startPackedGet(final int rank, final long allocationId, final Pieces pieces, final StridedPatch patch,
        final long remoteBase)
    {
        module.complete(rank);
        final long sequence = nextSequence++;
        return new PackedGet(this, endpoint, job.partner(rank), rank, pieces, sequence,
            requests.packedGet(rank, sequence, allocationId, pieces, patch, remoteBase));
    }

    /**
     * Before an operation on the rank: waits for the gets from it still running, so that the operation cannot
     * overtake them, and releases the copied writes to it acknowledged since (one that failed throws).
     */
    private void settle(final int rank)
    {
        copied.check(rank, false);
        reads.settle(rank);
    }

    /**
     * Before an operation for the target's driver: gets from the rank settled (packed ones too, which its data server
     * serves in its own time), and the writes sent to its data server since the last fence applied, so that the
     * driver's operation lands after them.
     */
    private void toModule(final int rank)
    {
        settle(rank);
        reads.awaitPacked(rank);
        if (writesSinceFence.any(rank))
        {
            fence(rank);
        }
    }

    /**
     * Before a write meant to land after every write started to the rank: the ones its driver takes acknowledged, when
     * this one goes to its driver too (the driver applies writes as their frames arrive, not in the order started;
     * the data server serves one origin's requests in order, and a write to the server waits for the driver's anyway).
     */
    void orderAfterWrites(final RmaAllocation allocation, final int rank)
    {
        if (module.takes(allocation, rank))
        {
            module.complete(rank);
        }
    }

    /**
     * Before a request to the rank's data server: every operation started to its driver acknowledged (so that the
     * request lands after them), and the gets from it settled.
     */
    private void toServer(final int rank)
    {
        module.complete(rank);
        settle(rank);
    }

    /** @return whether writes and atomics to the rank's slice of the allocation go to the rank's driver. */
    boolean takesWrites(final RmaAllocation allocation, final int rank)
    {
        return module.takes(allocation, rank);
    }

    /**
     * A fetch-and-add or swap ({@code op} one of the FETCH_ADD and SWAP operations): through the target's driver when
     * it takes the allocation's writes, else the target's data server.
     *
     * @return the word's value before.
     */
    long rmw(final RmaOp op, final int rank, final RmaAllocation allocation, final long offset, final long value)
    {
        if (!module.takes(allocation, rank))
        {
            return call(op, rank, allocation.id(), offset, value);
        }
        toModule(rank);
        return switch (op)
        {
            case FETCH_ADD_INT -> module.atomic(rank, allocation, AtomicOp.FETCH_ADD, Integer.BYTES, offset, value, 0);
            case FETCH_ADD_LONG -> module.atomic(rank, allocation, AtomicOp.FETCH_ADD, Long.BYTES, offset, value, 0);
            case SWAP_INT -> module.atomic(rank, allocation, AtomicOp.SWAP, Integer.BYTES, offset, value, 0);
            case SWAP_LONG -> module.atomic(rank, allocation, AtomicOp.SWAP, Long.BYTES, offset, value, 0);
            default -> throw new IllegalArgumentException(op + " is not a read-modify-write");
        };
    }

    /**
     * A compare-and-swap of the long at {@code offset} by the rank's driver, which must take the allocation's writes
     * ({@link #takesWrites}): {@code value} stored if the word held {@code expected}.
     *
     * @return the word's value before (the expected one if it stored).
     */
    long compareAndSwapLong(final int rank, final RmaAllocation allocation, final long offset, final long expected,
        final long value)
    {
        toModule(rank);
        return module.atomic(rank, allocation, AtomicOp.COMPARE_AND_SWAP, Long.BYTES, offset, value, expected);
    }

    /**
     * A request answered by one 8-byte value (read-modify-write, fence, lock, try-lock); waits for it.
     *
     * @return the value the server answered.
     */
    long call(final RmaOp op, final int rank, final long allocationId, final long offset, final long value)
    {
        try
        {
            return ask(op, rank, allocationId, offset, value);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(rank, ex);
        }
    }

    /** Sends the request and waits for its reply, received into {@link #askAnswer} (a value, or a served get's bytes). */
    private long ask(final RmaOp op, final int rank, final long allocationId, final long offset, final long value)
    {
        toServer(rank);
        final long sequence = nextSequence++;
        final MemorySegment head = askHead;
        header.wrap(head).encode(op, self, sequence, allocationId, offset, 0, value);
        notices.releaseWith(rank, header);
        final MemorySegment answer = askAnswer;
        final Partner partner = job.partner(rank);
        final Request receive = endpoint.irecv(partner.id(), RmaTags.of(RmaTags.REPLY, sequence), MatchInfo.MASK_ALL,
            answer);
        final Request send;
        try
        {
            send = endpoint.isend(partner, RmaTags.of(RmaTags.REQUEST, sequence), head);
        }
        catch (final MxException ex)
        {
            // the receive must not outlive the call: the next one receives into the same answer
            Completions.forget(new Request[] {receive}, 0);
            throw ex;
        }
        // a target that acknowledged the request and then died sends nothing
        awaitAnswer(rank, receive);
        send.await(UNTIL_DONE);
        send.release();
        RankFailures.releaseAnswer(rank, receive);
        if (RmaOp.FENCE == op)
        {
            // served after the write that asked for an answer, so that answer came first
            awaitApplied(rank);
            // the reply acknowledged every message sent before the fence
            fenced(rank);
        }
        return answer.get(ValueLayout.JAVA_LONG, 0);
    }

    /** A request with no answer (unlock); returns when it was delivered. */
    void tell(final RmaOp op, final int rank, final long allocationId, final long offset)
    {
        toServer(rank);
        // the call's own header, as ask's: the call returns only once the send is done
        final MemorySegment head = askHead;
        header.wrap(head).encode(op, self, nextSequence++, allocationId, offset, 0, 0);
        final Request send;
        try
        {
            send = endpoint.isend(job.partner(rank), RmaTags.of(RmaTags.REQUEST, 0), head);
        }
        catch (final MxException ex)
        {
            throw RankFailures.refused(rank, ex);
        }
        new Completions.Sends(rank, List.of(send)).await();
    }

    /**
     * Before a collective free: every get from the rank finished pulling and every request sent to its data server
     * served (a FENCE, whether or not a put went there: a packed get or a write on an explicit handle not yet waited
     * for must not reach the slice after its owner unmapped it).
     */
    void drain(final int rank)
    {
        settle(rank);
        call(RmaOp.FENCE, rank, 0, 0, 0);
    }

    /**
     * Fences the rank: waits until its driver acknowledged every operation started to it, and if a put or accumulate
     * went to its data server since its last fence, fences that too: when that write was one that asked to be answered
     * once applied, its answer is the fence (the server serves one origin's requests in order).
     */
    void fence(final int rank)
    {
        module.complete(rank);
        if (!writesSinceFence.any(rank))
        {
            return;
        }
        if (writesSinceFence.answerIsLast(rank))
        {
            settle(rank);
            awaitApplied(rank);
            fenced(rank);
            return;
        }
        call(RmaOp.FENCE, rank, 0, 0, 0);
    }

    /** After the rank answered a fence, or the write a fence waited for: every message sent to it arrived. */
    private void fenced(final int rank)
    {
        writesSinceFence.fenced(rank);
        copied.check(rank, true);
    }

    /** Receives the answer a write to the rank asked for, if one did; throws if the rank failed. */
    private void awaitApplied(final int rank)
    {
        final Request answer = writesSinceFence.takeAnswer(rank);
        if (null == answer)
        {
            return;
        }
        awaitAnswer(rank, answer);
        RankFailures.releaseAnswer(rank, answer);
    }

    static void forEachChunk(final Pieces pieces, final Consumer<Pieces> action)
    {
        for (int from = 0; from < pieces.count(); from += MAX_PIECES_PER_REQUEST)
        {
            action.accept(pieces.range(from, Math.min(pieces.count(), from + MAX_PIECES_PER_REQUEST)));
        }
    }

    /** Waits for a receive of what the rank's data server sends back, see {@link ServerNotices#awaitAnswer}. */
    void awaitAnswer(final int rank, final Request receive)
    {
        notices.awaitAnswer(rank, receive);
        if (RequestState.FAILED != receive.state())
        {
            liveness.answered(rank);
        }
    }

    /** The packed get at {@code offset} of the rank's pack area was pulled, see {@link ServerNotices#releasePacked}. */
    void releasePacked(final int rank, final long offset)
    {
        notices.releasePacked(rank, offset);
    }
}
