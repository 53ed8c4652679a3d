package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * ATOMIC: one operation on naturally aligned words of a region exposed for remote writes, named with its key,
 * answered with ATOMIC_REPLY. Operands follow as 8-byte big-endian words (a 4-byte operation uses the low 32 bits):
 * FETCH_ADD the addend, SWAP the new value, CAS the expected then the new value, ACCUMULATE one addend per word.
 */
public final class AtomicFrame extends FrameFlyweight
{
    /** u32 origin's request number, echoed by ATOMIC_REPLY and NACK. */
    public static final int REQUEST_SEQ_OFFSET = HEADER_BYTES;
    /** u32 target endpoint's region. */
    public static final int REGION_ID_OFFSET = HEADER_BYTES + 4;
    /** u64 region offset of the first word. */
    public static final int REGION_OFFSET_OFFSET = HEADER_BYTES + 8;
    /** u64 the region's key. */
    public static final int KEY_OFFSET = HEADER_BYTES + 16;
    /** u8 operation code. */
    public static final int OP_OFFSET = HEADER_BYTES + 24;
    /** u8 bytes of a word, 4 or 8. */
    public static final int WIDTH_OFFSET = HEADER_BYTES + 25;
    /** u16 words. */
    public static final int COUNT_OFFSET = HEADER_BYTES + 26;
    /** u32 reserved, 0. */
    public static final int RESERVED_PART_OFFSET = HEADER_BYTES + 28;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 32;

    /** Operation codes. */
    public static final int OP_FETCH_ADD = 1;
    /** Store the operand, answer the old value. */
    public static final int OP_SWAP = 2;
    /** Store the second operand if the word equals the first. */
    public static final int OP_CAS = 3;
    /** Add one operand per word. */
    public static final int OP_ACCUMULATE = 4;
    /** Bytes of one operand on the wire. */
    public static final int OPERAND_BYTES = 8;
    /** Most words of one ACCUMULATE (its operands fit a 1500-byte Ethernet frame). */
    public static final int MAX_ACCUMULATE_WORDS = 179;
    /** Largest payload of an ATOMIC. */
    public static final int MAX_OPERAND_BYTES = MAX_ACCUMULATE_WORDS * OPERAND_BYTES;

    @Override
    public AtomicFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part; the operands go in the payload ({@link #operand}).
     *
     * @return this.
     */
    public AtomicFrame encode(
        final int requestSeq, final int regionId, final long regionOffset, final long key, final int op,
        final int widthBytes, final int count)
    {
        buffer.set(U32, offset + REQUEST_SEQ_OFFSET, requestSeq);
        buffer.set(U32, offset + REGION_ID_OFFSET, regionId);
        buffer.set(U64, offset + REGION_OFFSET_OFFSET, regionOffset);
        buffer.set(U64, offset + KEY_OFFSET, key);
        buffer.set(U8, offset + OP_OFFSET, (byte)op);
        buffer.set(U8, offset + WIDTH_OFFSET, (byte)widthBytes);
        buffer.set(U16, offset + COUNT_OFFSET, (short)count);
        buffer.set(U32, offset + RESERVED_PART_OFFSET, 0);
        return this;
    }

    /** Write operand {@code index} of the payload. */
    public AtomicFrame operand(final int index, final long value)
    {
        buffer.set(U64, offset + HEADER_BYTES + KIND_PART_BYTES + (long)index * OPERAND_BYTES, value);
        return this;
    }

    /** @return operand {@code index} of the payload. */
    public long operand(final int index)
    {
        return buffer.get(U64, offset + HEADER_BYTES + KIND_PART_BYTES + (long)index * OPERAND_BYTES);
    }

    public int requestSeq()
    {
        return buffer.get(U32, offset + REQUEST_SEQ_OFFSET);
    }

    public int regionId()
    {
        return buffer.get(U32, offset + REGION_ID_OFFSET);
    }

    public long regionOffset()
    {
        return buffer.get(U64, offset + REGION_OFFSET_OFFSET);
    }

    public long key()
    {
        return buffer.get(U64, offset + KEY_OFFSET);
    }

    public int op()
    {
        return buffer.get(U8, offset + OP_OFFSET) & 0xFF;
    }

    public int widthBytes()
    {
        return buffer.get(U8, offset + WIDTH_OFFSET) & 0xFF;
    }

    public int count()
    {
        return buffer.get(U16, offset + COUNT_OFFSET) & 0xFFFF;
    }

    /**
     * @return operands an ATOMIC of this op and word count carries, or -1 for an unknown op.
     */
    public static int operandCount(final int op, final int count)
    {
        return switch (op)
        {
            case OP_FETCH_ADD, OP_SWAP -> 1;
            case OP_CAS -> 2;
            case OP_ACCUMULATE -> count;
            default -> -1;
        };
    }
}
