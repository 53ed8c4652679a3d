package io.pinmx.pin.spi;

import java.lang.foreign.MemorySegment;

/**
 * Reusable description of one atomic ({@link DriverEndpoint#startAtomic}) on naturally aligned words of a peer's
 * remote-writable region. The driver takes what it needs before {@code startAtomic} returns.
 */
public final class AtomicSpec
{
    /** Bytes of an int32 word. */
    public static final int INT32_BYTES = 4;
    /** Bytes of an int64 word. */
    public static final int INT64_BYTES = 8;

    private final RemoteTarget target = new RemoteTarget();
    private AtomicOp op;
    private int widthBytes;
    private long remoteOffset;
    private long operand;
    private long compare;
    private MemorySegment values = MemorySegment.NULL;
    private int handle;

    /**
     * @return the target region, to fill.
     */
    public RemoteTarget target()
    {
        return target;
    }

    /**
     * A single-word operation (not {@link AtomicOp#ACCUMULATE}).
     *
     * @param widthBytes   {@link #INT32_BYTES} or {@link #INT64_BYTES}.
     * @param remoteOffset region offset of the word, a multiple of the width.
     * @param operand      FETCH_ADD's addend, SWAP's and COMPARE_AND_SWAP's new value (low 32 bits for int32).
     * @param compare      COMPARE_AND_SWAP's expected value.
     * @param handle       the caller's handle, carried by the ATOMIC_DONE / ATOMIC_FAILED event.
     * @return this.
     */
    public AtomicSpec word(
        final AtomicOp op, final int widthBytes, final long remoteOffset, final long operand, final long compare,
        final int handle)
    {
        this.op = op;
        this.widthBytes = widthBytes;
        this.remoteOffset = remoteOffset;
        this.operand = operand;
        this.compare = compare;
        this.values = MemorySegment.NULL;
        this.handle = handle;
        return this;
    }

    /**
     * An {@link AtomicOp#ACCUMULATE}: word i of {@code values} (native, a whole number of words, in this host's byte
     * order) is added to the word at {@code remoteOffset + i * widthBytes}.
     *
     * @return this.
     */
    public AtomicSpec accumulate(
        final int widthBytes, final long remoteOffset, final MemorySegment values, final int handle)
    {
        this.op = AtomicOp.ACCUMULATE;
        this.widthBytes = widthBytes;
        this.remoteOffset = remoteOffset;
        this.operand = 0;
        this.compare = 0;
        this.values = values;
        this.handle = handle;
        return this;
    }

    public AtomicOp op()
    {
        return op;
    }

    public int widthBytes()
    {
        return widthBytes;
    }

    public long remoteOffset()
    {
        return remoteOffset;
    }

    public long operand()
    {
        return operand;
    }

    public long compare()
    {
        return compare;
    }

    public MemorySegment values()
    {
        return values;
    }

    public int handle()
    {
        return handle;
    }

    @Override
    public String toString()
    {
        return op + " of " + (AtomicOp.ACCUMULATE == op ? values.byteSize() / Math.max(1, widthBytes) + " " : "a ") +
            widthBytes + "-byte word" + (AtomicOp.ACCUMULATE == op ? "s" : "") + " at offset " + remoteOffset +
            " of " + target + ", handle " + handle;
    }
}
