package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;
import io.pinmx.mx.match.MatchInfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The origin side of operations on ranks reached through the driver. A get is a one-sided read of the target's
 * exposed slice ({@link Endpoint#iget}): the drivers move the bytes (the kernel module in softirq, the user driver on
 * its progress thread) and the target's data server is not involved. Every other operation is a request to the
 * target's {@link DataServer} over this rank's endpoint, with its data inline when it fits the server's request
 * buffer and as a second message otherwise; read-modify-writes, fences and mutex operations wait for a reply. Pieces
 * go as a vector of the caller's own memory when there are few enough (no copy), packed otherwise, and always packed
 * when the caller's memory is confined to its thread (the endpoint's progress thread could not touch it).
 * <p>
 * Order on one target: the endpoint delivers one origin's messages in order and the server serves them in order; a
 * get first fences the target if a put or accumulate went to it since its last fence (so it reads their data), and
 * a request to the server first waits for the gets from that target still pulling (so it cannot land before they
 * read).
 */
final class DriverTier
{
    /** Most segments one endpoint message may gather or scatter. */
    static final int MAX_VECTOR = 256;
    /** Most pieces of a vector operation described in one request. */
    static final int MAX_PIECES_PER_REQUEST = 1024;
    /** Most pieces of a get pulled one after another by one endpoint read; more go as reads running side by side. */
    static final int PIECES_PER_PULL_REQUEST = 64;
    /** Reads a direct get spreads its pieces over, so that up to this many pulls run side by side. */
    static final int READS_IN_FLIGHT = 16;
    private static final Duration PING_INTERVAL = Duration.ofMillis(500);
    /** Sends need no deadline of their own: the endpoint fails them when the target stops answering. */
    private static final Duration UNTIL_DONE = Duration.ofDays(365);

    private final JobEndpoint job;
    private final Endpoint endpoint;
    private final int self;
    private final RequestHeader header = new RequestHeader();
    private final MemorySegment pingHeader;
    private final List<Request> pings = new ArrayList<>();
    private final boolean[] unfenced;
    /** Per rank, the gets that may still be pulling from it. */
    private final List<Pulls>[] pendingGets;
    private long nextSequence = 1;
    private final ProtocolChoice protocols;
    /** The two buffers a streamed transfer goes through, declared once (the region cache keeps them). */
    private final MemorySegment[] streamBuffers = new MemorySegment[2];

    DriverTier(final JobEndpoint job, final ProtocolChoice protocols)
    {
        this.protocols = protocols;
        final Arena buffers = Arena.ofAuto();
        for (int i = 0; i < streamBuffers.length; i++)
        {
            streamBuffers[i] = buffers.allocate(ChunkSchedule.MAX_CHUNK_BYTES, 4096);
        }
        this.job = job;
        this.endpoint = job.endpoint();
        this.self = job.job().rank();
        this.unfenced = new boolean[job.job().size()];
        this.pendingGets = newGetLists(job.job().size());
        this.pingHeader = Arena.ofAuto().allocate(RequestHeader.FIXED_BYTES, 8);
        header.wrap(pingHeader).encode(RmaOp.PING, self, 0, 0, 0, 0, 0);
    }

    @SuppressWarnings("unchecked")
    private static List<Pulls>[] newGetLists(final int ranks)
    {
        final List<Pulls>[] lists = new List[ranks];
        for (int r = 0; r < ranks; r++)
        {
            lists[r] = new ArrayList<>();
        }
        return lists;
    }

    /**
     * Put or accumulate (scale non-null) of {@code pieces} to {@code rank}; {@code patch}: the remote shape, or null
     * for the pieces' own offsets. Gets from the rank still pulling are waited for first: a write must not land
     * before an earlier get has read.
     */
    void write(final RmaHandle handle, final int rank, final long allocationId, final Pieces pieces,
        final StridedPatch patch, final long remoteBase, final AccumulateScale scale)
    {
        try
        {
            send(handle, rank, allocationId, pieces, patch, remoteBase, scale);
        }
        catch (final MxException ex)
        {
            throw refused(rank, ex);
        }
    }

