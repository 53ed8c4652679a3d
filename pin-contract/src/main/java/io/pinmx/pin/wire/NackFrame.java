package io.pinmx.pin.wire;

import java.lang.foreign.MemorySegment;

/**
 * NACK: a frame was refused. Addressed to the refused frame's source endpoint and session. For a
 * refused PULL it carries the pull handle and, for a segment fault, the region, segment index,
 * faulting address and errno so the puller can name them in its PULL_FAILED event. No payload.
 */
public final class NackFrame extends FrameFlyweight
{
    /** u8 {@link NackReason} code. */
    public static final int REASON_OFFSET = HEADER_BYTES;
    /** u8 kind code of the refused frame. */
    public static final int REFUSED_KIND_OFFSET = HEADER_BYTES + 1;
    /** u16 faulting segment index (SEGMENT_FAULT), else 0. */
    public static final int SEGMENT_INDEX_OFFSET = HEADER_BYTES + 2;
    /** u32 sequence number of the refused frame. */
    public static final int REFUSED_SEQ_OFFSET = HEADER_BYTES + 4;
    /** u32 pull handle of a refused PULL, else 0. */
    public static final int REFUSED_HANDLE_OFFSET = HEADER_BYTES + 8;
    /** u32 region id of a refused PULL, else 0. */
    public static final int REGION_ID_OFFSET = HEADER_BYTES + 12;
    /**
     * u64 faulting address (SEGMENT_FAULT), refused region offset (OUT_OF_RANGE) or the serving driver's
     * reply payload limit (BAD_FIELD), else 0.
     */
    public static final int ADDRESS_OFFSET = HEADER_BYTES + 16;
    /** u32 errno of the failure on the serving side (SEGMENT_FAULT: 14, EFAULT), else 0. */
    public static final int ERRNO_OFFSET = HEADER_BYTES + 24;
    /** u32 reserved. */
    public static final int RESERVED_PART_OFFSET = HEADER_BYTES + 28;
    /** Length of the kind part. */
    public static final int KIND_PART_BYTES = 32;

    @Override
    public NackFrame wrap(final MemorySegment buffer, final long offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write the kind part.
     *
     * @param reason        why.
     * @param refusedKind   kind of the refused frame.
     * @param refusedSeq    sequence of the refused frame.
     * @param refusedHandle pull handle of a refused PULL, else 0.
     * @param regionId      region id of a refused PULL, else 0.
     * @param segmentIndex  faulting segment index, else 0.
     * @param address       faulting address, refused offset or reply payload limit, else 0.
     * @param errno         serving side's errno, else 0.
     * @return this.
     */
    public NackFrame encode(
        final NackReason reason,
        final FrameKind refusedKind,
        final int refusedSeq,
        final int refusedHandle,
        final int regionId,
        final int segmentIndex,
        final long address,
        final int errno)
    {
        buffer.set(U8, offset + REASON_OFFSET, (byte)reason.code());
        buffer.set(U8, offset + REFUSED_KIND_OFFSET, (byte)refusedKind.code());
        buffer.set(U16, offset + SEGMENT_INDEX_OFFSET, (short)segmentIndex);
        buffer.set(U32, offset + REFUSED_SEQ_OFFSET, refusedSeq);
        buffer.set(U32, offset + REFUSED_HANDLE_OFFSET, refusedHandle);
        buffer.set(U32, offset + REGION_ID_OFFSET, regionId);
        buffer.set(U64, offset + ADDRESS_OFFSET, address);
        buffer.set(U32, offset + ERRNO_OFFSET, errno);
        buffer.set(U32, offset + RESERVED_PART_OFFSET, 0);
        return this;
    }

    /**
     * @return raw reason code, 0..255.
     */
    public int reasonCode()
    {
        return buffer.get(U8, offset + REASON_OFFSET) & 0xFF;
    }

    /**
     * @return the reason, or null for an unknown code.
     */
    public NackReason reason()
    {
        return NackReason.fromCode(reasonCode());
    }

    /**
     * @return raw kind code of the refused frame.
     */
    public int refusedKindCode()
    {
        return buffer.get(U8, offset + REFUSED_KIND_OFFSET) & 0xFF;
    }

    /**
     * @return kind of the refused frame, or null for an unknown code.
     */
    public FrameKind refusedKind()
    {
        return FrameKind.fromCode(refusedKindCode());
    }

    /**
     * @return faulting segment index, 0..65535.
     */
    public int segmentIndex()
    {
        return buffer.get(U16, offset + SEGMENT_INDEX_OFFSET) & 0xFFFF;
    }

    /**
     * @return sequence of the refused frame.
     */
    public int refusedSeq()
    {
        return buffer.get(U32, offset + REFUSED_SEQ_OFFSET);
    }

    /**
     * @return pull handle of a refused PULL.
     */
    public int refusedHandle()
    {
        return buffer.get(U32, offset + REFUSED_HANDLE_OFFSET);
    }

    /**
     * @return region id of a refused PULL.
     */
    public int regionId()
    {
        return buffer.get(U32, offset + REGION_ID_OFFSET);
    }

    /**
     * @return faulting address or refused offset.
     */
    public long address()
    {
        return buffer.get(U64, offset + ADDRESS_OFFSET);
    }

    /**
     * @return serving side's errno.
     */
    public int errno()
    {
        return buffer.get(U32, offset + ERRNO_OFFSET);
    }
}
