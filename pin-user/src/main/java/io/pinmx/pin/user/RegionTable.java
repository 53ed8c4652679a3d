package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * One endpoint's declared regions, kept in its /dev/shm file so a same-host puller in another process can read
 * segment addresses without asking. The owner declares and destroys (serialised by the caller); any thread or
 * process reads through {@link #resolve} under a per-entry seqlock, so it never acts on a half-written entry.
 * <p>
 * Region ids carry a generation: {@code id = generation << SLOT_BITS | slot}. Destroying bumps the slot's
 * generation, so a stale id from a destroyed region never resolves to the region that reuses its slot.
 * <p>
 * Entry layout ({@link #ENTRY_BYTES}): seq (long, odd while being written), id (int, 0 = free), access (int),
 * segment count (int), generation (int), total bytes (long), key (long, 0 unless exposed for remote writes), 8 bytes
 * of padding, then up to {@link #MAX_SEGMENTS} (address, length) pairs of longs.
 * <p>
 * A region exposed for remote writes ({@link #ACCESS_REMOTE}) carries the key every put or atomic into it must name;
 * a same-host origin reads it here as the agent does for frames ({@link #checkKey}).
 */
final class RegionTable
{
    static final int MAX_SEGMENTS = 256;
    static final int SLOT_BITS = 10;
    static final int MAX_REGIONS = 1 << SLOT_BITS;
    static final int ENTRY_HEADER_BYTES = 48;
    static final int ENTRY_BYTES = ENTRY_HEADER_BYTES + MAX_SEGMENTS * 16;
    static final int ACCESS_READ = 1;
    static final int ACCESS_WRITE = 2;
    /** Exposed for peers' puts and atomics, which must carry the region's key. */
    static final int ACCESS_REMOTE = 4;

    /** {@link #resolve} results below zero. */
    static final int UNKNOWN_REGION = -1;
    static final int OUT_OF_RANGE = -2;
    static final int ACCESS_DENIED = -3;
    /** {@link #checkKey}: the region is not exposed, or the key is another. */
    static final int BAD_KEY = -4;

    private static final long SEQ_OFFSET = 0;
    private static final long ID_OFFSET = 8;
    private static final long ACCESS_OFFSET = 12;
    private static final long COUNT_OFFSET = 16;
    private static final long GENERATION_OFFSET = 20;
    private static final long TOTAL_OFFSET = 24;
    private static final long KEY_OFFSET = 32;
    private static final int GENERATION_MASK = (1 << (31 - SLOT_BITS)) - 1;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment table;
    private final int maxRegions;
    /**
     * Owner only: the free slots, the next to take on top; made by the first {@link #declare} (a reader's table never
     * declares). Finding a free slot by looking at each entry in turn would touch a page per entry (an entry is
     * 4 KiB), which makes a declaration slower the fuller the table.
     */
    private int[] freeSlots;
    private int freeCount;
    /**
     * Owner's table only: each declared slot's segments as the owner gave them (their arenas' scopes with them), so
     * this process's agent touches a word through them ({@link WordAtomics}); written by the owner before it publishes
     * the entry, read by the agent. Made with {@link #freeSlots}.
     */
    private MemorySegment[][] declaredSegments;
    /** Regions exposed for remote writes; written by the owner, read by the agent. */
    private volatile int exposedCount;

    RegionTable(final MemorySegment table)
    {
        this.maxRegions = (int)Math.min(MAX_REGIONS, table.byteSize() / ENTRY_BYTES);
        if (maxRegions < 1)
        {
            throw new IllegalArgumentException("region table area too small: " + table.byteSize() + " bytes");
        }
        this.table = table;
    }

    static long areaBytes(final int maxRegions)
    {
        return (long)maxRegions * ENTRY_BYTES;
    }

    int maxRegions()
    {
        return maxRegions;
    }

    /**
     * Owner only. Publish a region; returns its id, or 0 when every slot is taken.
     *
     * @throws IllegalArgumentException naming the bad segment when a segment is not native.
     */
    int declare(final MemorySegment[] segments, final int count, final int access)
    {
        return declare(segments, count, access, 0);
    }

    /**
     * Owner only. Publish a region with the key remote writes must carry ({@link #ACCESS_REMOTE} in {@code access}).
     *
     * @return its id, or 0 when every slot is taken.
     */
    int declare(final MemorySegment[] segments, final int count, final int access, final long key)
    {
        if (null == freeSlots)
        {
            collectFreeSlots();
            declaredSegments = new MemorySegment[maxRegions][];
        }
        if (0 == freeCount)
        {
            return 0;
        }
        final int slot = freeSlots[freeCount - 1];
        declaredSegments[slot] = Arrays.copyOf(segments, count);
        final long entry = (long)slot * ENTRY_BYTES;
        final int generation = nextGeneration(table.get(ValueLayout.JAVA_INT, entry + GENERATION_OFFSET));
        final int id = generation << SLOT_BITS | slot;
        long total = 0;
        final long seq = (long)LONG.getVolatile(table, entry + SEQ_OFFSET);
        LONG.setVolatile(table, entry + SEQ_OFFSET, seq + 1);
        for (int i = 0; i < count; i++)
        {
            final long at = entry + ENTRY_HEADER_BYTES + i * 16L;
            table.set(ValueLayout.JAVA_LONG, at, segments[i].address());
            table.set(ValueLayout.JAVA_LONG, at + 8, segments[i].byteSize());
            total += segments[i].byteSize();
        }
        table.set(ValueLayout.JAVA_INT, entry + ACCESS_OFFSET, access);
        table.set(ValueLayout.JAVA_INT, entry + COUNT_OFFSET, count);
        table.set(ValueLayout.JAVA_INT, entry + GENERATION_OFFSET, generation);
        table.set(ValueLayout.JAVA_LONG, entry + TOTAL_OFFSET, total);
        table.set(ValueLayout.JAVA_LONG, entry + KEY_OFFSET, key);
        INT.setVolatile(table, entry + ID_OFFSET, id);
        LONG.setVolatile(table, entry + SEQ_OFFSET, seq + 2);
        freeCount--;
        if ((access & ACCESS_REMOTE) != 0)
        {
            exposedCount++;
        }
        return id;
    }

    /** Owner only: the slots no region holds, the lowest on top (the order a scan from slot 0 took them in). */
    private void collectFreeSlots()
    {
        freeSlots = new int[maxRegions];
        for (int slot = maxRegions - 1; slot >= 0; slot--)
        {
            if ((int)INT.getVolatile(table, (long)slot * ENTRY_BYTES + ID_OFFSET) == 0)
            {
                freeSlots[freeCount++] = slot;
            }
        }
    }

    /** Owner only. @return false if {@code id} is not a declared region. */
    boolean destroy(final int id)
    {
        final int slot = slotOf(id);
        if (slot < 0)
        {
            return false;
        }
        final long entry = (long)slot * ENTRY_BYTES;
        if ((int)INT.getVolatile(table, entry + ID_OFFSET) != id)
        {
            return false;
        }
        if ((table.get(ValueLayout.JAVA_INT, entry + ACCESS_OFFSET) & ACCESS_REMOTE) != 0)
        {
            exposedCount--;
        }
        final long seq = (long)LONG.getVolatile(table, entry + SEQ_OFFSET);
        LONG.setVolatile(table, entry + SEQ_OFFSET, seq + 1);
        INT.setVolatile(table, entry + ID_OFFSET, 0);
        table.set(ValueLayout.JAVA_INT, entry + COUNT_OFFSET, 0);
        table.set(ValueLayout.JAVA_LONG, entry + KEY_OFFSET, 0L);
        LONG.setVolatile(table, entry + SEQ_OFFSET, seq + 2);
        if (null != freeSlots)
        {
            freeSlots[freeCount++] = slot;
            declaredSegments[slot] = null;
        }
        return true;
    }

    /**
     * The owner's agent: segment {@code index} of region {@code id} as it was declared, or null if the region is not
     * declared in this process's table (gone since it was checked, or a peer's table).
     */
    MemorySegment declaredSegment(final int id, final int index)
    {
        final int slot = slotOf(id);
        final MemorySegment[][] all = declaredSegments;
        final MemorySegment[] segments = slot < 0 || all == null ? null : all[slot];
        return segments == null || index < 0 || index >= segments.length ? null : segments[index];
    }

    /** Owner only: every declared id, for close. */
    int declaredIds(final int[] out)
    {
        int n = 0;
        for (int slot = 0; slot < maxRegions && n < out.length; slot++)
        {
            final int id = (int)INT.getVolatile(table, (long)slot * ENTRY_BYTES + ID_OFFSET);
            if (id != 0)
            {
                out[n++] = id;
            }
        }
        return n;
    }

    /** Total bytes of a region, or a negative {@link #resolve} code if unknown. */
    long regionBytes(final int id)
    {
        final int slot = slotOf(id);
        if (slot < 0)
        {
            return UNKNOWN_REGION;
        }
        final long entry = (long)slot * ENTRY_BYTES;
        while (true)
        {
            final long seq = stableSeq(entry);
            final int current = (int)INT.getVolatile(table, entry + ID_OFFSET);
            final long totalBytes = table.get(ValueLayout.JAVA_LONG, entry + TOTAL_OFFSET);
            if (unchanged(entry, seq))
            {
                return current == id ? totalBytes : UNKNOWN_REGION;
            }
        }
    }

    /** @return whether this endpoint has regions exposed for remote writes (the owner's table only). */
    boolean hasExposed()
    {
        return exposedCount > 0;
    }

    /**
     * Whether a put or atomic naming {@code key} may touch region {@code id}.
     *
     * @return 0 when the region is exposed for remote writes with this key, else {@link #UNKNOWN_REGION} or
     *         {@link #BAD_KEY}.
     */
    int checkKey(final int id, final long key)
    {
        return switch (keyMatch(id, key))
        {
            case NOT_DECLARED -> UNKNOWN_REGION;
            case MATCHES -> 0;
            case NOT_EXPOSED, DIFFERS -> BAD_KEY;
        };
    }

    /**
     * Whether a pull naming {@code key} (0: none) may read region {@code id}: a region exposed for remote writes is
     * read only with its key.
     *
     * @return 0 when it may, or the region is not declared (its read fails on that), else {@link #BAD_KEY}.
     */
    int checkReadKey(final int id, final long key)
    {
        return keyMatch(id, key) == KeyMatch.DIFFERS ? BAD_KEY : 0;
    }

    /** How a key named by a remote operation relates to a region's exposure. */
    private enum KeyMatch
    {
        NOT_DECLARED, NOT_EXPOSED, MATCHES, DIFFERS
    }

    /** Compare {@code key} with region {@code id}'s exposure key as one consistent read of its entry. */
    private KeyMatch keyMatch(final int id, final long key)
    {
        final int slot = slotOf(id);
        if (slot < 0)
        {
            return KeyMatch.NOT_DECLARED;
        }
        final long entry = (long)slot * ENTRY_BYTES;
        while (true)
        {
            final long seq = stableSeq(entry);
            final int current = (int)INT.getVolatile(table, entry + ID_OFFSET);
            final int access = table.get(ValueLayout.JAVA_INT, entry + ACCESS_OFFSET);
            final long exposedKey = table.get(ValueLayout.JAVA_LONG, entry + KEY_OFFSET);
            if (unchanged(entry, seq))
            {
                if (current != id)
                {
                    return KeyMatch.NOT_DECLARED;
                }
                if ((access & ACCESS_REMOTE) == 0)
                {
                    return KeyMatch.NOT_EXPOSED;
                }
                return exposedKey == key ? KeyMatch.MATCHES : KeyMatch.DIFFERS;
            }
        }
    }

    /** A slot's seqlock count once no writer is inside it. */
    private long stableSeq(final long entry)
    {
        while (true)
        {
            final long seq = (long)LONG.getVolatile(table, entry + SEQ_OFFSET);
            if ((seq & 1) == 0)
            {
                return seq;
            }
            Thread.onSpinWait();
        }
    }

    /** Whether the fields read since {@code seq} form one consistent snapshot (no writer came in between). */
    private boolean unchanged(final long entry, final long seq)
    {
        VarHandle.acquireFence();
        return (long)LONG.getVolatile(table, entry + SEQ_OFFSET) == seq;
    }

    /**
     * Build the iovecs covering {@code [offset, offset + length)} of region {@code id} into {@code iov} (each
     * covered segment piece is one iovec), and record which segment each iovec came from in {@code segmentIndex}.
     *
     * @return iovec count, or {@link #UNKNOWN_REGION}, {@link #OUT_OF_RANGE}, {@link #ACCESS_DENIED}.
     */
    int resolve(
        final int id,
        final int requiredAccess,
        final long offset,
        final long length,
        final MemorySegment iov,
        final int[] segmentIndex)
    {
        final int slot = slotOf(id);
        if (slot < 0)
        {
            return UNKNOWN_REGION;
        }
        final long entry = (long)slot * ENTRY_BYTES;
        while (true)
        {
            final long seq = (long)LONG.getVolatile(table, entry + SEQ_OFFSET);
            final int result = (seq & 1) == 0 ? resolveEntry(entry, id, requiredAccess, offset, length, iov, segmentIndex) : 0;
            VarHandle.acquireFence();
            if ((seq & 1) == 0 && (long)LONG.getVolatile(table, entry + SEQ_OFFSET) == seq)
            {
                return result;
            }
            Thread.onSpinWait();
        }
    }

    /** {@link #resolve} without building iovecs: 0 if the range is valid, else the negative code. */
    int check(final int id, final int requiredAccess, final long offset, final long length)
    {
        return resolve(id, requiredAccess, offset, length, null, null);
    }

    static int slotOfId(final int id)
    {
        return id & (MAX_REGIONS - 1);
    }

    private int resolveEntry(
        final long entry,
        final int id,
        final int requiredAccess,
        final long offset,
        final long length,
        final MemorySegment iov,
        final int[] segmentIndex)
    {
        if ((int)INT.getVolatile(table, entry + ID_OFFSET) != id)
        {
            return UNKNOWN_REGION;
        }
        if ((table.get(ValueLayout.JAVA_INT, entry + ACCESS_OFFSET) & requiredAccess) != requiredAccess)
        {
            return ACCESS_DENIED;
        }
        final long total = table.get(ValueLayout.JAVA_LONG, entry + TOTAL_OFFSET);
        if (offset < 0 || length < 0 || offset > total || length > total - offset)
        {
            return OUT_OF_RANGE;
        }
        if (iov == null)
        {
            return 0;
        }
        final int count = Math.min(table.get(ValueLayout.JAVA_INT, entry + COUNT_OFFSET), MAX_SEGMENTS);
        int n = 0;
        long segmentStart = 0;
        final long end = offset + length;
        for (int i = 0; i < count && segmentStart < end; i++)
        {
            final long at = entry + ENTRY_HEADER_BYTES + i * 16L;
            final long address = table.get(ValueLayout.JAVA_LONG, at);
            final long bytes = table.get(ValueLayout.JAVA_LONG, at + 8);
            final long segmentEnd = segmentStart + bytes;
            final long from = Math.max(offset, segmentStart);
            final long to = Math.min(end, segmentEnd);
            if (to > from)
            {
                Libc.putIovec(iov, n, address + (from - segmentStart), to - from);
                segmentIndex[n] = i;
                n++;
            }
            segmentStart = segmentEnd;
        }
        return n;
    }

    private int slotOf(final int id)
    {
        if (id <= 0)
        {
            return -1;
        }
        final int slot = slotOfId(id);
        return slot < maxRegions ? slot : -1;
    }

    private static int nextGeneration(final int previous)
    {
        final int next = (previous + 1) & GENERATION_MASK;
        return next == 0 ? 1 : next;
    }

    /** "region 0x1403 (slot 3, generation 5)" for error messages. */
    static String describe(final int id)
    {
        return "region " + id + " (slot " + slotOfId(id) + ", generation " + (id >>> SLOT_BITS) + ")";
    }
}
