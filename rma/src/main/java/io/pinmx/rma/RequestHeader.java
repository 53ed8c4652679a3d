package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Flyweight over a request to a target's data server: what to do, where in which allocation, and the shape of the
 * target memory, followed by the data a put or accumulate carries inline (packed in piece order). The target
 * memory is either a strided patch at an offset (contiguous is 0 levels) or a list of pieces (offset, length).
 * Native byte order: both ends run this library on the same architecture.
 * <pre>
 *   0 u8  op             1 u8 levels          2 u8 scale type + 1 (0: none)   3 u8 shape (0 strided, 1 pieces)
 *   4 u32 origin rank    8 u64 sequence      16 u64 allocation id            24 u64 offset (or mutex index)
 *  32 u64 data bytes    40 u64 value / integral scale                        48 f64 scale re   56 f64 scale im
 *  64 u64 count[0..8]  136 u64 target stride[0..7]                          200 u32 pieces    204 u32 inline bytes
 * 208 u8  delivery (how data not inline arrives: 0 pieces, 1 chunks, 2 pulled)
 * 209 u8  1: answer once applied (a put or accumulate whose fence may be that answer)
 * 210 u8  1: the origin completed this put or accumulate on its copy and does not wait for its ack    211 zero
 * 212 u32 a part of the server's pack area the origin has pulled, its offset + 1 (0: none)
 * 216 pieces: (u64 offset, u64 length) each, then the inline data
 * </pre>
 * Data that is not inline follows as DATA messages: with {@link #DELIVERY_PIECES} one per group of up to
 * {@link DriverTier#MAX_VECTOR} pieces (the origin's pieces as a vector, in order); with {@link #DELIVERY_CHUNKS} the
 * packed bytes in the chunks of {@link ChunkSchedule}. A GET_PACKED request names the pieces of this rank's slice to
 * pack; the server answers with the packed bytes in the same chunks or, with {@link #DELIVERY_PULL}, with the place in
 * its {@link PackArea} it packed them to (or {@link PackArea#NO_PLACE}, then the chunks), for the origin to pull.
 */
final class RequestHeader
{
    static final int FIXED_BYTES = 216;
    static final int PIECE_BYTES = 16;
    /** Bytes of the buffer a data server receives requests into: header, pieces and inline data. */
    static final int BUFFER_BYTES = 64 * 1024;
    static final int SHAPE_STRIDED = 0;
    static final int SHAPE_PIECES = 1;
    static final int DELIVERY_PIECES = 0;
    static final int DELIVERY_CHUNKS = 1;
    static final int DELIVERY_PULL = 2;
    private static final int DELIVERY_AT = 208;
    private static final int ANSWER_APPLIED_AT = 209;
    private static final int DONE_ON_COPY_AT = 210;
    private static final int RELEASED_PART_AT = 212;

    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private MemorySegment buffer;

    RequestHeader wrap(final MemorySegment buffer)
    {
        this.buffer = buffer;
        return this;
    }

    RequestHeader encode(final RmaOp op, final int originRank, final long sequence, final long allocationId,
        final long offset, final long dataBytes, final long value)
    {
        buffer.asSlice(0, FIXED_BYTES).fill((byte)0);
        buffer.set(ValueLayout.JAVA_BYTE, 0, (byte)op.code());
        buffer.set(U32, 4, originRank);
        buffer.set(U64, 8, sequence);
        buffer.set(U64, 16, allocationId);
        buffer.set(U64, 24, offset);
        buffer.set(U64, 32, dataBytes);
        buffer.set(U64, 40, value);
        return this;
    }

    RequestHeader scale(final AccumulateScale scale)
    {
        buffer.set(ValueLayout.JAVA_BYTE, 2, (byte)(scale.type().ordinal() + 1));
        buffer.set(U64, 40, scale.integral());
        buffer.set(F64, 48, scale.re());
        buffer.set(F64, 56, scale.im());
        return this;
    }

    /** The patch of a put or accumulate: its counts and target strides. */
    RequestHeader strided(final StridedPatch patch)
    {
        return strided(patch, true);
    }

    /** The remote side of a patch: its target strides (put, accumulate) or its source strides (a get). */
    RequestHeader strided(final StridedPatch patch, final boolean remoteIsTarget)
    {
        buffer.set(ValueLayout.JAVA_BYTE, 1, (byte)patch.levels());
        buffer.set(ValueLayout.JAVA_BYTE, 3, (byte)SHAPE_STRIDED);
        for (int i = 0; i <= patch.levels(); i++)
        {
            buffer.set(U64, 64 + 8L * i, patch.count(i));
        }
        for (int i = 0; i < patch.levels(); i++)
        {
            buffer.set(U64, 136 + 8L * i, remoteIsTarget ? patch.targetStride(i) : patch.sourceStride(i));
        }
        return this;
    }

    /** Pieces (offset, length) of the target memory; the caller checked they fit. */
    RequestHeader pieces(final long[] offsets, final long[] lengths, final int from, final int count)
    {
        buffer.set(ValueLayout.JAVA_BYTE, 3, (byte)SHAPE_PIECES);
        buffer.set(U32, 200, count);
        for (int i = 0; i < count; i++)
        {
            buffer.set(U64, FIXED_BYTES + (long)PIECE_BYTES * i, offsets[from + i]);
            buffer.set(U64, FIXED_BYTES + (long)PIECE_BYTES * i + 8, lengths[from + i]);
        }
        return this;
    }

    RequestHeader delivery(final int delivery)
    {
        buffer.set(ValueLayout.JAVA_BYTE, DELIVERY_AT, (byte)delivery);
        return this;
    }

    int delivery()
    {
        return buffer.get(ValueLayout.JAVA_BYTE, DELIVERY_AT) & 0xFF;
    }

    /**
     * Asks the server to answer this put or accumulate once it applied it, as it answers a fence: the first write to
     * a rank after a fence asks so, and a fence that finds no other write sent since waits for that answer instead of
     * sending a FENCE of its own (an 8 B put + fence is then one message each way, as a fetch-and-add).
     */
    RequestHeader answerApplied()
    {
        buffer.set(ValueLayout.JAVA_BYTE, ANSWER_APPLIED_AT, (byte)1);
        return this;
    }

    boolean answersApplied()
    {
        return 1 == buffer.get(ValueLayout.JAVA_BYTE, ANSWER_APPLIED_AT);
    }

    /**
     * Says the origin completed this put or accumulate once it copied the data into the request ({@link CopiedWrites}):
     * nobody waits for its ack, so the server may hold it for the next message to carry.
     */
    RequestHeader doneOnCopy()
    {
        buffer.set(ValueLayout.JAVA_BYTE, DONE_ON_COPY_AT, (byte)1);
        return this;
    }

    boolean isDoneOnCopy()
    {
        return 1 == buffer.get(ValueLayout.JAVA_BYTE, DONE_ON_COPY_AT);
    }

    /** Frees the server's pack-area part at {@code offset} (the origin pulled it) along with this request. */
    RequestHeader releasedPart(final long offset)
    {
        buffer.set(U32, RELEASED_PART_AT, Math.toIntExact(offset + 1));
        return this;
    }

    /** @return the offset of the pack-area part this request frees, or -1 for none. */
    long releasedPart()
    {
        return Integer.toUnsignedLong(buffer.get(U32, RELEASED_PART_AT)) - 1;
    }

    RequestHeader inlineBytes(final int bytes)
    {
        buffer.set(U32, 204, bytes);
        return this;
    }

    /** @return bytes of header plus pieces: where inline data starts. */
    int headerBytes()
    {
        return FIXED_BYTES + PIECE_BYTES * pieceCount();
    }

    RmaOp op()
    {
        return RmaOp.fromCode(buffer.get(ValueLayout.JAVA_BYTE, 0) & 0xFF);
    }

    int levels()
    {
        return buffer.get(ValueLayout.JAVA_BYTE, 1) & 0xFF;
    }

    /** @return the accumulate scale, or null if none was encoded. */
    AccumulateScale scale()
    {
        final int type = buffer.get(ValueLayout.JAVA_BYTE, 2) & 0xFF;
        if (0 == type || type > ElementType.values().length)
        {
            return null;
        }
        final long integral = buffer.get(U64, 40);
        final double re = buffer.get(F64, 48);
        final double im = buffer.get(F64, 56);
        return switch (ElementType.values()[type - 1])
        {
            case INT -> AccumulateScale.ofInt((int)integral);
            case LONG -> AccumulateScale.ofLong(integral);
            case FLOAT -> AccumulateScale.ofFloat((float)re);
            case DOUBLE -> AccumulateScale.ofDouble(re);
            case COMPLEX_FLOAT -> AccumulateScale.ofComplexFloat((float)re, (float)im);
            case COMPLEX_DOUBLE -> AccumulateScale.ofComplexDouble(re, im);
        };
    }

    boolean isPieces()
    {
        return SHAPE_PIECES == (buffer.get(ValueLayout.JAVA_BYTE, 3) & 0xFF);
    }

    int originRank()
    {
        return buffer.get(U32, 4);
    }

    long sequence()
    {
        return buffer.get(U64, 8);
    }

    long allocationId()
    {
        return buffer.get(U64, 16);
    }

    long offset()
    {
        return buffer.get(U64, 24);
    }

    long dataBytes()
    {
        return buffer.get(U64, 32);
    }

    long value()
    {
        return buffer.get(U64, 40);
    }

    /** @return the target-side patch of a strided request (source and target strides both the remote ones). */
    StridedPatch patch()
    {
        final int levels = levels();
        final long[] counts = new long[levels + 1];
        final long[] strides = new long[levels];
        for (int i = 0; i <= levels; i++)
        {
            counts[i] = buffer.get(U64, 64 + 8L * i);
        }
        for (int i = 0; i < levels; i++)
        {
            strides[i] = buffer.get(U64, 136 + 8L * i);
        }
        return StridedPatch.remoteSide(counts, strides, levels);
    }

    int pieceCount()
    {
        return buffer.get(U32, 200);
    }

    long pieceOffset(final int i)
    {
        return buffer.get(U64, FIXED_BYTES + (long)PIECE_BYTES * i);
    }

    long pieceLength(final int i)
    {
        return buffer.get(U64, FIXED_BYTES + (long)PIECE_BYTES * i + 8);
    }

    int inlineBytes()
    {
        return buffer.get(U32, 204);
    }

    /**
     * @return the target pieces of the request, in the order its data is packed: {@code [0]} their offsets in the
     *         slice (a strided patch's from {@link #offset()}), {@code [1]} their lengths.
     */
    long[][] targetPieces()
    {
        if (isPieces())
        {
            final int n = pieceCount();
            final long[] offsets = new long[n];
            final long[] lengths = new long[n];
            for (int i = 0; i < n; i++)
            {
                offsets[i] = pieceOffset(i);
                lengths[i] = pieceLength(i);
            }
            return new long[][] {offsets, lengths};
        }
        final StridedPatch patch = patch();
        final int n = Math.toIntExact(patch.pieces());
        final long[] offsets = new long[n];
        final long[] lengths = new long[n];
        final long base = offset();
        final int[] at = {0};
        patch.forEachPiece((s, t, bytes) ->
        {
            offsets[at[0]] = base + t;
            lengths[at[0]++] = bytes;
        });
        return new long[][] {offsets, lengths};
    }
}
