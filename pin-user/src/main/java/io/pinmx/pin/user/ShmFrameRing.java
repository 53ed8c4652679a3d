package io.pinmx.pin.user;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Many-to-one ring of MXoE frames in shared memory (one per receiving endpoint, in its /dev/shm file), in the
 * style of Agrona's ManyToOneRingBuffer: producers in any process claim space by CAS on the tail, write the
 * record, then publish it with a volatile store of its length; the single consumer reads records in order,
 * then zeroes them and advances the head, a batch at a time ({@link #consumed}). A zero length means "not yet
 * published".
 * <p>
 * Layout: control block of {@link #CONTROL_BYTES} (tail, head, the consumer's parked flag and the position its
 * endpoint's library has taken frames up to, on separate cache lines), then {@code capacity} bytes of records. Record: length (int, record header + frame bytes), type
 * (int: frame or padding), sender's UDP port (int), sender's IPv4/IPv6 address length (int) and 16 address
 * bytes, then the frame; records start 8-byte aligned. A shared-pull record carries, instead of a frame, the
 * pulling endpoint's session id, the {@link SharedPulls} slot and its generation (ints): an invitation to copy part
 * of that pull. It wakes only a consumer parked in {@link #PARKED_IN_WAIT} (a caller blocked in its own wait, whose
 * core has nothing else to run): a progress thread parked beside its application would take the application's core.
 */
final class ShmFrameRing
{
    static final int CONTROL_BYTES = 256;
    static final int RECORD_HEADER_BYTES = 32;
    static final int ALIGNMENT = 8;

    /** The consumer's parked flag: polling, not blocked. */
    static final int NOT_PARKED = 0;
    /** Parked (a progress thread): a frame wakes it, an invitation to share a pull does not. */
    static final int PARKED = 1;
    /** Parked in a caller's own wait (no progress thread): frames and invitations to share a pull wake it. */
    static final int PARKED_IN_WAIT = 2;

    private static final long TAIL_OFFSET = 0;
    private static final long HEAD_OFFSET = 64;
    private static final long PARKED_OFFSET = 128;
    private static final long TAKEN_OFFSET = 192;

    private static final int TYPE_FRAME = 1;
    private static final int TYPE_PADDING = 2;
    private static final int TYPE_SHARED_PULL = 3;
    private static final int SHARED_PULL_BODY_BYTES = 16;

    private static final int LENGTH_OFFSET = 0;
    private static final int TYPE_OFFSET = 4;
    private static final int PORT_OFFSET = 8;
    private static final int ADDRESS_LENGTH_OFFSET = 12;
    private static final int ADDRESS_OFFSET = 16;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment control;
    private final MemorySegment buffer;
    /**
     * Zeroes the consumer copies over each consumed record (a slice to fill would allocate per record); as large
     * as the largest record or padding. Made on the first drain: only the receiving endpoint consumes, while
     * every sender maps the ring too.
     */
    private MemorySegment zeroes;
    /**
     * Consumer: the position after the last record delivered. Records between the published head and it are zeroed
     * and handed back to producers at the start of the next drain, before the consumer parks, or at once when they
     * come to {@link #releaseAtBytes}; not after each delivery: zeroing takes the record's cache lines from the
     * producer, and after a delivery the consumer's caller is about to answer.
     */
    private long consumed;
    /** Consumer: {@link #deliveringEnd}. */
    private long deliveringEnd;
    /** Consumer: the head as last published. */
    private long released;
    /** Consumed bytes held back from producers before a drain hands them back at once: an eighth of the ring. */
    private final int releaseAtBytes;
    private final int capacity;
    private final int mask;
    /**
     * Producer: the head as last read. The head only grows, so a stale value only understates the room; it is read
     * again when the room it shows may not do. Reading it per offer took the consumer's cache line at every frame.
     */
    private volatile long headCache;

    /** Wraps an area of {@link #CONTROL_BYTES} + capacity bytes; capacity must be a power of two. */
    ShmFrameRing(final MemorySegment area)
    {
        final long capacityBytes = area.byteSize() - CONTROL_BYTES;
        if (capacityBytes <= 0 || Long.bitCount(capacityBytes) != 1 || capacityBytes > (1 << 30))
        {
            throw new IllegalArgumentException("ring capacity must be a power of two <= 1 GiB: " + capacityBytes);
        }
        this.control = area.asSlice(0, CONTROL_BYTES);
        this.buffer = area.asSlice(CONTROL_BYTES);
        this.capacity = (int)capacityBytes;
        this.mask = capacity - 1;
        this.releaseAtBytes = capacity / 8;
    }

    static long areaBytes(final int capacity)
    {
        return CONTROL_BYTES + (long)capacity;
    }

    /** Largest frame one record can carry. */
    int maxFrameBytes()
    {
        return capacity / 4 - RECORD_HEADER_BYTES;
    }

    /**
     * Append one frame (header then payload).
     *
     * @return false if the ring has no room now (the caller retries or backs off).
     */
    boolean offer(
        final MemorySegment header,
        final MemorySegment payload,
        final int senderPort,
        final byte[] senderAddress)
    {
        final long frameBytes = header.byteSize() + payload.byteSize();
        if (frameBytes > maxFrameBytes())
        {
            throw new IllegalArgumentException("frame of " + frameBytes + " bytes exceeds the shm ring's maximum of " +
                maxFrameBytes());
        }
        final int recordLength = RECORD_HEADER_BYTES + (int)frameBytes;
        final int required = align(recordLength);
        final long at = claim(required);
        if (at < 0)
        {
            return false;
        }
        writeRecordHeader(at, TYPE_FRAME, senderPort, senderAddress);
        MemorySegment.copy(header, 0, buffer, at + RECORD_HEADER_BYTES, header.byteSize());
        if (payload.byteSize() > 0)
        {
            MemorySegment.copy(payload, 0, buffer, at + RECORD_HEADER_BYTES + header.byteSize(), payload.byteSize());
        }
        INT.setVolatile(buffer, at + LENGTH_OFFSET, recordLength);
        return true;
    }

    /**
     * Offer the receiving endpoint's agent a part of a pull from its memory ({@link SharedPulls}).
     *
     * @return false if the ring has no room now (the puller then copies alone).
     */
    boolean offerSharedPull(
        final int pullerSession, final int slot, final int generation, final int senderPort, final byte[] senderAddress)
    {
        final int recordLength = RECORD_HEADER_BYTES + SHARED_PULL_BODY_BYTES;
        final long at = claim(align(recordLength));
        if (at < 0)
        {
            return false;
        }
        writeRecordHeader(at, TYPE_SHARED_PULL, senderPort, senderAddress);
        buffer.set(ValueLayout.JAVA_INT, at + RECORD_HEADER_BYTES, pullerSession);
        buffer.set(ValueLayout.JAVA_INT, at + RECORD_HEADER_BYTES + 4, slot);
        buffer.set(ValueLayout.JAVA_INT, at + RECORD_HEADER_BYTES + 8, generation);
        INT.setVolatile(buffer, at + LENGTH_OFFSET, recordLength);
        return true;
    }

    /** Everything of a claimed record's header but its length, which publishes it. */
    private void writeRecordHeader(final long at, final int type, final int senderPort, final byte[] senderAddress)
    {
        buffer.set(ValueLayout.JAVA_INT, at + TYPE_OFFSET, type);
        buffer.set(ValueLayout.JAVA_INT, at + PORT_OFFSET, senderPort);
        buffer.set(ValueLayout.JAVA_INT, at + ADDRESS_LENGTH_OFFSET, senderAddress.length);
        MemorySegment.copy(senderAddress, 0, buffer, ValueLayout.JAVA_BYTE, at + ADDRESS_OFFSET, senderAddress.length);
    }

    /** Receives one record: the frame bytes are valid only during the call. */
    interface FrameConsumer
    {
        void onFrame(MemorySegment buffer, long frameOffset, int frameLength, int senderPort, long addressOffset,
            int addressLength);

        /**
         * A shared-pull invitation from the endpoint at {@code senderPort} (of this host); a consumer that copies
         * for nobody leaves it, and the puller copies alone.
         */
        default void onSharedPull(int senderPort, int pullerSession, int slot, int generation)
        {
        }
    }

    /**
     * Deliver up to {@code limit} published frames in order.
     *
     * @return frames delivered.
     */
    int drain(final FrameConsumer consumer, final int limit)
    {
        startConsumer();
        releaseConsumed();
        long head = consumed;
        int delivered = 0;
        while (delivered < limit)
        {
            final long at = head & mask;
            final int recordLength = (int)INT.getVolatile(buffer, at + LENGTH_OFFSET);
            if (recordLength <= 0)
            {
                break;
            }
            final int aligned = align(recordLength);
            try
            {
                if (buffer.get(ValueLayout.JAVA_INT, at + TYPE_OFFSET) == TYPE_FRAME)
                {
                    delivered++;
                    deliveringEnd = head + aligned;
                    final int addressLength = buffer.get(ValueLayout.JAVA_INT, at + ADDRESS_LENGTH_OFFSET);
                    consumer.onFrame(buffer, at + RECORD_HEADER_BYTES, recordLength - RECORD_HEADER_BYTES,
                        buffer.get(ValueLayout.JAVA_INT, at + PORT_OFFSET), at + ADDRESS_OFFSET,
                        Math.min(Math.max(addressLength, 0), 16));
                }
                else if (buffer.get(ValueLayout.JAVA_INT, at + TYPE_OFFSET) == TYPE_SHARED_PULL &&
                    recordLength == RECORD_HEADER_BYTES + SHARED_PULL_BODY_BYTES)
                {
                    deliveringEnd = head + aligned;
                    consumer.onSharedPull(buffer.get(ValueLayout.JAVA_INT, at + PORT_OFFSET),
                        buffer.get(ValueLayout.JAVA_INT, at + RECORD_HEADER_BYTES),
                        buffer.get(ValueLayout.JAVA_INT, at + RECORD_HEADER_BYTES + 4),
                        buffer.get(ValueLayout.JAVA_INT, at + RECORD_HEADER_BYTES + 8));
                }
            }
            finally
            {
                // consumed even if the consumer threw (an application's handler may run inside it): never twice
                head += aligned;
                consumed = head;
                if (consumed - released >= releaseAtBytes)
                {
                    releaseConsumed();
                }
            }
        }
        return delivered;
    }

    /** Consumer, before it parks: true if no record is published; records it consumed are handed back first. */
    boolean isEmpty()
    {
        startConsumer();
        releaseConsumed();
        return (int)INT.getVolatile(buffer, (consumed & mask) + LENGTH_OFFSET) == 0;
    }

    private void startConsumer()
    {
        if (null == zeroes)
        {
            zeroes = MemorySegment.ofArray(new long[capacity / 4 / Long.BYTES]);
            consumed = (long)LONG.getVolatile(control, HEAD_OFFSET);
            released = consumed;
        }
    }

    /** Zeroes the records consumed since the last call and publishes the head past them. */
    private void releaseConsumed()
    {
        if (released == consumed)
        {
            return;
        }
        for (long from = released; from != consumed; )
        {
            final int at = (int)(from & mask);
            final int bytes = (int)Math.min(Math.min(consumed - from, capacity - at), zeroes.byteSize());
            MemorySegment.copy(zeroes, 0, buffer, at, bytes);
            from += bytes;
        }
        released = consumed;
        LONG.setRelease(control, HEAD_OFFSET, consumed);
    }

    /** Producer: the position after the last record claimed so far, by any producer. */
    long written()
    {
        return (long)LONG.getVolatile(control, TAIL_OFFSET);
    }

    /**
     * Producer: the position up to which the endpoint's library has taken frames (from the ring directly or from the
     * driver's event queue they were moved to): a frame below it was read by the library, which may have refused it;
     * one above it waits where nothing can lose it.
     */
    long taken()
    {
        return (long)LONG.getVolatile(control, TAKEN_OFFSET);
    }

    /**
     * Consumer side, its only writer at a time ({@link RingTakenPosition} without a progress thread): sets
     * {@link #taken()} to {@code position}, which is above it.
     */
    void storeTaken(final long position)
    {
        LONG.setRelease(control, TAKEN_OFFSET, position);
    }

    /** Consumer side ({@link RingTakenPosition}, from two threads): raises {@link #taken()} to {@code position}. */
    void publishTaken(final long position)
    {
        long was = (long)LONG.getVolatile(control, TAKEN_OFFSET);
        while (position - was > 0 && !LONG.compareAndSet(control, TAKEN_OFFSET, was, position))
        {
            was = (long)LONG.getVolatile(control, TAKEN_OFFSET);
        }
    }

    /**
     * Consumer, inside {@link FrameConsumer#onFrame} or {@link FrameConsumer#onSharedPull}: the ring position just
     * past the record being delivered.
     */
    long deliveringEnd()
    {
        return deliveringEnd;
    }

    /**
     * Consumer: announce it is about to block, {@link #PARKED} or {@link #PARKED_IN_WAIT} (producers then ring the
     * doorbell), or that it polls again ({@link #NOT_PARKED}). Volatile: pairs with offer.
     */
    void setConsumerParked(final int parked)
    {
        INT.setVolatile(control, PARKED_OFFSET, parked);
    }

    /** Producer, after offer: true if the consumer was parked and this caller must wake it (only one caller does). */
    boolean claimWakeUp()
    {
        final int parked = (int)INT.getVolatile(control, PARKED_OFFSET);
        return parked != NOT_PARKED && INT.compareAndSet(control, PARKED_OFFSET, parked, NOT_PARKED);
    }

    /**
     * Producer, after {@link #offerSharedPull}: true if the consumer is parked in a caller's own wait and this caller
     * must wake it to share the pull (only one caller does).
     */
    boolean claimHelperWakeUp()
    {
        return (int)INT.getVolatile(control, PARKED_OFFSET) == PARKED_IN_WAIT &&
            INT.compareAndSet(control, PARKED_OFFSET, PARKED_IN_WAIT, NOT_PARKED);
    }

    private long claim(final int required)
    {
        while (true)
        {
            final long tail = (long)LONG.getVolatile(control, TAIL_OFFSET);
            final int tailIndex = (int)(tail & mask);
            final int toEnd = capacity - tailIndex;
            final long needed = required <= toEnd ? required : (long)toEnd + required;
            long head = headCache;
            if (capacity - (tail - head) < needed)
            {
                head = (long)LONG.getVolatile(control, HEAD_OFFSET);
                headCache = head;
                if (capacity - (tail - head) < needed)
                {
                    return -1;
                }
            }
            if (required <= toEnd)
            {
                if (LONG.compareAndSet(control, TAIL_OFFSET, tail, tail + required))
                {
                    return tailIndex;
                }
            }
            else if (LONG.compareAndSet(control, TAIL_OFFSET, tail, tail + toEnd + required))
            {
                buffer.set(ValueLayout.JAVA_INT, tailIndex + TYPE_OFFSET, TYPE_PADDING);
                INT.setVolatile(buffer, (long)tailIndex + LENGTH_OFFSET, toEnd);
                return 0;
            }
        }
    }

    private static int align(final int length)
    {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }
}
