package io.pinmx.bench;

import java.lang.foreign.MemorySegment;

/**
 * Prefix slices of the few native segments a benchmark uses, made once per (segment, length) and reused,
 * so that handing "the first n bytes" to an API that takes a segment allocates nothing per message.
 */
final class SegmentSlices
{
    private static final int CAPACITY = 16;

    private final long[] addresses = new long[CAPACITY];
    private final long[] lengths = new long[CAPACITY];
    private final MemorySegment[] slices = new MemorySegment[CAPACITY];
    private int next;

    MemorySegment prefix(final MemorySegment segment, final int bytes)
    {
        final long address = segment.address();
        for (int i = 0; i < CAPACITY; i++)
        {
            final MemorySegment s = slices[i];
            if (null != s && addresses[i] == address && lengths[i] == bytes)
            {
                return s;
            }
        }
        final MemorySegment slice = segment.asSlice(0, bytes);
        addresses[next] = address;
        lengths[next] = bytes;
        slices[next] = slice;
        next = (next + 1) % CAPACITY;
        return slice;
    }
}
