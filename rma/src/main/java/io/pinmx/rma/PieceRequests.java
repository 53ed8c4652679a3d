package io.pinmx.rma;

import io.pinmx.job.JobEndpoint;
import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The requests to a rank's {@link DataServer} that name pieces of its slice, encoded and sent for {@link DriverTier}:
 * puts and accumulates, each with its data in the protocol {@link ProtocolChoice} picks (inline when it fits the
 * server's request buffer, else following the request: the caller's pieces as vectors (direct, zero-copy), packed
 * chunks (pack) or chunks through the {@link StreamBuffers} (stream)), and the requests of packed gets. A small put or
 * accumulate, or one packed inline in its request, is complete once copied ({@link CopiedWrites}); others once their
 * sends are acknowledged. The first copied write to a rank after a fence asks the server to answer once it applied it
 * ({@link WritesSinceFence}). Used by the thread that issues operations.
 */
final class PieceRequests
{
    /**
     * What the protocol choice is told of a put whose region would change nothing: it follows the model's curves
     * (a put that travels with its request uses no region, so memory declared already must not send it zero-copy,
     * which is slower than a copy sent with the request).
     */
    private static final Predicate<MemorySegment> NO_REGION_USED = memory -> false;

    private final JobEndpoint job;
    private final Endpoint endpoint;
    private final int self;
    private final RequestHeader header = new RequestHeader();
    private final ServerNotices notices;
    private final ProtocolChoice protocols;
    private final StreamBuffers streams;
    private final CopiedWrites copied;
    private final WritesSinceFence writesSinceFence;
    private final LongSupplier sequences;
    private final Predicate<MemorySegment> isDeclared;
    private final long inlineLimitBytes;
    /**
     * Where a put or accumulate's request header is encoded, copied from there into what is sent: an arena per
     * request keeps its cleaner until a collection, so a put loop would have both ranks collecting often, each pause
     * long against an operation.
     */
    private final SegmentAllocator scratchHead = SegmentAllocator.prefixAllocator(Arena.ofAuto().allocate(
        RequestHeader.FIXED_BYTES + (long)RequestHeader.PIECE_BYTES * DriverTier.MAX_PIECES_PER_REQUEST, 8));

    /**
     * @param sequences        the origin's request sequence numbers, shared with its other requests.
     * @param inlineLimitBytes the largest put or accumulate, header and data, that travels with its request.
     */
    PieceRequests(final JobEndpoint job, final ServerNotices notices, final ProtocolChoice protocols,
        final StreamBuffers streams, final CopiedWrites copied, final WritesSinceFence writesSinceFence,
        final LongSupplier sequences, final long inlineLimitBytes)
    {
        this.job = job;
        this.endpoint = job.endpoint();
        this.self = job.job().rank();
        this.notices = notices;
        this.protocols = protocols;
        this.streams = streams;
        this.copied = copied;
        this.writesSinceFence = writesSinceFence;
        this.sequences = sequences;
        this.isDeclared = endpoint.regions()::isDeclared;
        this.inlineLimitBytes = inlineLimitBytes;
    }

