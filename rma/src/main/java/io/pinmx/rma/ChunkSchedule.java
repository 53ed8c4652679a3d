package io.pinmx.rma;

import java.lang.foreign.MemorySegment;

/**
 * The chunks a packed or streamed transfer travels in, the same at both ends: the first {@value #FIRST_CHUNK_BYTES}
 * bytes (so the far end starts copying early), then each chunk twice the last, up to {@value #MAX_CHUNK_BYTES}.
 */
final class ChunkSchedule
{
    static final long FIRST_CHUNK_BYTES = 16 * 1024;
    static final long MAX_CHUNK_BYTES = 256 * 1024;

    private ChunkSchedule()
    {
    }

    /** @return the bytes of chunk {@code index} of a transfer that has {@code remaining} bytes left before it. */
    static long chunkBytes(final int index, final long remaining)
    {
        final long planned = index >= 5 ? MAX_CHUNK_BYTES : Math.min(MAX_CHUNK_BYTES, FIRST_CHUNK_BYTES << index);
        return Math.min(planned, remaining);
    }

    /** @return views of {@code whole}, one per chunk it travels in, in order. */
    static MemorySegment[] slices(final MemorySegment whole)
    {
        final long total = whole.byteSize();
        final MemorySegment[] slices = new MemorySegment[chunks(total)];
        long at = 0;
        for (int c = 0; c < slices.length; c++)
        {
            slices[c] = whole.asSlice(at, chunkBytes(c, total - at));
            at += slices[c].byteSize();
        }
        return slices;
    }

    /** @return how many chunks {@code total} bytes travel in (0 for none). */
    static int chunks(final long total)
    {
        int n = 0;
        for (long left = total; left > 0; n++)
        {
            left -= chunkBytes(n, left);
        }
        return n;
    }
}
