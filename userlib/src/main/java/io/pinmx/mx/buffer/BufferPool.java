package io.pinmx.mx.buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Native buffers in power-of-two size classes, reused so staging heap data and holding
 * unexpected messages allocate nothing once warm. Buffers come from one shared arena that
 * lives as long as the pool. Thread-safe: the application thread stages sends while the
 * progress thread stores unexpected messages.
 */
public final class BufferPool implements AutoCloseable
{
    private static final int MIN_CLASS_SHIFT = 6;
    private static final int BUFFER_ALIGNMENT_BYTES = 64;

    private final Arena arena = Arena.ofShared();
    private final long maxBufferBytes;
    private final ArrayDeque<PooledBuffer>[] freeByClass;
    private long allocatedBytes;
    private boolean closed;

    /**
     * @param maxBufferBytes largest buffer handed out; rounded up to a power of two.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public BufferPool(final long maxBufferBytes)
    {
        if (maxBufferBytes <= 0 || maxBufferBytes > (1L << 40))
        {
            throw new IllegalArgumentException("maxBufferBytes must be in 1..2^40, was " + maxBufferBytes);
        }
        final int classes = classOf(maxBufferBytes) + 1;
        this.maxBufferBytes = 1L << (classes - 1 + MIN_CLASS_SHIFT);
        freeByClass = new ArrayDeque[classes];
        for (int i = 0; i < classes; i++)
        {
            freeByClass[i] = new ArrayDeque<>();
        }
    }

    /**
     * @return a buffer of at least {@code bytes} bytes; its {@link PooledBuffer#segment()} is that long exactly.
     * @throws IllegalArgumentException if bytes is negative or above the pool's maximum.
     * @throws IllegalStateException    if the pool is closed.
     */
    public synchronized PooledBuffer acquire(final long bytes)
    {
        if (closed)
        {
            throw new IllegalStateException("buffer pool is closed");
        }
        if (bytes < 0 || bytes > maxBufferBytes)
        {
            throw new IllegalArgumentException(
                "buffer of " + bytes + " bytes requested, pool serves 0.." + maxBufferBytes);
        }
        final int sizeClass = classOf(bytes);
        PooledBuffer buffer = freeByClass[sizeClass].pollFirst();
        if (null == buffer)
        {
            final long capacity = 1L << (sizeClass + MIN_CLASS_SHIFT);
            buffer = new PooledBuffer(arena.allocate(capacity, BUFFER_ALIGNMENT_BYTES), sizeClass);
            allocatedBytes += capacity;
        }
        buffer.use(bytes);
        return buffer;
    }

    /**
     * @throws IllegalStateException if the buffer is not currently acquired (double release).
     */
    public synchronized void release(final PooledBuffer buffer)
    {
        if (!buffer.inUse)
        {
            throw new IllegalStateException("buffer released twice: " + buffer);
        }
        buffer.inUse = false;
        if (!closed)
        {
            freeByClass[buffer.sizeClass].addFirst(buffer);
        }
    }

    public long maxBufferBytes()
    {
        return maxBufferBytes;
    }

    public synchronized long allocatedBytes()
    {
        return allocatedBytes;
    }

    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            arena.close();
        }
    }

    private static int classOf(final long bytes)
    {
        if (bytes <= (1L << MIN_CLASS_SHIFT))
        {
            return 0;
        }
        return 64 - Long.numberOfLeadingZeros(bytes - 1) - MIN_CLASS_SHIFT;
    }
}
