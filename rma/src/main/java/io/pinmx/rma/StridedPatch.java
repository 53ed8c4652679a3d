package io.pinmx.rma;

import java.util.Arrays;

/**
 * The shape of an ARMCI strided transfer: {@code levels} (0..{@value #MAX_LEVELS}) stride levels,
 * {@code count[0]} contiguous bytes per piece, {@code count[1..levels]} pieces per level, and on each
 * side cumulative byte strides {@code stride[0..levels-1]} (stride[i] is the distance between
 * neighbours of level i+1). Validated once when built; afterwards it only enumerates its pieces, with
 * no allocation, as (source offset, target offset, bytes) triples relative to the two base addresses.
 * <p>
 * On the written side (the target; a get's local destination) a stride must reach past the block it repeats
 * (stride[i] >= count[0] + sum over j < i of (count[j+1] - 1) * stride[j], where count[i+1] > 1) so that the
 * written pieces never overlap: overlapping targets would make a put's result depend on the order the pieces were
 * moved in, which ARMCI leaves undefined and this library refuses. The side only read may overlap itself (a
 * source stride of 0 repeats one row), and a level of count 1 may have any stride: it never repeats.
 */
public final class StridedPatch
{
    /** ARMCI's limit on stride levels. */
    public static final int MAX_LEVELS = 8;
    private static final long[] NO_STRIDES = new long[0];

    /** Receives the pieces of a patch in order (innermost level fastest). */
    @FunctionalInterface
    public interface PieceVisitor
    {
        void piece(long sourceOffset, long targetOffset, long bytes);
    }

    private final int levels;
    private final long[] counts;
    private final long[] sourceStrides;
    private final long[] targetStrides;
    private final long pieces;
    private final long sourceExtentBytes;
    private final long targetExtentBytes;
    private final long[] odometer;

    private StridedPatch(final int levels, final long[] counts, final long[] sourceStrides, final long[] targetStrides)
    {
        this.levels = levels;
        this.counts = counts;
        this.sourceStrides = sourceStrides;
        this.targetStrides = targetStrides;
        long n = 1;
        for (int i = 1; i <= levels; i++)
        {
            n = Math.multiplyExact(n, counts[i]);
        }
        this.pieces = 0 == counts[0] ? 0 : n;
        this.sourceExtentBytes = extent(counts, sourceStrides, levels);
        this.targetExtentBytes = extent(counts, targetStrides, levels);
        this.odometer = new long[levels + 1];
    }

    /**
     * @param counts        count[0] bytes per piece, count[1..levels] pieces per level; length levels + 1.
     * @param sourceStrides cumulative byte strides on the source side; at least {@code levels} entries (null for
     *                      0 levels).
     * @param targetStrides cumulative byte strides on the target side; at least {@code levels} entries (null for
     *                      0 levels).
     * @param levels        stride levels, 0..{@value #MAX_LEVELS}.
     * @throws IllegalArgumentException naming the bad argument: levels out of range, a missing or negative
     *                                  count, a missing or negative stride, a target stride that would overlap
     *                                  written pieces, or an extent beyond 2^63 - 1 bytes.
     */
    public static StridedPatch of(final long[] counts, final long[] sourceStrides, final long[] targetStrides, final int levels)
    {
        return build(counts, sourceStrides, targetStrides, levels, true);
    }

    /**
     * The remote side of a request as its data server decodes it, both sides given the remote strides: the origin
     * checked which side is written, and a get's remote side, only read, may repeat bytes.
     */
    static StridedPatch remoteSide(final long[] counts, final long[] strides, final int levels)
    {
        return build(counts, strides, strides, levels, false);
    }

    private static StridedPatch build(final long[] counts, final long[] sourceStrides, final long[] targetStrides,
        final int levels, final boolean targetWritten)
    {
        if (levels < 0 || levels > MAX_LEVELS)
        {
            throw new IllegalArgumentException("stride levels " + levels + " not in 0.." + MAX_LEVELS);
        }
        if (null == counts || counts.length < levels + 1)
        {
            throw new IllegalArgumentException("count has " + (null == counts ? "no" : counts.length) +
                " entries; " + levels + " stride levels need " + (levels + 1));
        }
        for (int i = 0; i <= levels; i++)
        {
            if (counts[i] < 0)
            {
                throw new IllegalArgumentException("count[" + i + "] = " + counts[i] + " is negative");
            }
        }
        checkStrides("source", sourceStrides, counts, levels, false);
        checkStrides("target", targetStrides, counts, levels, targetWritten);
        try
        {
            return new StridedPatch(levels, Arrays.copyOf(counts, levels + 1),
                copyOfStrides(sourceStrides, levels), copyOfStrides(targetStrides, levels));
        }
        catch (final ArithmeticException ex)
        {
            throw new IllegalArgumentException("strided patch " + Arrays.toString(Arrays.copyOf(counts, levels + 1)) +
                " reaches beyond 2^63 - 1 bytes", ex);
        }
    }

    /** A contiguous patch (0 levels) reads no stride, so ARMCI callers pass none: null is an empty array then. */
    private static long[] copyOfStrides(final long[] strides, final int levels)
    {
        return null == strides ? NO_STRIDES : Arrays.copyOf(strides, levels);
    }

    /** A contiguous transfer of {@code bytes} as a 0-level patch. */
    public static StridedPatch contiguous(final long bytes)
    {
        return of(new long[] {bytes}, new long[0], new long[0], 0);
    }

