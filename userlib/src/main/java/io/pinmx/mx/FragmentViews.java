package io.pinmx.mx;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The MEDIUM_FRAG payload views of one request's contiguous send data, kept across the request's reuses while it
 * sends the same data again (same address, length and scope: an application or benchmark resending one buffer),
 * so that fragmenting a message allocates nothing then. Other data drops the views and slices afresh.
 */
final class FragmentViews
{
    private MemorySegment data = MemorySegment.NULL;
    private MemorySegment[] views = new MemorySegment[0];

    /**
     * @return {@code data.asSlice(offset, bytes)}, made once per fragment index for as long as the data stays the same.
     */
    MemorySegment view(final MemorySegment data, final int fragmentIndex, final long offset, final int bytes)
    {
        if (!isSameData(data))
        {
            this.data = data;
            Arrays.fill(views, null);
        }
        if (fragmentIndex >= views.length)
        {
            views = Arrays.copyOf(views, fragmentIndex + 1);
        }
        MemorySegment view = views[fragmentIndex];
        if (null == view || view.byteSize() != bytes)
        {
            view = data.asSlice(offset, bytes);
            views[fragmentIndex] = view;
        }
        return view;
    }

    private boolean isSameData(final MemorySegment candidate)
    {
        return candidate == data || candidate.address() == data.address() &&
            candidate.byteSize() == data.byteSize() && candidate.isNative() == data.isNative() &&
            candidate.scope().equals(data.scope());
    }
}
