package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;
import io.pinmx.mx.RequestState;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The streaming protocol of contiguous transfers through the driver: this rank's two staging buffers, allocated once
 * so that the endpoint's region cache keeps them declared, used in turn chunk after chunk ({@link ChunkSchedule}),
 * the copy of one chunk overlapping the transfer of the other. Each transfer is done (the buffers free again) when
 * its call returns. Used by the thread that issues operations.
 */
final class StreamBuffers
{
    private final Endpoint endpoint;
    private final MemorySegment[] buffers = new MemorySegment[2];

    StreamBuffers(final Endpoint endpoint)
    {
        this.endpoint = endpoint;
        final Arena arena = Arena.ofAuto();
        for (int i = 0; i < buffers.length; i++)
        {
            buffers[i] = arena.allocate(ChunkSchedule.MAX_CHUNK_BYTES, 4096);
        }
    }

    /** Fills a chunk of a transfer: the {@code chunk.byteSize()} bytes that start {@code at} bytes into it. */
    @FunctionalInterface
    interface ChunkFiller
    {
        void fill(MemorySegment chunk, long at);
    }

    /**
     * Sends {@code source} with match info {@code tag}: chunk c is copied into buffer c % 2 once the send of chunk
     * c - 2 from it is done, then sent. Adds every send to {@code sends} (the caller waits for them and releases them).
     */
    void put(final Partner partner, final long tag, final MemorySegment source, final List<Request> sends)
    {
        put(partner, tag, source.byteSize(), (chunk, at) -> MemorySegment.copy(source, at, chunk, 0, chunk.byteSize()),
            sends);
    }

    /**
     * Sends {@code total} bytes that {@code filler} writes into each chunk (a packed put's or accumulate's pieces),
     * in turn through the two buffers as {@link #put(Partner, long, MemorySegment, List)} does.
     */
    void put(final Partner partner, final long tag, final long total, final ChunkFiller filler,
        final List<Request> sends)
    {
        final Request[] using = new Request[buffers.length];
        long at = 0;
        for (int c = 0; at < total; c++)
        {
            final int b = c % buffers.length;
            if (null != using[b])
            {
                using[b].await(DriverTier.UNTIL_DONE);
            }
            final long bytes = ChunkSchedule.chunkBytes(c, total - at);
            final MemorySegment chunk = buffers[b].asSlice(0, bytes);
            filler.fill(chunk, at);
            using[b] = endpoint.isend(partner, tag, chunk);
            sends.add(using[b]);
            at += bytes;
        }
        for (final Request r : using)
        {
            if (null != r)
            {
                r.await(DriverTier.UNTIL_DONE);
            }
        }
    }

    /**
     * Reads {@code destination.byteSize()} bytes at {@code remoteOffset} of the partner's region: chunks pulled into
     * the buffers in turn, each copied out while the other is pulled.
     *
     * @return null when every byte is in, else the first read that failed (not released; the ones after it are
     *         not started).
     */
    Request get(final Partner partner, final int regionId, final long remoteOffset, final MemorySegment destination)
    {
        final long total = destination.byteSize();
        final Request[] pulling = new Request[buffers.length];
        final long[] startedAt = new long[buffers.length];
        long requested = 0;
        int started = 0;
        for (int b = 0; b < buffers.length && requested < total; b++, started++)
        {
            startedAt[b] = requested;
            final long bytes = ChunkSchedule.chunkBytes(started, total - requested);
            pulling[b] = endpoint.regions().iget(partner, regionId, remoteOffset + requested, buffers[b].asSlice(0, bytes));
            requested += bytes;
        }
        Request failed = null;
        for (int c = 0; c < started; c++)
        {
            final int b = c % buffers.length;
            final Request r = pulling[b];
            r.await(DriverTier.UNTIL_DONE);
            if (RequestState.FAILED == r.state())
            {
                if (null == failed)
                {
                    failed = r;
                }
                else
                {
                    r.release();
                }
                continue;
            }
            final long bytes = r.status().messageLength();
            r.release();
            if (null != failed)
            {
                continue;
            }
            MemorySegment.copy(buffers[b], 0, destination, startedAt[b], bytes);
            if (requested < total)
            {
                startedAt[b] = requested;
                final long more = ChunkSchedule.chunkBytes(started, total - requested);
                pulling[b] = endpoint.regions().iget(partner, regionId, remoteOffset + requested, buffers[b].asSlice(0, more));
                requested += more;
                started++;
            }
        }
        return failed;
    }
}