    private void send(final RmaHandle handle, final int rank, final long allocationId, final Pieces pieces,
        final StridedPatch patch, final long remoteBase, final AccumulateScale scale)
    {
        settleGets(rank);
        unfenced[rank] = true;
        if (null == patch && pieces.count() > MAX_PIECES_PER_REQUEST)
        {
            forEachChunk(pieces, chunk -> send(handle, rank, allocationId, chunk, null, 0, scale));
            return;
        }
        final RmaOp op = null == scale ? RmaOp.PUT : RmaOp.ACC;
        final long sequence = nextSequence++;
        final Arena arena = Arena.ofAuto();
        final MemorySegment head = encode(arena, op, rank, sequence, allocationId, pieces, patch, remoteBase, true);
        if (null != scale)
        {
            header.scale(scale);
        }
        final boolean packed;
        if (1 == pieces.count())
        {
            packed = ContiguousProtocol.STREAM == protocols.contiguous(true, pieces);
        }
        else
        {
            packed = StridedProtocol.PACK == protocols.strided(true, pieces);
        }
        final int headerBytes = header.headerBytes();
        final Partner partner = job.partner(rank);
        final List<Request> sends = new ArrayList<>(2);
        final long requestTag = RmaTags.of(RmaTags.REQUEST, sequence);
        if (pieces.totalBytes <= RequestHeader.BUFFER_BYTES - headerBytes)
        {
            header.inlineBytes((int)pieces.totalBytes);
            if (!packed && pieces.count() < MAX_VECTOR)
            {
                final MemorySegment[] vector = new MemorySegment[pieces.count() + 1];
                vector[0] = head.asSlice(0, headerBytes);
                System.arraycopy(pieces.local, 0, vector, 1, pieces.count());
                sends.add(endpoint.isend(partner, requestTag, vector, vector.length));
            }
            else
            {
                final MemorySegment inline = arena.allocate(headerBytes + pieces.totalBytes, 8);
                MemorySegment.copy(head, 0, inline, 0, headerBytes);
                pieces.pack(inline.asSlice(headerBytes));
                sends.add(endpoint.isend(partner, requestTag, inline));
            }
        }
        else if (!packed)
        {
            sends.add(endpoint.isend(partner, requestTag, head.asSlice(0, headerBytes)));
            final long data = RmaTags.of(RmaTags.DATA, sequence);
            for (int from = 0; from < pieces.count(); from += MAX_VECTOR)
            {
                sends.add(endpoint.isend(partner, data, Arrays.copyOfRange(pieces.local, from,
                    Math.min(pieces.count(), from + MAX_VECTOR)), Math.min(MAX_VECTOR, pieces.count() - from)));
            }
        }
        else
        {
            header.delivery(RequestHeader.DELIVERY_CHUNKS);
            sends.add(endpoint.isend(partner, requestTag, head.asSlice(0, headerBytes)));
            if (1 == pieces.count())
            {
                stream(partner, sequence, pieces.local[0], sends);
            }
            else
            {
                sendPacked(partner, sequence, pieces, arena, sends);
            }
        }
        handle.add(new Sends(rank, sends));
    }

    /**
     * The pack protocol's data: each chunk is packed and sent while the ones before it travel (the endpoint's
     * progress thread moves them).
     */
    private void sendPacked(final Partner partner, final long sequence, final Pieces pieces, final Arena arena,
        final List<Request> sends)
    {
        final MemorySegment packed = arena.allocate(pieces.totalBytes, 8);
        final PieceCursor cursor = PieceCursor.of(pieces);
        final long tag = RmaTags.of(RmaTags.DATA, sequence);
        long at = 0;
        for (int c = 0; at < pieces.totalBytes; c++)
        {
            final MemorySegment chunk = packed.asSlice(at, ChunkSchedule.chunkBytes(c, pieces.totalBytes - at));
            cursor.pack(chunk);
            sends.add(endpoint.isend(partner, tag, chunk));
            at += chunk.byteSize();
        }
    }