    /**
     * Sends a put or accumulate (scale non-null) of {@code pieces} to the rank's data server; {@code patch}: the
     * remote shape, or null for the pieces' own offsets (more than {@link DriverTier#MAX_PIECES_PER_REQUEST} of them
     * go as one request per chunk). Adds what completes it to the handle, or to {@link CopiedWrites}.
     */
    void write(final RmaHandle handle, final int rank, final long allocationId, final Pieces pieces,
        final StridedPatch patch, final long remoteBase, final AccumulateScale scale)
    {
        final boolean firstSinceFence = writesSinceFence.sending(rank);
        if (null == patch && pieces.count() > DriverTier.MAX_PIECES_PER_REQUEST)
        {
            DriverTier.forEachChunk(pieces, chunk -> write(handle, rank, allocationId, chunk, null, 0, scale));
            return;
        }
        final RmaOp op = null == scale ? RmaOp.PUT : RmaOp.ACC;
        final long sequence = sequences.getAsLong();
        final MemorySegment head = encode(scratchHead, op, rank, sequence, allocationId, pieces, patch, remoteBase,
            true);
        if (null != scale)
        {
            header.scale(scale);
        }
        final int headerBytes = header.headerBytes();
        final boolean fitsInline = pieces.totalBytes <= inlineLimitBytes - headerBytes;
        final boolean packed;
        if (1 == pieces.count())
        {
            // one that travels with its request is sent from the caller's memory or a copy, never from a region
            packed = ContiguousProtocol.STREAM == protocols.contiguous(true, pieces,
                fitsInline ? NO_REGION_USED : isDeclared);
        }
        else
        {
            packed = StridedProtocol.PACK == protocols.strided(null == scale ? CostModel.Kind.PUT : CostModel.Kind.ACC,
                fitsInline ? CostModel.SizeClass.SMALL : CostModel.SizeClass.LARGE, pieces);
        }
        final Partner partner = job.partner(rank);
        final List<Request> sends = new ArrayList<>(2);
        final long requestTag = RmaTags.of(RmaTags.REQUEST, sequence);
        // what travels inline as a copy anyway completes on that copy, as a small write does
        if (pieces.totalBytes <= CopiedWrites.MAX_COPIED_BYTES
            || fitsInline && (packed || pieces.count() >= DriverTier.MAX_VECTOR))
        {
            header.inlineBytes((int)pieces.totalBytes).doneOnCopy();
            final MemorySegment buffer = copied.buffer(headerBytes + pieces.totalBytes);
            final MemorySegment inline = buffer.asSlice(0, headerBytes + pieces.totalBytes);
            MemorySegment.copy(head, 0, inline, 0, headerBytes);
            pieces.pack(inline.asSlice(headerBytes));
            if (firstSinceFence)
            {
                header.wrap(inline).answerApplied();
                writesSinceFence.expectAnswer(rank, partner, sequence);
            }
            copied.add(rank, sendAnswered(rank, partner, requestTag, inline), buffer);
            return;
        }
        if (fitsInline)
        {
            header.inlineBytes((int)pieces.totalBytes);
            final MemorySegment[] vector = new MemorySegment[pieces.count() + 1];
            vector[0] = detached(head, headerBytes);
            System.arraycopy(pieces.local, 0, vector, 1, pieces.count());
            sends.add(endpoint.isend(partner, requestTag, vector, vector.length));
        }
        else if (!packed)
        {
            sends.add(endpoint.isend(partner, requestTag, detached(head, headerBytes)));
            final long data = RmaTags.of(RmaTags.DATA, sequence);
            for (int from = 0; from < pieces.count(); from += DriverTier.MAX_VECTOR)
            {
                final int to = Math.min(pieces.count(), from + DriverTier.MAX_VECTOR);
                sends.add(endpoint.isend(partner, data, Arrays.copyOfRange(pieces.local, from, to), to - from));
            }
        }
        else
        {
            header.delivery(RequestHeader.DELIVERY_CHUNKS);
            sends.add(endpoint.isend(partner, requestTag, detached(head, headerBytes)));
            final long data = RmaTags.of(RmaTags.DATA, sequence);
            if (1 == pieces.count())
            {
                streams.put(partner, data, pieces.local[0], sends);
            }
            else
            {
                // packed into the stream buffers, which stay declared: fresh memory per request cost a declaration
                // each of its rendezvous chunks
                final PieceCursor cursor = PieceCursor.of(pieces);
                streams.put(partner, data, pieces.totalBytes, (chunk, at) -> cursor.pack(chunk), sends);
            }
        }
        handle.add(new Completions.Sends(rank, sends));
    }

    /**
     * @return the request of a get of the pieces the rank's data server packs ({@link PackedGet}), sequence
     *         {@code sequence}: pulled from its pack area when large enough, else sent in chunks.
     */
    MemorySegment packedGet(final int rank, final long sequence, final long allocationId, final Pieces pieces,
        final StridedPatch patch, final long remoteBase)
    {
        final MemorySegment head = encode(Arena.ofAuto(), RmaOp.GET_PACKED, rank, sequence, allocationId, pieces,
            patch, remoteBase, false);
        if (PackedGet.pulls(pieces.totalBytes))
        {
            header.delivery(RequestHeader.DELIVERY_PULL);
        }
        return head.asSlice(0, header.headerBytes());
    }

    /** Sends a copied write; the answer it asked for, if it did, must not stay posted when the send is refused. */
    private Request sendAnswered(final int rank, final Partner partner, final long tag, final MemorySegment request)
    {
        try
        {
            return endpoint.isend(partner, tag, request);
        }
        catch (final MxException ex)
        {
            // an answer posted for this request: nothing will send it
            writesSinceFence.refused(rank);
            throw ex;
        }
    }

    private MemorySegment encode(final SegmentAllocator allocator, final RmaOp op, final int rank, final long sequence,
        final long allocationId, final Pieces pieces, final StridedPatch patch, final long remoteBase,
        final boolean remoteIsTarget)
    {
        final int pieceBytes = null == patch ? RequestHeader.PIECE_BYTES * pieces.count() : 0;
        final MemorySegment head = allocator.allocate(RequestHeader.FIXED_BYTES + pieceBytes, 8);
        header.wrap(head).encode(op, self, sequence, allocationId, remoteBase, pieces.totalBytes, 0);
        notices.releaseWith(rank, header);
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

    /** @return a copy of a request's header encoded in {@link #scratchHead}, for a send that outlives the call. */
    private static MemorySegment detached(final MemorySegment head, final int headerBytes)
    {
        final MemorySegment copy = Arena.ofAuto().allocate(headerBytes, 8);
        MemorySegment.copy(head, 0, copy, 0, headerBytes);
        return copy;
    }
}
