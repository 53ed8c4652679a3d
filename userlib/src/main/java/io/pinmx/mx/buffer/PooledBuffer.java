package io.pinmx.mx.buffer;

import java.lang.foreign.MemorySegment;

/**
 * A native buffer borrowed from a {@link BufferPool}; valid from acquire to release.
 */
public final class PooledBuffer
{
    private final MemorySegment capacitySegment;
    final int sizeClass;
    private MemorySegment segment;
    boolean inUse;

    PooledBuffer(final MemorySegment capacitySegment, final int sizeClass)
    {
        this.capacitySegment = capacitySegment;
        this.sizeClass = sizeClass;
    }

    void use(final long bytes)
    {
        inUse = true;
        // A buffer is mostly borrowed again for the same length (a benchmark, an application's fixed message
        // size): keep the view then, so the message path allocates nothing.
        if (null == segment || segment.byteSize() != bytes)
        {
            segment = capacitySegment.asSlice(0, bytes);
        }
    }

    /**
     * @return the native segment of exactly the requested length.
     */
    public MemorySegment segment()
    {
        if (!inUse)
        {
            throw new IllegalStateException("pooled buffer used after release");
        }
        return segment;
    }

    public String toString()
    {
        return "PooledBuffer{capacity=" + capacitySegment.byteSize() + ", inUse=" + inUse + '}';
    }
}
