package io.pinmx.rma;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/**
 * ARMCI's flagged put ({@code ARMCI_Put_flag}) and its other half, the wait until a flag in this rank's slice holds a
 * value: a producer's data and the flag that says it is there, ordered so that a rank seeing the flag sees the data.
 * And a notification in the manner of {@code armci_notify}: a flag set after every write issued to its rank before
 * it, non-blocking ones included, and the wait until a flag reaches a value. Reached through {@link Rma#flags()}.
 */
public final class RmaFlags
{
    private static final VarHandle INT_FLAG = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG_FLAG = ValueLayout.JAVA_LONG.varHandle();

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
        final MemorySegment mine = ownFlag(flags, offset, Integer.BYTES, timeout);
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

    /**
     * Sets the long at {@code flagOffset} of the rank's slice of {@code flags} to {@code value} once every put and
     * accumulate this rank issued to that rank before it has landed there, blocking or non-blocking, whatever the
     * tier (ARMCI orders only blocking ones): a rank that sees the value (a load-acquire, as
     * {@link #awaitAtLeast(RmaAllocation, long, long, Duration)} does) sees their bytes. It waits for none of those
     * writes to complete unless the target's driver takes them and the flag alike (a passive target on the kernel
     * provider), and returns once the flag's value is on its way; a non-blocking put's source is still not to be
     * reused before its handle completes.
     *
     * @throws IllegalArgumentException naming the argument for a flag outside the slice or not aligned to 8 bytes;
     *                                  nothing moves then.
     */
    public void notify(final RmaAllocation flags, final int rank, final long flagOffset, final long value)
    {
        transfers.notify(flags, rank, flagOffset, value);
    }

    /**
     * Waits until the long at {@code offset} of this rank's slice of {@code flags} holds at least {@code value},
     * reading it with acquire semantics, so the bytes written before a {@link #notify} that set it are visible once it
     * returns. For counters that only grow: a producer may move the flag past {@code value} before this rank looks.
     *
     * @return the value seen.
     * @throws IllegalArgumentException naming the offset if it is outside the slice or not aligned to 8 bytes.
     * @throws RmaException             naming the flag, the value awaited and the value seen if the timeout passes.
     */
    public long awaitAtLeast(final RmaAllocation flags, final long offset, final long value, final Duration timeout)
    {
        final MemorySegment mine = ownFlag(flags, offset, Long.BYTES, timeout);
        final long deadline = System.nanoTime() + timeout.toNanos();
        final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.lockWait();
        long seen;
        while ((seen = (long)LONG_FLAG.getAcquire(mine, offset)) < value)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new RmaException("flag at " + offset + " of allocation " + flags.id() + " on rank " + localRank +
                    " still holds " + seen + " after " + timeout.toMillis() + " ms, not at least " + value);
            }
            idle.idle();
        }
        return seen;
    }

    private MemorySegment ownFlag(final RmaAllocation flags, final long offset, final int bytes, final Duration timeout)
    {
        if (null == flags || null == timeout)
        {
            throw new IllegalArgumentException("awaited flag: the " + (null == flags ? "allocation" : "timeout") +
                " is null");
        }
        flags.checkLive();
        flags.checkMember(localRank, "awaited flag");
        flags.checkRange(localRank, offset, bytes, "awaited flag");
        if (0 != offset % bytes)
        {
            throw new IllegalArgumentException("awaited flag offset " + offset + " is not aligned to " + bytes +
                " bytes");
        }
        return flags.local();
    }
}
