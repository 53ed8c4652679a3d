package io.pinmx.rma;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/**
 * ARMCI's flagged put ({@code ARMCI_Put_flag}) and its other half, the wait until a flag in this rank's slice holds a
 * value: a producer's data and the flag that says it is there, ordered so that a rank seeing the flag sees the data.
 * Reached through {@link Rma#flags()}.
 */
public final class RmaFlags
{
    private static final VarHandle INT_FLAG = ValueLayout.JAVA_INT.varHandle();

    private final Transfers transfers;
    private final int localRank;

    RmaFlags(final Transfers transfers, final int localRank)
    {
        this.transfers = transfers;
        this.localRank = localRank;
    }

    /**
     * {@code ARMCI_Put_flag}: a blocking put, then the int at {@code flagOffset} of the rank's slice of {@code flags}
     * set to {@code value}, ordered on both tiers: a rank that sees the flag (a load-acquire, as
     * {@link #awaitFlag(RmaAllocation, long, int, Duration)} does) sees every byte of the put.
     *
     * @throws IllegalArgumentException naming the argument for what a put refuses, a flag outside the slice or not
     *                                  aligned to 4 bytes, or one overlapping the put's bytes; nothing moves then.
     */
    public void putFlag(final MemorySegment source, final RmaAllocation target, final int rank, final long offset,
        final RmaAllocation flags, final long flagOffset, final int value)
    {
        transfers.putFlag(source, target, rank, offset, flags, flagOffset, value);
    }

    /**
     * Waits until the int at {@code offset} of this rank's slice of {@code flags} holds {@code value}, reading it with
     * acquire semantics, so the bytes of a {@link #putFlag} that set it are visible once it returns.
     *
     * @throws IllegalArgumentException naming the offset if it is outside the slice or not aligned to 4 bytes.
     * @throws RmaException             naming the flag, the value awaited and the value seen if the timeout passes.
     */
    public void awaitFlag(final RmaAllocation flags, final long offset, final int value, final Duration timeout)
    {
        if (null == flags || null == timeout)
        {
            throw new IllegalArgumentException("awaited flag: the " + (null == flags ? "allocation" : "timeout") +
                " is null");
        }
        flags.checkLive();
        flags.checkMember(localRank, "awaited flag");
        flags.checkRange(localRank, offset, Integer.BYTES, "awaited flag");
        if (0 != offset % Integer.BYTES)
        {
            throw new IllegalArgumentException("awaited flag offset " + offset + " is not aligned to 4 bytes");
        }
        final MemorySegment mine = flags.local();
        final long deadline = System.nanoTime() + timeout.toNanos();
        final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.lockWait();
        int seen;
        while ((seen = (int)INT_FLAG.getAcquire(mine, offset)) != value)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new RmaException("flag at " + offset + " of allocation " + flags.id() + " on rank " + localRank +
                    " still holds " + seen + " after " + timeout.toMillis() + " ms, not " + value);
            }
            idle.idle();
        }
    }
}