    /**
     * A streamed put's data through the two stream buffers: chunk c is copied into buffer c % 2 once the send of
     * chunk c - 2 from it is done, then sent; returns when every chunk is sent, so the buffers are free again.
     */
    private void stream(final Partner partner, final long sequence, final MemorySegment source,
        final List<Request> sends)
    {
        final long total = source.byteSize();
        final long tag = RmaTags.of(RmaTags.DATA, sequence);
        final Request[] using = new Request[streamBuffers.length];
        long at = 0;
        for (int c = 0; at < total; c++)
        {
            final int b = c % streamBuffers.length;
            if (null != using[b])
            {
                using[b].await(UNTIL_DONE);
            }
            final long bytes = ChunkSchedule.chunkBytes(c, total - at);
            final MemorySegment chunk = streamBuffers[b].asSlice(0, bytes);
            MemorySegment.copy(source, at, chunk, 0, bytes);
            using[b] = endpoint.isend(partner, tag, chunk);
            sends.add(using[b]);
            at += bytes;
        }
        for (final Request r : using)
        {
            if (null != r)
            {
                r.await(UNTIL_DONE);
            }
        }
    }

    /**
     * Get of {@code pieces} from the rank's slice (allocation {@code allocation}, exposed as a region there):
     * directly, pulls the driver serves at the target without its data server; packed, the target's data server
     * packs and sends them in chunks; streamed (contiguous), pulls into the stream buffers copied out as they land.
     * A pull reads the slice behind the server's back, so a put or accumulate to the rank not yet known complete
     * there is fenced first; a packed get is served by the server after them anyway.
     *
     * @param patch the remote shape (its source side), or null for the pieces' own offsets.
     */
    void read(final RmaHandle handle, final int rank, final RmaAllocation allocation, final Pieces pieces,
        final StridedPatch patch, final long remoteBase)
    {
        try
        {
            if (0 == pieces.totalBytes)
            {
                return;
            }
            if (1 == pieces.count())
            {
                if (ContiguousProtocol.STREAM == protocols.contiguous(false, pieces))
                {
                    fence(rank);
                    streamIn(rank, allocation.regionId(rank), pieces.remoteOffsets[0], pieces.local[0]);
                    return;
                }
                pull(handle, rank, allocation.regionId(rank), pieces);
                return;
            }
            if (StridedProtocol.PACK == protocols.strided(false, pieces))
            {
                if (null == patch && pieces.count() > MAX_PIECES_PER_REQUEST)
                {
                    forEachChunk(pieces, chunk -> getPacked(handle, rank, allocation.id(), chunk, null, 0));
                    return;
                }
                getPacked(handle, rank, allocation.id(), pieces, patch, remoteBase);
                return;
            }
            pull(handle, rank, allocation.regionId(rank), pieces);
        }
        catch (final MxException ex)
        {
            throw refused(rank, ex);
        }
    }

    /** The direct protocol of a get: reads side by side, each pulling its share of the pieces in turn. */
    private void pull(final RmaHandle handle, final int rank, final int regionId, final Pieces pieces)
    {
        fence(rank);
        pendingGets[rank].removeIf(Pulls::isDone);
        final Partner partner = job.partner(rank);
        final boolean direct = pieces.count() <= MAX_VECTOR && pieces.shareable();
        final MemorySegment staging = direct ? null : Arena.ofAuto().allocate(pieces.totalBytes, 8);
        final int perRead = Math.clamp((pieces.count() + READS_IN_FLIGHT - 1) / READS_IN_FLIGHT, 1,
            PIECES_PER_PULL_REQUEST);
        final int reads = (pieces.count() + perRead - 1) / perRead;
        final Request[] pulls = new Request[reads];
        long stagedAt = 0;
        for (int c = 0; c < reads; c++)
        {
            final int from = c * perRead;
            final int count = Math.min(pieces.count(), from + perRead) - from;
            final long[] offsets = Arrays.copyOfRange(pieces.remoteOffsets, from, from + count);
            final long[] lengths = Arrays.copyOfRange(pieces.lengths, from, from + count);
            if (direct)
            {
                final MemorySegment[] into = Arrays.copyOfRange(pieces.local, from, from + count);
                pulls[c] = endpoint.iget(partner, regionId, offsets, lengths, count, into, count);
            }
            else
            {
                long bytes = 0;
                for (final long length : lengths)
                {
                    bytes += length;
                }
                pulls[c] = endpoint.iget(partner, regionId, offsets, lengths, count,
                    new MemorySegment[] {staging.asSlice(stagedAt, bytes)}, 1);
                stagedAt += bytes;
            }
        }
        final Pulls get = new Pulls(rank, pulls, direct ? null : pieces, staging);
        pendingGets[rank].add(get);
        handle.add(get);
    }

