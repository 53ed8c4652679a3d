package io.pinmx.mpj;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Native message headers for one init of the device, reused from request to request; freed together when the
 * device finishes.
 */
final class HeaderPool implements AutoCloseable
{
    private final Arena arena = Arena.ofShared();
    private final ArrayDeque<MemorySegment> free = new ArrayDeque<>();

    synchronized MemorySegment take()
    {
        final MemorySegment header = free.pollFirst();
        return null != header ? header : arena.allocate(MessageHeader.BYTES, Long.BYTES);
    }

    synchronized void give(final MemorySegment header)
    {
        free.addFirst(header);
    }

    /** A zero-length native segment (heartbeats carry no data). */
    MemorySegment empty()
    {
        return arena.allocate(Long.BYTES).asSlice(0, 0);
    }

    @Override
    public synchronized void close()
    {
        free.clear();
        arena.close();
    }
}
