package io.pinmx.rma;

/**
 * ARMCI's read-modify-write ({@code ARMCI_Rmw}): fetch-and-add and swap of an int or a long in a rank's slice, atomic
 * against every other rank's read-modify-write of the same word and complete at the target when the call returns.
 * Reached through {@link Rma#atomics()}.
 */
public final class RmaAtomics
{
    private final Transfers transfers;

    RmaAtomics(final Transfers transfers)
    {
        this.transfers = transfers;
    }

    /**
     * Atomic fetch-and-add of the int at {@code offset} of the rank's slice of {@code target}.
     *
     * @return the old value.
     * @throws IllegalArgumentException naming the rank or offset if it is outside the allocation's group or slice.
     */
    public int fetchAndAdd(final RmaAllocation target, final int rank, final long offset, final int delta)
    {
        return transfers.fetchAndAdd(target, rank, offset, delta);
    }

    /** Atomic fetch-and-add of a long, as {@link #fetchAndAdd}. @return the old value. */
    public long fetchAndAddLong(final RmaAllocation target, final int rank, final long offset, final long delta)
    {
        return transfers.fetchAndAddLong(target, rank, offset, delta);
    }

    /** Atomic swap of an int, as {@link #fetchAndAdd}. @return the old value. */
    public int swap(final RmaAllocation target, final int rank, final long offset, final int value)
    {
        return transfers.swap(target, rank, offset, value);
    }

    /** Atomic swap of a long, as {@link #fetchAndAdd}. @return the old value. */
    public long swapLong(final RmaAllocation target, final int rank, final long offset, final long value)
    {
        return transfers.swapLong(target, rank, offset, value);
    }
}