    /**
     * The streaming protocol of a contiguous get: chunks pulled into the two stream buffers in turn, each copied
     * out while the next is pulled; complete when it returns (the buffers are free again).
     */
    private void streamIn(final int rank, final int regionId, final long remoteOffset, final MemorySegment destination)
    {
        final Partner partner = job.partner(rank);
        final long total = destination.byteSize();
        final Request[] pulling = new Request[streamBuffers.length];
        final long[] startedAt = new long[streamBuffers.length];
        long requested = 0;
        int next = 0;
        for (int b = 0; b < streamBuffers.length && requested < total; b++, next++)
        {
            startedAt[b] = requested;
            final long bytes = ChunkSchedule.chunkBytes(next, total - requested);
            pulling[b] = endpoint.iget(partner, regionId, remoteOffset + requested, streamBuffers[b].asSlice(0, bytes));
            requested += bytes;
        }
        RmaException failed = null;
        for (int c = 0; c < next; c++)
        {
            final int b = c % streamBuffers.length;
            final Request r = pulling[b];
            r.await(UNTIL_DONE);
            final long bytes = r.status().messageLength();
            if (RequestState.FAILED == r.state() && null == failed)
            {
                failed = failure(rank, r);
            }
            r.release();
            if (null == failed)
            {
                MemorySegment.copy(streamBuffers[b], 0, destination, startedAt[b], bytes);
            }
            if (null == failed && requested < total)
            {
                startedAt[b] = requested;
                final long more = ChunkSchedule.chunkBytes(next, total - requested);
                pulling[b] = endpoint.iget(partner, regionId, remoteOffset + requested,
                    streamBuffers[b].asSlice(0, more));
                requested += more;
                next++;
            }
        }
        if (null != failed)
        {
            throw failed;
        }
    }

    /**
     * The pack protocol of a get: the receives of every chunk are posted before the request goes, the target's data
     * server packs and sends chunk after chunk, and the caller unpacks each as the next arrives.
     */
    private void getPacked(final RmaHandle handle, final int rank, final long allocationId, final Pieces pieces,
        final StridedPatch patch, final long remoteBase)
    {
        final long sequence = nextSequence++;
        final Arena arena = Arena.ofAuto();
        final MemorySegment head = encode(arena, RmaOp.GET_PACKED, rank, sequence, allocationId, pieces, patch,
            remoteBase, false);
        final Partner partner = job.partner(rank);
        final MemorySegment staging = arena.allocate(pieces.totalBytes, 8);
        final Request[] chunks = new Request[ChunkSchedule.chunks(pieces.totalBytes)];
        final MemorySegment[] into = new MemorySegment[chunks.length];
        final long tag = RmaTags.of(RmaTags.PACKED, sequence);
        long at = 0;
        for (int c = 0; c < chunks.length; c++)
        {
            into[c] = staging.asSlice(at, ChunkSchedule.chunkBytes(c, pieces.totalBytes - at));
            chunks[c] = endpoint.irecv(partner.id(), tag, MatchInfo.MASK_ALL, into[c]);
            at += into[c].byteSize();
        }
        final Request send = endpoint.isend(partner, RmaTags.of(RmaTags.REQUEST, sequence),
            head.asSlice(0, header.headerBytes()));
        handle.add(new PackedGet(rank, send, chunks, into, pieces));
    }

