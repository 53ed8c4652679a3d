package io.pinmx.rma;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The parts of a {@link PackArea} reserved for partners' pulls: first fit over {@code capacityBytes}, each part
 * rounded up to {@value #ALIGN_BYTES} bytes and held until the partner that reserved it releases it. Owned by the data
 * server's thread; {@link #reservedBytes} may be read by any.
 */
final class PackParts
{
    static final long ALIGN_BYTES = 64;

    private final long capacityBytes;
    /** Reserved parts in offset order. */
    private final List<Part> parts = new ArrayList<>();
    private volatile long reservedBytes;

    private record Part(long offset, long bytes, int partner)
    {
    }

    PackParts(final long capacityBytes)
    {
        this.capacityBytes = capacityBytes;
    }

    /**
     * Reserves {@code bytes} for the partner: the lowest free part that fits. When none does, the parts of partners
     * that {@code failed} says failed (they will neither pull nor release them) are freed first.
     *
     * @return the part's offset, or -1 if no part that large is free.
     */
    long reserve(final long bytes, final int partner, final IntPredicate failed)
    {
        final long rounded = (bytes + ALIGN_BYTES - 1) / ALIGN_BYTES * ALIGN_BYTES;
        if (0 == bytes || rounded > capacityBytes)
        {
            return -1;
        }
        final long offset = firstFit(rounded, partner);
        if (offset >= 0 || !parts.removeIf(p -> failed.test(p.partner())))
        {
            return offset;
        }
        updateReserved();
        return firstFit(rounded, partner);
    }

    private long firstFit(final long rounded, final int partner)
    {
        long from = 0;
        for (int i = 0; i <= parts.size(); i++)
        {
            final long to = i < parts.size() ? parts.get(i).offset() : capacityBytes;
            if (to - from >= rounded)
            {
                parts.add(i, new Part(from, rounded, partner));
                updateReserved();
                return from;
            }
            if (i < parts.size())
            {
                from = parts.get(i).offset() + parts.get(i).bytes();
            }
        }
        return -1;
    }

    /**
     * Frees the partner's part at {@code offset}.
     *
     * @return false if the partner has no part there (nothing is freed).
     */
    boolean release(final long offset, final int partner)
    {
        for (int i = 0; i < parts.size(); i++)
        {
            final Part p = parts.get(i);
            if (p.offset() == offset && p.partner() == partner)
            {
                parts.remove(i);
                updateReserved();
                return true;
            }
        }
        return false;
    }

    /** @return the bytes reserved now (rounded parts). */
    long reservedBytes()
    {
        return reservedBytes;
    }

    private void updateReserved()
    {
        long bytes = 0;
        for (final Part p : parts)
        {
            bytes += p.bytes();
        }
        reservedBytes = bytes;
    }
}
