package io.pinmx.rma;

import io.pinmx.mx.Endpoint;
import io.pinmx.mx.Partner;
import io.pinmx.mx.Request;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The endpoint reads of a direct get: its pieces split into reads of at most {@code perRead} pieces each, landing in
 * the caller's pieces or side by side in a staging buffer. Kept with the get, so that a get that overlapped its
 * target's access epoch pulls the same reads again ({@link EpochCounters}).
 */
final class PullPlan
{
    private final Endpoint endpoint;
    private final Partner partner;
    private final int regionId;
    private final Pieces pieces;
    /** Null when the reads land straight in the caller's pieces. */
    private final MemorySegment staging;
    private final int perRead;

    PullPlan(final Endpoint endpoint, final Partner partner, final int regionId, final Pieces pieces,
        final MemorySegment staging, final int perRead)
    {
        this.endpoint = endpoint;
        this.partner = partner;
        this.regionId = regionId;
        this.pieces = pieces;
        this.staging = staging;
        this.perRead = perRead;
    }

    int reads()
    {
        return (pieces.count() + perRead - 1) / perRead;
    }

    /** Starts every read. */
    Request[] post()
    {
        final Request[] pulls = new Request[reads()];
        long stagedAt = 0;
        for (int c = 0; c < pulls.length; c++)
        {
            final int from = c * perRead;
            final int count = Math.min(pieces.count(), from + perRead) - from;
            final long[] offsets = Arrays.copyOfRange(pieces.remoteOffsets, from, from + count);
            final long[] lengths = Arrays.copyOfRange(pieces.lengths, from, from + count);
            if (null == staging)
            {
                final MemorySegment[] into = Arrays.copyOfRange(pieces.local, from, from + count);
                pulls[c] = endpoint.regions().iget(partner, regionId, offsets, lengths, count, into, count);
            }
            else
            {
                long bytes = 0;
                for (final long length : lengths)
                {
                    bytes += length;
                }
                pulls[c] = endpoint.regions().iget(partner, regionId, offsets, lengths, count,
                    new MemorySegment[] {staging.asSlice(stagedAt, bytes)}, 1);
                stagedAt += bytes;
            }
        }
        return pulls;
    }
}