    /** Waits for the gets from the rank still running, so that an operation issued after them cannot overtake. */
    private void settleGets(final int rank)
    {
        final List<Pulls> pending = pendingGets[rank];
        for (int i = 0; i < pending.size(); i++)
        {
            pending.get(i).settle();
        }
        pending.clear();
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
            throw refused(rank, ex);
        }
    }

    private long ask(final RmaOp op, final int rank, final long allocationId, final long offset, final long value)
    {
        settleGets(rank);
        final long sequence = nextSequence++;
        final Arena arena = Arena.ofAuto();
        final MemorySegment head = arena.allocate(RequestHeader.FIXED_BYTES, 8);
        header.wrap(head).encode(op, self, sequence, allocationId, offset, 0, value);
        final MemorySegment answer = arena.allocate(Long.BYTES, 8);
        final Partner partner = job.partner(rank);
        final Request receive = endpoint.irecv(partner.id(), RmaTags.of(RmaTags.REPLY, sequence), MatchInfo.MASK_ALL,
            answer);
        final Request send = endpoint.isend(partner, RmaTags.of(RmaTags.REQUEST, sequence), head);
        new Reply(rank, send, receive).await();
        if (RmaOp.FENCE == op)
        {
            unfenced[rank] = false;
        }
        return answer.get(ValueLayout.JAVA_LONG, 0);
    }

    /** A request with no answer (unlock); returns when it was delivered. */
    void tell(final RmaOp op, final int rank, final long allocationId, final long offset)
    {
        settleGets(rank);
        final MemorySegment head = Arena.ofAuto().allocate(RequestHeader.FIXED_BYTES, 8);
        header.wrap(head).encode(op, self, nextSequence++, allocationId, offset, 0, 0);
        final Request send;
        try
        {
            send = endpoint.isend(job.partner(rank), RmaTags.of(RmaTags.REQUEST, 0), head);
        }
        catch (final MxException ex)
        {
            throw refused(rank, ex);
        }
        new Sends(rank, List.of(send)).await();
    }

    /** Fences the rank if a put or accumulate went to it since its last fence. */
    void fence(final int rank)
    {
        if (unfenced[rank])
        {
            call(RmaOp.FENCE, rank, 0, 0, 0);
        }
    }

    private MemorySegment encode(final Arena arena, final RmaOp op, final int rank, final long sequence,
        final long allocationId, final Pieces pieces, final StridedPatch patch, final long remoteBase,
        final boolean remoteIsTarget)
    {
        final int pieceBytes = null == patch ? RequestHeader.PIECE_BYTES * pieces.count() : 0;
        final MemorySegment head = arena.allocate(RequestHeader.FIXED_BYTES + pieceBytes, 8);
        header.wrap(head).encode(op, self, sequence, allocationId, remoteBase, pieces.totalBytes, 0);
        if (null != patch)
        {
            header.strided(patch, remoteIsTarget);
        }
        else
        {
            header.pieces(pieces.remoteOffsets, pieces.lengths, 0, pieces.count());
        }
        return head;
    }

    private static void forEachChunk(final Pieces pieces, final Consumer<Pieces> action)
    {
        for (int from = 0; from < pieces.count(); from += MAX_PIECES_PER_REQUEST)
        {
            action.accept(pieces.range(from, Math.min(pieces.count(), from + MAX_PIECES_PER_REQUEST)));
        }
    }

    private void ping(final int rank)
    {
        pings.removeIf(p ->
        {
            if (p.test())
            {
                p.release();
                return true;
            }
            return false;
        });
        pings.add(endpoint.isend(job.partner(rank), RmaTags.of(RmaTags.REQUEST, 0), pingHeader));
    }

    /** The endpoint refused to start an operation: the rank's partner failed (it died) or the endpoint closed. */
    private static RmaException refused(final int rank, final MxException ex)
    {
        return new RmaException("operation on rank " + rank + " refused: " + ex.getMessage(), ex);
    }

    private static RmaException failure(final int rank, final Request r)
    {
        return new RmaException("operation on rank " + rank + " failed: " + r.status().error());
    }

    /** Sends that complete a put or accumulate locally (the source may be reused). */
    private static final class Sends implements RmaHandle.Completion
    {
        private final int rank;
        private final List<Request> sends;

        Sends(final int rank, final List<Request> sends)
        {
            this.rank = rank;
            this.sends = sends;
        }

        @Override
        public boolean isDone()
        {
            for (final Request r : sends)
            {
                if (!r.test())
                {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void await()
        {
            RmaException failed = null;
            for (final Request r : sends)
            {
                // A send to a dead target fails by itself within the peer timeout: nothing acknowledges it.
                r.await(UNTIL_DONE);
                if (RequestState.FAILED == r.state() && null == failed)
                {
                    failed = failure(rank, r);
                }
                r.release();
            }
            if (null != failed)
            {
                throw failed;
            }
        }
    }

    /** The endpoint reads of one get; a staged get is unpacked into its pieces on the caller's thread. */
    private static final class Pulls implements RmaHandle.Completion
    {
        private final int rank;
        private final Request[] reads;
        private final Pieces unpackInto;
        private final MemorySegment staging;
        private boolean settled;
        private RmaException failure;

        Pulls(final int rank, final Request[] reads, final Pieces unpackInto, final MemorySegment staging)
        {
            this.rank = rank;
            this.reads = reads;
            this.unpackInto = unpackInto;
            this.staging = staging;
        }

        @Override
        public boolean isDone()
        {
            if (settled)
            {
                return true;
            }
            for (final Request r : reads)
            {
                if (!r.test())
                {
                    return false;
                }
            }
            return true;
        }

        /** Waits for every read (a dead target fails them within the peer timeout) and keeps the first failure. */
        void settle()
        {
            if (settled)
            {
                return;
            }
            settled = true;
            for (final Request r : reads)
            {
                r.await(UNTIL_DONE);
                if (RequestState.FAILED == r.state() && null == failure)
                {
                    failure = failure(rank, r);
                }
                r.release();
            }
            if (null == failure && null != unpackInto)
            {
                unpackInto.unpack(staging);
            }
        }

        @Override
        public void await()
        {
            settle();
            if (null != failure)
            {
                throw failure;
            }
        }
    }

    /** A packed get: its request, then its chunks, unpacked into the caller's pieces in order as they arrive. */
    private final class PackedGet implements RmaHandle.Completion
    {
        private final int rank;
        private final Request send;
        private final Request[] chunks;
        private final MemorySegment[] into;
        private final Pieces pieces;
        private boolean done;

        PackedGet(final int rank, final Request send, final Request[] chunks, final MemorySegment[] into,
            final Pieces pieces)
        {
            this.rank = rank;
            this.send = send;
            this.chunks = chunks;
            this.into = into;
            this.pieces = pieces;
        }

        @Override
        public boolean isDone()
        {
            return done || chunks[chunks.length - 1].test();
        }

        @Override
        public void await()
        {
            if (done)
            {
                return;
            }
            done = true;
            final PieceCursor cursor = PieceCursor.of(pieces);
            RmaException failed = null;
            for (int c = 0; c < chunks.length; c++)
            {
                final Request r = chunks[c];
                // The server answers only if it lives: keep talking to it so that the endpoint notices if not.
                while (!r.await(PING_INTERVAL))
                {
                    ping(rank);
                }
                if (RequestState.FAILED == r.state() && null == failed)
                {
                    failed = failure(rank, r);
                }
                r.release();
                if (null == failed)
                {
                    cursor.unpack(into[c]);
                }
            }
            send.await(UNTIL_DONE);
            send.release();
            if (null != failed)
            {
                throw failed;
            }
        }
    }

    /** A request and the receive of its reply. */
    private final class Reply
    {
        private final int rank;
        private final Request send;
        private final Request receive;

        Reply(final int rank, final Request send, final Request receive)
        {
            this.rank = rank;
            this.send = send;
            this.receive = receive;
        }

        void await()
        {
            // A target that acknowledged the request and then died sends nothing: keep talking to it so that the
            // endpoint notices, which fails the receive too.
            while (!receive.await(PING_INTERVAL))
            {
                ping(rank);
            }
            send.await(UNTIL_DONE);
            send.release();
            final boolean failed = RequestState.FAILED == receive.state();
            final RmaException error = failed ? failure(rank, receive) : null;
            receive.release();
            if (null != error)
            {
                throw error;
            }
        }
    }
}
