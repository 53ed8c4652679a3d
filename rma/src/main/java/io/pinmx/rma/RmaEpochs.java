package io.pinmx.rma;

/**
 * ARMCI's access epochs on this rank's own slices ({@code ARMCI_Access_begin}, {@code ARMCI_Access_end}): while one is
 * open the application loads and stores its slice directly and no other rank's operation touches it. Reached through
 * {@link Rma#epochs()}; the epoch's state is {@link Transfers}' epoch gate, used by the rank's issuing thread.
 */
public final class RmaEpochs
{
    private final Rma rma;
    private final Transfers transfers;

    RmaEpochs(final Rma rma, final Transfers transfers)
    {
        this.rma = rma;
        this.transfers = transfers;
    }

    /**
     * Opens an access epoch on this rank's slice of the allocation ({@code ARMCI_Access_begin}, with ARMCI-MPI's
     * exclusive lock of one's own window) for direct loads and stores through {@link RmaAllocation#local()}: once it
     * returns, and until {@link #accessEnd(RmaAllocation)}, no other rank's put, accumulate, read-modify-write or get
     * touches that slice (their origins wait; a get that a driver pulled meanwhile is pulled again; on a passive
     * target the driver holds its one-sided writes back until the end); the opening is a full fence. One epoch at a
     * time; inside it, an operation on this rank's own slice of that allocation is refused.
     *
     * @throws IllegalStateException if an epoch is open, the allocation was freed, this rank's slice takes writes
     *                               from a driver that cannot hold them back ({@code PINMX_RMA_DRIVER_WRITES=1} on a
     *                               pinmx.ko without PINMX_IOC_HOLD_WRITES), or this rank announced at init that it
     *                               opens no epochs ({@link RmaOptions#accessEpochs()} false).
     * @throws RmaException          naming a same-host rank that exited while touching the slice.
     */
    public void accessBegin(final RmaAllocation allocation)
    {
        rma.checkOpen();
        transfers.epoch().begin(allocation);
    }

    /**
     * Closes the access epoch ({@code ARMCI_Access_end}): a full fence, then the operations held back proceed.
     *
     * @throws IllegalStateException if no epoch is open on that allocation.
     */
    public void accessEnd(final RmaAllocation allocation)
    {
        transfers.epoch().end(allocation);
    }
}
