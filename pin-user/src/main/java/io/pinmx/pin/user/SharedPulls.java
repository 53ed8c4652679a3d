package io.pinmx.pin.user;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Same-host pulls whose source endpoint's agent may copy a part, in slots of the pulling endpoint's file: a pull of
 * {@code blocks} blocks is claimed block by block from both ends, the puller taking the front with
 * process_vm_readv and the source's agent (when it is polling anyway) the back with process_vm_writev, so both
 * cores copy. A source agent that never looks costs nothing: the puller claims every block itself.
 * <p>
 * Slot of {@link #SLOT_BYTES}: CLAIM (long: generation 16 bits | back 24 | front 24, blocks), DONE (long:
 * generation 16 | failed 1 | bytes the helper copied, 47), source region (int, the helper's), target region (int,
 * the puller's), source offset, target offset, length (longs); both ends cut the length into blocks of
 * {@link #blockBytes}. The puller writes a slot's fields, then publishes CLAIM with a release store; a helper claims
 * with a CAS that names the generation, so it never takes a block of a pull that has ended. The helper copies its
 * blocks back to front, each before the next claim, so what it has copied is always the tail of its claimed range,
 * and DONE says how much.
 * <p>
 * Threads: the owning endpoint's agent opens, claims from the front and closes; a peer endpoint's agent (another
 * process) claims from the back and adds to DONE. Only CLAIM and DONE are written by both.
 */
final class SharedPulls
{
    static final int SLOTS = 16;
    static final int SLOT_BYTES = 64;
    static final long AREA_BYTES = (long)SLOTS * SLOT_BYTES;
    /** Smallest block either side claims: below this a system call's cost is a large part of the copy. */
    static final long MIN_BLOCK_BYTES = 64 * 1024;
    /** Blocks a pull is cut into (fewer when blocks would fall under {@link #MIN_BLOCK_BYTES}). */
    static final int TARGET_BLOCKS = 8;
    static final int NONE = -1;

    private static final int CLAIM = 0;
    private static final int DONE = 8;
    private static final int SOURCE_REGION = 16;
    private static final int TARGET_REGION = 20;
    private static final int SOURCE_OFFSET = 24;
    private static final int TARGET_OFFSET = 32;
    private static final int LENGTH = 40;

    private static final int COUNT_BITS = 24;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final int GENERATION_SHIFT = 48;
    private static final long FAILED = 1L << 47;
    private static final long DONE_MASK = FAILED - 1;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment area;
    /** Owner's view: which slots a pull holds (only the owner's agent opens and closes). */
    private final boolean[] open = new boolean[SLOTS];

    SharedPulls(final MemorySegment area)
    {
        this.area = area;
    }

    /** Bytes of each block a pull of {@code length} bytes is cut into (the last one may be shorter). */
    static long blockBytes(final long length)
    {
        final long perBlock = (length + TARGET_BLOCKS - 1) / TARGET_BLOCKS;
        return Math.max(MIN_BLOCK_BYTES, (perBlock + 4095) & -4096L);
    }

    /**
     * Owner: open a slot for a pull and publish it.
     *
     * @return the slot, or {@link #NONE} when every slot is in use or the pull has too many blocks.
     */
    int open(
        final int sourceRegion, final long sourceOffset, final int targetRegion, final long targetOffset,
        final long length)
    {
        final long blockBytes = blockBytes(length);
        final long blocks = (length + blockBytes - 1) / blockBytes;
        if (blocks > COUNT_MASK)
        {
            return NONE;
        }
        for (int slot = 0; slot < SLOTS; slot++)
        {
            if (!open[slot])
            {
                open[slot] = true;
                final long at = (long)slot * SLOT_BYTES;
                final long generation = generation((long)LONG.getVolatile(area, at + CLAIM));
                area.set(ValueLayout.JAVA_INT, at + SOURCE_REGION, sourceRegion);
                area.set(ValueLayout.JAVA_INT, at + TARGET_REGION, targetRegion);
                area.set(ValueLayout.JAVA_LONG, at + SOURCE_OFFSET, sourceOffset);
                area.set(ValueLayout.JAVA_LONG, at + TARGET_OFFSET, targetOffset);
                area.set(ValueLayout.JAVA_LONG, at + LENGTH, length);
                LONG.setVolatile(area, at + DONE, generation << GENERATION_SHIFT);
                LONG.setRelease(area, at + CLAIM, generation << GENERATION_SHIFT | blocks << COUNT_BITS);
                return slot;
            }
        }
        return NONE;
    }

    /** The generation a helper must name to claim in {@code slot}'s current pull. */
    int generation(final int slot)
    {
        return (int)generation((long)LONG.getVolatile(area, (long)slot * SLOT_BYTES + CLAIM));
    }

    /** Owner: the next block from the front, or {@link #NONE} when every block is claimed. */
    long claimFront(final int slot)
    {
        final long at = (long)slot * SLOT_BYTES + CLAIM;
        while (true)
        {
            final long word = (long)LONG.getVolatile(area, at);
            final long front = word & COUNT_MASK;
            if (front >= back(word))
            {
                return NONE;
            }
            if (LONG.compareAndSet(area, at, word, word + 1))
            {
                return front;
            }
        }
    }

    /** Owner: let the helper claim nothing more (the puller failed and will not need its blocks). */
    void stopClaims(final int slot)
    {
        final long at = (long)slot * SLOT_BYTES + CLAIM;
        while (true)
        {
            final long word = (long)LONG.getVolatile(area, at);
            final long back = back(word);
            if (LONG.compareAndSet(area, at, word, word & ~COUNT_MASK | back))
            {
                return;
            }
        }
    }

    /** First block the helper claimed (the pull's block count when it claimed none). */
    long helperFirstBlock(final int slot)
    {
        return back((long)LONG.getVolatile(area, (long)slot * SLOT_BYTES + CLAIM));
    }

    /** Bytes the helper has copied, the tail of its claimed range. */
    long helperDoneBytes(final int slot)
    {
        return (long)LONG.getVolatile(area, (long)slot * SLOT_BYTES + DONE) & DONE_MASK;
    }

    /** True once the helper gave up on a block it claimed (it writes nothing more into this pull). */
    boolean helperFailed(final int slot)
    {
        return ((long)LONG.getVolatile(area, (long)slot * SLOT_BYTES + DONE) & FAILED) != 0;
    }

    /** Owner: the pull has ended and its helper has settled; the next pull in the slot has a new generation. */
    void close(final int slot)
    {
        final long at = (long)slot * SLOT_BYTES;
        final long next = (generation((long)LONG.getVolatile(area, at + CLAIM)) + 1) & 0xFFFF;
        LONG.setVolatile(area, at + DONE, next << GENERATION_SHIFT);
        LONG.setRelease(area, at + CLAIM, next << GENERATION_SHIFT);
        open[slot] = false;
    }

    /**
     * Owner: the pull ended while its helper might still write into it (the helper stopped mid-block for longer
     * than a pull may take): the slot is never used again, so nothing it writes later is read as another pull's.
     */
    void retire(final int slot)
    {
        stopClaims(slot);
    }

    /**
     * Helper: the next block from the back of {@code slot}'s pull of {@code generation}.
     *
     * @return the block, or {@link #NONE} when the pull has ended or every block is claimed.
     */
    long claimBack(final int slot, final int generation)
    {
        if (slot < 0 || slot >= SLOTS)
        {
            return NONE;
        }
        final long at = (long)slot * SLOT_BYTES + CLAIM;
        while (true)
        {
            final long word = (long)LONG.getVolatile(area, at);
            final long back = back(word);
            if (generation(word) != generation || (word & COUNT_MASK) >= back)
            {
                return NONE;
            }
            if (LONG.compareAndSet(area, at, word, word - (1L << COUNT_BITS)))
            {
                return back - 1;
            }
        }
    }

    /** Helper: {@code bytes} more of its claimed range are copied. @return false if the pull has ended. */
    boolean addDone(final int slot, final int generation, final long bytes)
    {
        return updateDone(slot, generation, bytes, 0);
    }

    /** Helper: it gave up on its block (the puller copies what the helper has not). */
    void markFailed(final int slot, final int generation)
    {
        updateDone(slot, generation, 0, FAILED);
    }

    int sourceRegion(final int slot)
    {
        return area.get(ValueLayout.JAVA_INT, (long)slot * SLOT_BYTES + SOURCE_REGION);
    }

    int targetRegion(final int slot)
    {
        return area.get(ValueLayout.JAVA_INT, (long)slot * SLOT_BYTES + TARGET_REGION);
    }

    long sourceOffset(final int slot)
    {
        return area.get(ValueLayout.JAVA_LONG, (long)slot * SLOT_BYTES + SOURCE_OFFSET);
    }

    long targetOffset(final int slot)
    {
        return area.get(ValueLayout.JAVA_LONG, (long)slot * SLOT_BYTES + TARGET_OFFSET);
    }

    long length(final int slot)
    {
        return area.get(ValueLayout.JAVA_LONG, (long)slot * SLOT_BYTES + LENGTH);
    }

    private boolean updateDone(final int slot, final int generation, final long bytes, final long flags)
    {
        final long at = (long)slot * SLOT_BYTES + DONE;
        while (true)
        {
            final long word = (long)LONG.getVolatile(area, at);
            if (generation(word) != generation)
            {
                return false;
            }
            if (LONG.compareAndSet(area, at, word, (word + bytes) | flags))
            {
                return true;
            }
        }
    }

    private static long generation(final long word)
    {
        return word >>> GENERATION_SHIFT;
    }

    private static long back(final long word)
    {
        return (word >>> COUNT_BITS) & COUNT_MASK;
    }
}
