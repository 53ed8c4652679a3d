package io.pinmx.pin.spi;

import java.lang.foreign.MemorySegment;

/**
 * One event, as a mutable flyweight a provider fills and reuses: valid only during
 * {@link EventHandler#onEvent(DriverEvent)}. A receive event points at the whole received frame
 * (common header, kind part and payload) inside the provider's buffer; decode it in place with
 * the {@link io.pinmx.pin.wire} flyweights at {@link #buffer()} and {@link #frameOffset()}.
 * The fill methods are for providers only.
 */
public final class DriverEvent
{
    private EventType type;
    private int peerIndex = -1;
    private MemorySegment buffer = MemorySegment.NULL;
    private long frameOffset;
    private int frameLength;
    private boolean lossless;
    private int pullHandle;
    private long bytes;
    private long oldValue;
    private DriverError error;
    private CharSequence errorMessage = "";

    /**
     * @return what happened.
     */
    public EventType type()
    {
        return type;
    }

    /**
     * @return index of the peer board concerned, or -1 when none.
     */
    public int peerIndex()
    {
        return peerIndex;
    }

    /**
     * @return the buffer holding a received frame; {@link MemorySegment#NULL} for other events.
     */
    public MemorySegment buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the received frame in {@link #buffer()}.
     */
    public long frameOffset()
    {
        return frameOffset;
    }

    /**
     * @return length in bytes of the received frame (header, kind part and payload).
     */
    public int frameLength()
    {
        return frameLength;
    }

    /**
     * @return true when the received frame came through a queue that cannot lose it (the user driver's same-host
     * shared-memory ring), where {@link DriverEndpoint#send} returned true for it: its sender needs no prompt ack.
     */
    public boolean lossless()
    {
        return lossless;
    }

    /**
     * Slice of the received frame. Allocates a segment view; hot paths wrap
     * {@link #buffer()} at {@link #frameOffset()} instead.
     *
     * @return the frame, or an empty segment for events without one.
     */
    public MemorySegment frame()
    {
        return buffer.equals(MemorySegment.NULL) ? MemorySegment.NULL : buffer.asSlice(frameOffset, frameLength);
    }

    /**
     * @return the caller's 32-bit handle for the end of a pull, put or atomic.
     */
    public int pullHandle()
    {
        return pullHandle;
    }

    /**
     * @return bytes moved: pulled bytes for pull events, sent bytes for SEND_DONE, frame length
     * for receives.
     */
    public long bytes()
    {
        return bytes;
    }

    /**
     * @return ATOMIC_DONE: the word's value before the operation (0 for ACCUMULATE; zero-extended for a 4-byte word);
     *         0 for other events.
     */
    public long oldValue()
    {
        return oldValue;
    }

    /**
     * @return why a pull, put or atomic failed, or null for other events.
     */
    public DriverError error()
    {
        return error;
    }

    /**
     * @return message naming the cause of a failure (region, segment, address, errno); empty
     * otherwise. Valid only during the call, like the event.
     */
    public CharSequence errorMessage()
    {
        return errorMessage;
    }

    /**
     * Provider use: fill as a receive event.
     *
     * @param type        a RECV_ type.
     * @param peerIndex   sending board.
     * @param buffer      buffer holding the frame.
     * @param frameOffset offset of the frame in the buffer.
     * @param frameLength length of the frame.
     * @return this.
     */
    public DriverEvent received(
        final EventType type, final int peerIndex, final MemorySegment buffer, final long frameOffset, final int frameLength)
    {
        return received(type, peerIndex, buffer, frameOffset, frameLength, false);
    }

    /**
     * Provider use: fill as a receive event, saying whether the frame came through a queue that cannot lose it.
     *
     * @param lossless see {@link #lossless()}.
     * @return this.
     */
    public DriverEvent received(
        final EventType type, final int peerIndex, final MemorySegment buffer, final long frameOffset, final int frameLength,
        final boolean lossless)
    {
        set(type, peerIndex, 0, frameLength, null, "");
        this.buffer = buffer;
        this.frameOffset = frameOffset;
        this.frameLength = frameLength;
        this.lossless = lossless;
        return this;
    }

    /**
     * Provider use: fill as PULL_DONE.
     *
     * @param peerIndex  peer pulled from.
     * @param pullHandle the caller's handle.
     * @param bytes      bytes pulled.
     * @return this.
     */
    public DriverEvent pullDone(final int peerIndex, final int pullHandle, final long bytes)
    {
        return set(EventType.PULL_DONE, peerIndex, pullHandle, bytes, null, "");
    }

    /**
     * Provider use: fill as PULL_FAILED.
     *
     * @param peerIndex  peer pulled from.
     * @param pullHandle the caller's handle.
     * @param bytes      bytes that had arrived before the failure.
     * @param error      classification.
     * @param message    cause, naming region, segment, address, errno.
     * @return this.
     */
    public DriverEvent pullFailed(
        final int peerIndex, final int pullHandle, final long bytes, final DriverError error, final CharSequence message)
    {
        return set(EventType.PULL_FAILED, peerIndex, pullHandle, bytes, error, message);
    }

    /**
     * Provider use: fill as PUT_DONE.
     *
     * @param peerIndex peer written to.
     * @param handle    the caller's handle.
     * @param bytes     bytes written.
     * @return this.
     */
    public DriverEvent putDone(final int peerIndex, final int handle, final long bytes)
    {
        return set(EventType.PUT_DONE, peerIndex, handle, bytes, null, "");
    }

    /**
     * Provider use: fill as PUT_FAILED.
     *
     * @param message cause, naming region, offset, key refusal, errno.
     * @return this.
     */
    public DriverEvent putFailed(
        final int peerIndex, final int handle, final long bytes, final DriverError error, final CharSequence message)
    {
        return set(EventType.PUT_FAILED, peerIndex, handle, bytes, error, message);
    }

    /**
     * Provider use: fill as ATOMIC_DONE.
     *
     * @param oldValue the word's value before the operation.
     * @return this.
     */
    public DriverEvent atomicDone(final int peerIndex, final int handle, final long oldValue)
    {
        set(EventType.ATOMIC_DONE, peerIndex, handle, 0, null, "");
        this.oldValue = oldValue;
        return this;
    }

    /**
     * Provider use: fill as ATOMIC_FAILED.
     *
     * @return this.
     */
    public DriverEvent atomicFailed(
        final int peerIndex, final int handle, final DriverError error, final CharSequence message)
    {
        return set(EventType.ATOMIC_FAILED, peerIndex, handle, 0, error, message);
    }

    /**
     * Provider use: fill as SEND_DONE.
     *
     * @param peerIndex peer sent to.
     * @param bytes     bytes sent.
     * @return this.
     */
    public DriverEvent sendDone(final int peerIndex, final long bytes)
    {
        return set(EventType.SEND_DONE, peerIndex, 0, bytes, null, "");
    }

    private DriverEvent set(
        final EventType type,
        final int peerIndex,
        final int pullHandle,
        final long bytes,
        final DriverError error,
        final CharSequence errorMessage)
    {
        this.type = type;
        this.peerIndex = peerIndex;
        this.pullHandle = pullHandle;
        this.bytes = bytes;
        this.oldValue = 0;
        this.error = error;
        this.errorMessage = errorMessage;
        this.buffer = MemorySegment.NULL;
        this.frameOffset = 0;
        this.frameLength = 0;
        this.lossless = false;
        return this;
    }

    @Override
    public String toString()
    {
        return "DriverEvent{" + type + ", peer=" + peerIndex + ", handle=" + pullHandle + ", bytes=" + bytes +
            (null != error ? ", error=" + error + ": " + errorMessage : "") + "}";
    }
}
