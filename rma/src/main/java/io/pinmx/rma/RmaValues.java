package io.pinmx.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * ARMCI's value operations ({@code ARMCI_PutValue*}, {@code ARMCI_NbPutValue*}, {@code ARMCI_GetValue*}): one int,
 * long, float or double put to or read from a rank's slice, without a source or destination buffer of the caller's.
 * Reached through {@link Rma#values()}; owned by the rank's {@link Rma} and used by the one thread that issues its
 * operations, as the blocking forms share one scratch word.
 */
public final class RmaValues
{
    private final Transfers transfers;

    RmaValues(final Transfers transfers)
    {
        this.transfers = transfers;
    }

    /**
     * Puts an int at {@code offset} of the rank's slice of {@code target}; complete at the target when it returns,
     * as a blocking put.
     *
     * @throws IllegalArgumentException naming the rank or range if it is outside the allocation's group or slice.
     */
    public void putInt(final int value, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.valueWord().set(ValueLayout.JAVA_INT_UNALIGNED, 0, value);
        transfers.putValue(target, rank, offset, Integer.BYTES);
    }

    /** Puts a long, as {@link #putInt}. */
    public void putLong(final long value, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.valueWord().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        transfers.putValue(target, rank, offset, Long.BYTES);
    }

    /** Puts a float, as {@link #putInt}. */
    public void putFloat(final float value, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.valueWord().set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, value);
        transfers.putValue(target, rank, offset, Float.BYTES);
    }

    /** Puts a double, as {@link #putInt}. */
    public void putDouble(final double value, final RmaAllocation target, final int rank, final long offset)
    {
        transfers.valueWord().set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, value);
        transfers.putValue(target, rank, offset, Double.BYTES);
    }

    /**
     * Non-blocking value put ({@code ARMCI_NbPutValueInt}), followed by {@code handle} (null: the implicit handles);
     * the value is copied, so nothing of the caller's must outlive the call.
     */
    public void nbPutInt(final int value, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(MemorySegment.ofArray(new int[] {value}), target, rank, offset, handle);
    }

    /** Non-blocking put of a long, as {@link #nbPutInt}. */
    public void nbPutLong(final long value, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(MemorySegment.ofArray(new long[] {value}), target, rank, offset, handle);
    }

    /** Non-blocking put of a float, as {@link #nbPutInt}. */
    public void nbPutFloat(final float value, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(MemorySegment.ofArray(new float[] {value}), target, rank, offset, handle);
    }

    /** Non-blocking put of a double, as {@link #nbPutInt}. */
    public void nbPutDouble(final double value, final RmaAllocation target, final int rank, final long offset,
        final RmaHandle handle)
    {
        transfers.put(MemorySegment.ofArray(new double[] {value}), target, rank, offset, handle);
    }

    /**
     * @return the int at {@code offset} of the rank's slice of {@code source}, read as a blocking get.
     * @throws IllegalArgumentException naming the rank or range if it is outside the allocation's group or slice.
     */
    public int getInt(final RmaAllocation source, final int rank, final long offset)
    {
        return transfers.getValue(source, rank, offset, Integer.BYTES).get(ValueLayout.JAVA_INT_UNALIGNED, 0);
    }

    /** @return the long at {@code offset}, as {@link #getInt}. */
    public long getLong(final RmaAllocation source, final int rank, final long offset)
    {
        return transfers.getValue(source, rank, offset, Long.BYTES).get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
    }

    /** @return the float at {@code offset}, as {@link #getInt}. */
    public float getFloat(final RmaAllocation source, final int rank, final long offset)
    {
        return transfers.getValue(source, rank, offset, Float.BYTES).get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0);
    }

    /** @return the double at {@code offset}, as {@link #getInt}. */
    public double getDouble(final RmaAllocation source, final int rank, final long offset)
    {
        return transfers.getValue(source, rank, offset, Double.BYTES).get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
    }
}