    /**
     * Every side needs its strides (unless there are no levels) and none negative. Only the written side (the
     * target of a put or accumulate, the local destination of a get) must not overlap itself: stride[i] must reach
     * past the end of one level-i block (count[0] + the sum over j < i of (count[j+1] - 1) * stride[j] bytes), checked
     * only where level i+1 repeats that block (count[i+1] > 1). A side that is only read may repeat bytes (a source
     * stride of 0 spreads one row over many), as ARMCI allows.
     */
    private static void checkStrides(final String side, final long[] strides, final long[] counts, final int levels,
        final boolean written)
    {
        if (levels > 0 && (null == strides || strides.length < levels))
        {
            throw new IllegalArgumentException(side + " stride array has " + (null == strides ? "no" : strides.length) +
                " entries; " + levels + " stride levels need " + levels);
        }
        long blockBytes = counts[0];
        for (int i = 0; i < levels; i++)
        {
            if (strides[i] < 0)
            {
                throw new IllegalArgumentException(side + " stride[" + i + "] = " + strides[i] + " is negative");
            }
            if (written && counts[i + 1] > 1 && strides[i] < blockBytes)
            {
                throw new IllegalArgumentException(side + " stride[" + i + "] = " + strides[i] + " does not fit its " +
                    "counts: a level-" + i + " block spans " + blockBytes + " bytes (count[0] = " + counts[0] +
                    (0 == i ? "" : " and the strides below it") + "), so the " + counts[i + 1] +
                    " written blocks of count[" + (i + 1) + "] would overlap");
            }
            blockBytes = addOrMax(blockBytes, multiplyOrMax(Math.max(0, counts[i + 1] - 1), strides[i]));
        }
    }

    private static long addOrMax(final long a, final long b)
    {
        final long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long multiplyOrMax(final long a, final long b)
    {
        final long hi = Math.multiplyHigh(a, b);
        final long lo = a * b;
        return 0 != hi || lo < 0 ? Long.MAX_VALUE : lo;
    }

    /** Bytes from the first byte of the first piece to the end of the last piece; 0 for an empty patch. */
    private static long extent(final long[] counts, final long[] strides, final int levels)
    {
        for (int i = 0; i <= levels; i++)
        {
            if (0 == counts[i])
            {
                return 0;
            }
        }
        long end = counts[0];
        for (int i = 1; i <= levels; i++)
        {
            end = Math.addExact(end, Math.multiplyExact(counts[i] - 1, strides[i - 1]));
        }
        return end;
    }

    public int levels()
    {
        return levels;
    }

    /** @return count[i]. */
    public long count(final int level)
    {
        return counts[level];
    }

    /** @return cumulative source stride of a level, 0..levels-1. */
    public long sourceStride(final int level)
    {
        return sourceStrides[level];
    }

    /** @return cumulative target stride of a level, 0..levels-1. */
    public long targetStride(final int level)
    {
        return targetStrides[level];
    }

    /** @return bytes of each contiguous piece, count[0]. */
    public long pieceBytes()
    {
        return counts[0];
    }

    /** @return the number of contiguous pieces; 0 if any count is 0. */
    public long pieces()
    {
        return pieces;
    }

    /** @return bytes moved: pieces x count[0]. */
    public long totalBytes()
    {
        return pieces * counts[0];
    }

    /** @return bytes of the source spanned from the first piece's start to the last piece's end. */
    public long sourceExtentBytes()
    {
        return sourceExtentBytes;
    }

    /** @return bytes of the target spanned from the first piece's start to the last piece's end. */
    public long targetExtentBytes()
    {
        return targetExtentBytes;
    }

    /**
     * Checks that every stride and count[0] is a multiple of an element size (accumulate works on whole
     * elements).
     *
     * @throws IllegalArgumentException naming the count or stride that is not.
     */
    public void checkElementMultiple(final int elementBytes, final String elementName)
    {
        if (0 != counts[0] % elementBytes)
        {
            throw new IllegalArgumentException("count[0] = " + counts[0] + " bytes is not a multiple of the " +
                elementBytes + "-byte " + elementName + " element");
        }
        for (int i = 0; i < levels; i++)
        {
            if (0 != sourceStrides[i] % elementBytes || 0 != targetStrides[i] % elementBytes)
            {
                throw new IllegalArgumentException("stride[" + i + "] (source " + sourceStrides[i] + ", target " +
                    targetStrides[i] + ") is not a multiple of the " + elementBytes + "-byte " + elementName + " element");
            }
        }
    }

    /**
     * Visits every piece, innermost level fastest. Not thread-safe (one odometer per patch).
     */
    public void forEachPiece(final PieceVisitor visitor)
    {
        if (0 == pieces)
        {
            return;
        }
        final long[] digit = odometer;
        Arrays.fill(digit, 0);
        long source = 0;
        long target = 0;
        for (long p = 0; p < pieces; p++)
        {
            visitor.piece(source, target, counts[0]);
            int level = 1;
            while (level <= levels)
            {
                if (++digit[level] < counts[level])
                {
                    source += sourceStrides[level - 1];
                    target += targetStrides[level - 1];
                    break;
                }
                source -= (counts[level] - 1) * sourceStrides[level - 1];
                target -= (counts[level] - 1) * targetStrides[level - 1];
                digit[level] = 0;
                level++;
            }
        }
    }

    @Override
    public String toString()
    {
        return "StridedPatch{levels=" + levels + ", count=" + Arrays.toString(counts) + ", sourceStrides=" +
            Arrays.toString(sourceStrides) + ", targetStrides=" + Arrays.toString(targetStrides) + '}';
    }
}
