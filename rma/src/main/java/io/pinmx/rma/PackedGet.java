package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.MxException;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;
import io.pinmx.mx.match.MatchInfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The origin side of a packed get (the pack protocol of a strided or vector get). Past one chunk ({@link #pulls}) the
 * target's data server packs the pieces into its {@link PackArea} and answers where; the origin pulls them from there
 * (the drivers move the bytes, straight into the caller's pieces when the endpoint may touch them) and then tells the
 * server to free the part. When the area has no room, or for smaller gets, the server sends the packed bytes in
 * chunks ({@link ChunkSchedule}) that the origin unpacks as they arrive. Moves on when tested or awaited; used by the
 * thread that issues operations.
 */
final class PackedGet implements RmaHandle.Completion
{
    private enum State
    {
        /** Waiting for the server to say where it packed, or that the chunks follow. */
        ASKED,
        PULLING,
        RECEIVING_CHUNKS,
        DONE
    }

    private final DriverTier tier;
    private final Endpoint endpoint;
    private final Partner partner;
    private final int rank;
    private final Pieces pieces;
    private final long chunkTag;
    private final Request send;
    private final MemorySegment place;
    private Request reply;
    private Request[] chunks;
    private MemorySegment[] into;
    private MemorySegment staging;
    private Request pull;
    private long pullOffset;
    private State state;
    private RmaException failure;

    /**
     * Posts the receives (the place to pull from when the get is that large, else the chunks), then sends the
     * request {@code head}.
     */
    PackedGet(final DriverTier tier, final Endpoint endpoint, final Partner partner, final int rank,
        final Pieces pieces, final long sequence, final MemorySegment head)
    {
        this.tier = tier;
        this.endpoint = endpoint;
        this.partner = partner;
        this.rank = rank;
        this.pieces = pieces;
        this.chunkTag = RmaTags.of(RmaTags.PACKED, sequence);
        if (pulls(pieces.totalBytes))
        {
            place = Arena.ofAuto().allocate(Long.BYTES, 8);
            reply = endpoint.irecv(partner.id(), RmaTags.of(RmaTags.REPLY, sequence), MatchInfo.MASK_ALL, place);
            state = State.ASKED;
        }
        else
        {
            place = null;
            postChunks();
        }
        try
        {
            send = endpoint.isend(partner, RmaTags.of(RmaTags.REQUEST, sequence), head);
        }
        catch (final MxException ex)
        {
            // nothing answers a request not sent: its receives must not stay posted
            Completions.forget(null == reply ? chunks : new Request[] {reply}, 0);
            throw ex;
        }
    }

    /**
     * @return whether a packed get of {@code bytes} is pulled from the server's pack area when it has room: when it
     *         does not fit one chunk. One message of packed bytes beats a reply and a pull (two round trips); more
     *         messages lose to the pull, whose replies travel as MTU-sized frames in offloaded runs.
     */
    static boolean pulls(final long bytes)
    {
        return bytes > ChunkSchedule.FIRST_CHUNK_BYTES;
    }

    private void postChunks()
    {
        staging = Arena.ofAuto().allocate(pieces.totalBytes, 8);
        into = ChunkSchedule.slices(staging);
        chunks = new Request[into.length];
        for (int c = 0; c < chunks.length; c++)
        {
            chunks[c] = endpoint.irecv(partner.id(), chunkTag, MatchInfo.MASK_ALL, into[c]);
        }
        state = State.RECEIVING_CHUNKS;
    }

    @Override
    public boolean isDone()
    {
        if (State.ASKED == state && reply.test())
        {
            answered();
        }
        return switch (state)
        {
            case ASKED -> false;
            case PULLING -> pull.test();
            case RECEIVING_CHUNKS -> chunks[chunks.length - 1].test();
            case DONE -> true;
        };
    }

    @Override
    public void await()
    {
        if (State.DONE == state)
        {
            return;
        }
        if (State.ASKED == state)
        {
            tier.awaitAnswer(rank, reply);
            answered();
        }
        if (State.PULLING == state)
        {
            finishPull();
        }
        else if (State.RECEIVING_CHUNKS == state)
        {
            receiveChunks();
        }
        state = State.DONE;
        send.await(DriverTier.UNTIL_DONE);
        send.release();
        if (null != failure)
        {
            throw failure;
        }
    }

    /** The server said where it packed (then the pull starts) or that the chunks follow (then they are posted). */
    private void answered()
    {
        final boolean failed = RequestState.FAILED == reply.state();
        if (failed)
        {
            failure = RankFailures.failure(rank, reply);
        }
        reply.release();
        reply = null;
        final long answer = place.get(ValueLayout.JAVA_LONG, 0);
        if (failed)
        {
            state = State.DONE;
        }
        else if (PackArea.NO_PLACE == answer)
        {
            postChunks();
        }
        else
        {
            startPull(answer);
        }
    }

    private void startPull(final long answer)
    {
        pullOffset = PackArea.placeOffset(answer);
        final long[] offsets = {pullOffset};
        final long[] lengths = {pieces.totalBytes};
        try
        {
            final MemorySegment[] into = pieces.joinedLocal();
            if (into.length <= DriverTier.MAX_VECTOR && pieces.shareable())
            {
                pull = endpoint.regions().iget(partner, PackArea.placeRegion(answer), offsets, lengths, 1, into,
                    into.length);
            }
            else
            {
                staging = Arena.ofAuto().allocate(pieces.totalBytes, 8);
                pull = endpoint.regions().iget(partner, PackArea.placeRegion(answer), offsets, lengths, 1,
                    new MemorySegment[] {staging}, 1);
            }
            state = State.PULLING;
        }
        catch (final MxException ex)
        {
            // the target failed since it answered: nothing to pull, nobody to release the part to
            failure = RankFailures.refused(rank, ex);
            state = State.DONE;
        }
    }

    /** A pull fails by itself within the peer timeout when the target dies; the server's part is freed either way. */
    private void finishPull()
    {
        pull.await(DriverTier.UNTIL_DONE);
        final boolean failed = RequestState.FAILED == pull.state();
        if (failed)
        {
            failure = RankFailures.failure(rank, pull);
        }
        pull.release();
        tier.releasePacked(rank, pullOffset);
        if (!failed && null != staging)
        {
            pieces.unpack(staging);
        }
    }

    private void receiveChunks()
    {
        final PieceCursor cursor = PieceCursor.of(pieces);
        for (int c = 0; c < chunks.length; c++)
        {
            final Request r = chunks[c];
            tier.awaitAnswer(rank, r);
            if (RequestState.FAILED == r.state() && null == failure)
            {
                failure = RankFailures.failure(rank, r);
            }
            r.release();
            if (null == failure)
            {
                cursor.unpack(into[c]);
            }
        }
    }
}
