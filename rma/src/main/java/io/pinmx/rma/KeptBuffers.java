package io.pinmx.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Send buffers of one size, taken for a send and given back once it is released: an arena per send keeps its
 * cleaner until a collection, so a loop of small operations would have the JVM collecting often and a busy target's
 * survivors growing. As many are made as are ever in flight at once. Owned by one thread.
 */
final class KeptBuffers
{
    private final long bufferBytes;
    private final Arena arena = Arena.ofAuto();
    private final ArrayDeque<MemorySegment> free = new ArrayDeque<>();

    KeptBuffers(final long bufferBytes)
    {
        this.bufferBytes = bufferBytes;
    }

    long bufferBytes()
    {
        return bufferBytes;
    }

    /** @return a buffer of {@link #bufferBytes}: a free one, else a new one. */
    MemorySegment take()
    {
        final MemorySegment kept = free.poll();
        return null != kept ? kept : arena.allocate(bufferBytes, 8);
    }

    /** @return whether {@code buffer} was one of these (by its size) and is free again. */
    boolean giveBack(final MemorySegment buffer)
    {
        if (bufferBytes != buffer.byteSize())
        {
            return false;
        }
        free.push(buffer);
        return true;
    }
}
