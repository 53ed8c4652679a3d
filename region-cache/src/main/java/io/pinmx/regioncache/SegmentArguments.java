package io.pinmx.regioncache;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The checks on what a caller hands the {@link RegionCache}: leases and segments. Each names the bad argument, and
 * builds that name only when it fails, so a valid request builds no string.
 */
final class SegmentArguments
{
    /** The index naming the single-segment argument rather than a vector element. */
    static final int SINGLE_SEGMENT = -1;

    private SegmentArguments()
    {
    }

    static void checkLeaseFree(final RegionLease lease)
    {
        Objects.requireNonNull(lease, "lease must not be null");
        if (lease.isHeld())
        {
            throw new IllegalStateException(
                "lease already holds region " + lease.regionId + ": release it before acquiring again");
        }
    }

    /**
     * Checks one requested segment and returns its address.
     *
     * @param index position in the vector, or {@link #SINGLE_SEGMENT} for the single-segment argument.
     */
    static long checkedAddress(final MemorySegment segment, final int index)
    {
        if (null == segment)
        {
            throw new IllegalArgumentException(segmentName(index) + " is null");
        }
        if (!segment.isNative())
        {
            throw new IllegalArgumentException(
                segmentName(index) + " is a heap segment: only native segments can be declared");
        }
        final long address = segment.address();
        final long length = segment.byteSize();
        if (length < 1)
        {
            throw new IllegalArgumentException(segmentName(index) + " is empty: a segment needs a positive size");
        }
        if (address + length < address)
        {
            throw new IllegalArgumentException(
                segmentName(index) + " at 0x" + Long.toHexString(address) + " of " + length + " bytes wraps around");
        }
        return address;
    }

    private static String segmentName(final int index)
    {
        return SINGLE_SEGMENT == index ? "segment" : "segments[" + index + "]";
    }
}
