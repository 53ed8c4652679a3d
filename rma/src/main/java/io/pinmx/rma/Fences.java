package io.pinmx.rma;

/**
 * Completion at the targets: {@code ARMCI_Fence} and {@code ARMCI_AllFence}, and the drain before a free. The
 * shared-memory tier's operations are complete on return (a memory fence orders them); through the driver, each
 * target's data server confirms what reached it.
 */
final class Fences
{
    private final Ranks ranks;
    private final DriverTier driver;
    private final Transfers transfers;

    Fences(final Ranks ranks, final DriverTier driver, final Transfers transfers)
    {
        this.ranks = ranks;
        this.driver = driver;
        this.transfers = transfers;
    }

    /** Waits for the implicit operations, then completes every earlier put and accumulate at the rank. */
    void fence(final int rank)
    {
        transfers.implicit().await();
        if (RankTier.DRIVER == ranks.tier(rank))
        {
            driver.fence(rank);
        }
        SharedMemoryTier.fence();
    }

    /**
     * Waits for the implicit operations, then completes at every driver-tier target what went there: its puts and
     * accumulates ({@code drain} false: a fence where one went since the last), or everything, gets and requests on
     * handles not yet waited for included ({@code drain} true: before a free).
     */
    void allTargets(final boolean drain)
    {
        transfers.implicit().await();
        for (int r = 0; r < ranks.size(); r++)
        {
            if (RankTier.DRIVER != ranks.tier(r))
            {
                continue;
            }
            if (drain)
            {
                driver.drain(r);
            }
            else
            {
                driver.fence(r);
            }
        }
        SharedMemoryTier.fence();
    }
}
