package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * ATOMIC_REPLY: an ATOMIC was applied; the word's value before it.
 */
public final class AtomicReplyFrame extends FrameFlyweight
{
    /** u32 the request number from the ATOMIC. */
    public static final int REQUEST_SEQ_OFFSET = HEADER_BYTES;
    /** u32 reserved, 0. */
    public static final int RESERVED_PART_OFFSET = HEADER_BYTES + 4;
    /** u64 the word before the operation (zero-extended for width 4; 0 for ACCUMULATE). */
    public static final int OLD_OFFSET = HEADER_BYTES + 8;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 16;

    @Override
    public AtomicReplyFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @return this.
     */
    public AtomicReplyFrame encode(final int requestSeq, final long old)
    {
        buffer.set(U32, offset + REQUEST_SEQ_OFFSET, requestSeq);
        buffer.set(U32, offset + RESERVED_PART_OFFSET, 0);
        buffer.set(U64, offset + OLD_OFFSET, old);
        return this;
    }

    public int requestSeq()
    {
        return buffer.get(U32, offset + REQUEST_SEQ_OFFSET);
    }

    public long old()
    {
        return buffer.get(U64, offset + OLD_OFFSET);
    }
}
