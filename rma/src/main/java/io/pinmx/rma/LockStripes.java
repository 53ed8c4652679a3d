package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Spin locks in a table of longs that may live in memory shared between processes: floating-point accumulates
 * take the stripe of each chunk of target offsets they update ({@link Accumulator}). The key is an offset within
 * the allocation, never a virtual address, so every process that maps the same memory picks the same stripe.
 */
public final class LockStripes
{
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final int SPINS_BEFORE_YIELD = 100;

    private final MemorySegment words;
    private final long mask;

    /**
     * @param words the lock table: a power-of-two number of 8-byte-aligned longs, zeroed before first use.
     */
    public LockStripes(final MemorySegment words)
    {
        final long count = words.byteSize() / Long.BYTES;
        if (count == 0 || Long.bitCount(count) != 1 || words.byteSize() % Long.BYTES != 0)
        {
            throw new IllegalArgumentException("lock table of " + words.byteSize() + " bytes: need a power of two of longs");
        }
        if (words.address() % Long.BYTES != 0)
        {
            throw new IllegalArgumentException("lock table at 0x" + Long.toHexString(words.address()) + " is not 8-byte aligned");
        }
        this.words = words;
        this.mask = count - 1;
    }

    /** @return the stripe of a target offset (offsets in one 16-byte granule share it). */
    public long stripeOf(final long key)
    {
        long h = key >>> 4;
        h ^= h >>> 17;
        h *= 0x9E3779B97F4A7C15L;
        return (h >>> 32) & mask;
    }

    public void lock(final long stripe)
    {
        final long at = stripe * Long.BYTES;
        int spins = 0;
        while (!WORD.compareAndSet(words, at, 0L, 1L))
        {
            if (++spins < SPINS_BEFORE_YIELD)
            {
                Thread.onSpinWait();
            }
            else
            {
                // The holder may be a descheduled process: let it run.
                Thread.yield();
            }
        }
    }

    public void unlock(final long stripe)
    {
        WORD.setRelease(words, stripe * Long.BYTES, 0L);
    }

    /** Takes every stripe in order (a holder of one stripe never waits for another, so this cannot deadlock). */
    public void lockAll()
    {
        for (long stripe = 0; stripe <= mask; stripe++)
        {
            lock(stripe);
        }
    }

    public void unlockAll()
    {
        for (long stripe = 0; stripe <= mask; stripe++)
        {
            unlock(stripe);
        }
    }
}
