package io.pinmx.bench;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * ByteBuffer views of the few native segments a benchmark sends from and receives into, made on a
 * segment's first use and reused after, so that channel I/O allocates nothing per message. Each segment
 * has one view per slot, so that operations in flight together on one segment do not share a position.
 */
final class SegmentViews
{
    private static final int MAX_SEGMENTS = 16;

    private final int slots;
    private final long[] addresses = new long[MAX_SEGMENTS];
    private final long[] sizes = new long[MAX_SEGMENTS];
    private final ByteBuffer[][] views = new ByteBuffer[MAX_SEGMENTS][];
    private int count;

    SegmentViews(final int slots)
    {
        this.slots = slots;
    }

    /**
     * @return a view of the segment's first {@code bytes}, positioned at 0.
     */
    ByteBuffer view(final MemorySegment segment, final int slot, final int bytes)
    {
        final long address = segment.address();
        final long size = segment.byteSize();
        int i = 0;
        while (i < count && (addresses[i] != address || sizes[i] != size))
        {
            i++;
        }
        if (i == count)
        {
            if (count == MAX_SEGMENTS)
            {
                throw new IllegalStateException("more than " + MAX_SEGMENTS + " distinct buffers used with one transport");
            }
            if (!segment.isNative() || size > Integer.MAX_VALUE)
            {
                throw new IllegalArgumentException("buffer " + segment + " is not a native segment of at most 2 GiB");
            }
            addresses[i] = address;
            sizes[i] = size;
            views[i] = new ByteBuffer[slots];
            count++;
        }
        ByteBuffer view = views[i][slot];
        if (null == view)
        {
            view = segment.asByteBuffer();
            views[i][slot] = view;
        }
        view.limit(bytes).position(0);
        return view;
    }
}
