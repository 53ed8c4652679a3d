package io.pinmx.pin.user;

import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.EventType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Single-producer single-consumer queue of driver events in native memory, between the duty cycle (the producer:
 * the progress thread, or whoever holds the agent's owner lock) and {@code poll} (the consumer, under the owner
 * lock). A received frame is copied in once and handed to the application in place as the event's buffer.
 * <p>
 * Record: length (int), event type (int), peer (int), pull handle (int; for a received frame 1 when it came
 * through the lossless shared-memory ring), bytes (long; an ATOMIC_DONE's old value; for a frame from the ring its
 * end position there, published as taken once its handler ran), error kind + 1 (int, 0 = none), message slot (int),
 * then the frame; 8-byte aligned; a record with type -1 pads to the end of the ring.
 * Failure messages are rare and live in a small String ring beside it.
 */
final class EventRing
{
    private static final int HEADER_BYTES = 32;
    private static final int PADDING = -1;
    private static final int MESSAGE_SLOTS = 1024;
    private static final long COMPLETION_RESERVE_BYTES =
        (long)(PullSlots.MAX_PULLS + RemoteOps.MAX_OPS) * HEADER_BYTES;
    private static final EventType[] TYPES = EventType.values();
    private static final DriverError[] ERRORS = DriverError.values();

    private final MemorySegment buffer;
    private final int capacity;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();
    private final String[] messages = new String[MESSAGE_SLOTS];
    private final DriverEvent event = new DriverEvent();
    private final PeerRegistry<UdpPeer> peers;
    /** Where frames from this endpoint's shared-memory ring are published as taken; null without that ring. */
    private final RingTakenPosition ringTaken;
    private int nextMessageSlot;

    /**
     * @param peers whose holds the delivered events release: every event with a peer holds that peer's entry from
     *              the moment it is queued until its handler returns.
     * @param ringTaken where frames from this endpoint's shared-memory ring are published as taken, or null without
     *                  the same-host path.
     */
    EventRing(
        final Arena arena, final int capacity, final PeerRegistry<UdpPeer> peers, final RingTakenPosition ringTaken)
    {
        this.peers = peers;
        this.ringTaken = ringTaken;
        if (Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("event ring capacity must be a power of two: " + capacity);
        }
        this.capacity = capacity;
        this.buffer = arena.allocate(capacity, 64);
    }

    /**
     * Producer: how many received frames of up to {@code frameBytes} can be queued now, keeping room for one
     * wrap-around pad and for a completion of every pull, put and atomic slot, so a completion is never refused.
     */
    int framesThatFit(final int frameBytes)
    {
        final long free = capacity - (tail.getPlain() - head.getAcquire()) - COMPLETION_RESERVE_BYTES;
        return (int)Math.max(0, free / align(HEADER_BYTES + frameBytes) - 1);
    }

    /**
     * Producer: a received frame.
     *
     * @param ringEnd where the frame ends in this endpoint's shared-memory ring, or -1 when it came by UDP.
     * @return false if full (the agent stops taking input until poll drains).
     */
    boolean offerReceived(
        final EventType type, final int peer, final MemorySegment frameBuffer, final long offset, final int length,
        final long ringEnd)
    {
        final long at = claim(HEADER_BYTES + length);
        if (at < 0)
        {
            return false;
        }
        MemorySegment.copy(frameBuffer, offset, buffer, at + HEADER_BYTES, length);
        return commit(at, HEADER_BYTES + length, type, peer, ringEnd >= 0 ? 1 : 0, ringEnd, null, -1);
    }

    /** Producer: a completion. */
    boolean offerCompletion(
        final EventType type, final int peer, final int handle, final long bytes, final DriverError error,
        final String message)
    {
        final long at = claim(HEADER_BYTES);
        if (at < 0)
        {
            return false;
        }
        int slot = -1;
        if (message != null)
        {
            slot = nextMessageSlot;
            nextMessageSlot = (nextMessageSlot + 1) & (MESSAGE_SLOTS - 1);
            messages[slot] = message;
        }
        return commit(at, HEADER_BYTES, type, peer, handle, bytes, error, slot);
    }

    boolean isEmpty()
    {
        return head.get() == tail.get();
    }

    /** Consumer: deliver up to {@code limit} events. */
    int poll(final EventHandler handler, final int limit)
    {
        long h = head.getPlain();
        final long t = tail.getAcquire();
        int delivered = 0;
        while (h < t && delivered < limit)
        {
            final int at = (int)(h & (capacity - 1));
            final int length = buffer.get(ValueLayout.JAVA_INT, at);
            final int typeCode = buffer.get(ValueLayout.JAVA_INT, at + 4);
            if (typeCode != PADDING)
            {
                final int peer = buffer.get(ValueLayout.JAVA_INT, at + 8);
                final int handle = buffer.get(ValueLayout.JAVA_INT, at + 12);
                final long bytes = buffer.get(ValueLayout.JAVA_LONG, at + 16);
                final int errorCode = buffer.get(ValueLayout.JAVA_INT, at + 24);
                final int messageSlot = buffer.get(ValueLayout.JAVA_INT, at + 28);
                final EventType type = TYPES[typeCode];
                long ringEnd = -1;
                if (type == EventType.PULL_DONE)
                {
                    event.pullDone(peer, handle, bytes);
                }
                else if (type == EventType.PULL_FAILED)
                {
                    event.pullFailed(peer, handle, bytes, ERRORS[errorCode - 1],
                        messageSlot >= 0 ? messages[messageSlot] : "");
                }
                else if (type == EventType.PUT_DONE)
                {
                    event.putDone(peer, handle, bytes);
                }
                else if (type == EventType.PUT_FAILED)
                {
                    event.putFailed(peer, handle, bytes, ERRORS[errorCode - 1],
                        messageSlot >= 0 ? messages[messageSlot] : "");
                }
                else if (type == EventType.ATOMIC_DONE)
                {
                    event.atomicDone(peer, handle, bytes);
                }
                else if (type == EventType.ATOMIC_FAILED)
                {
                    event.atomicFailed(peer, handle, ERRORS[errorCode - 1],
                        messageSlot >= 0 ? messages[messageSlot] : "");
                }
                else if (type == EventType.SEND_DONE)
                {
                    event.sendDone(peer, bytes);
                }
                else
                {
                    event.received(type, peer, buffer, at + HEADER_BYTES, length - HEADER_BYTES, handle == 1);
                    ringEnd = handle == 1 && null != ringTaken ? bytes : -1;
                }
                delivered++;
                try
                {
                    handler.onEvent(event);
                }
                finally
                {
                    if (ringEnd >= 0)
                    {
                        ringTaken.taken(ringEnd);
                    }
                    peers.releaseHold(peer);
                    h += align(length);
                    head.setRelease(h);
                }
            }
            else
            {
                h += align(length);
                head.setRelease(h);
            }
        }
        return delivered;
    }

    private long claim(final int length)
    {
        final int required = align(length);
        final long t = tail.getPlain();
        final long free = capacity - (t - head.getAcquire());
        final int at = (int)(t & (capacity - 1));
        final int toEnd = capacity - at;
        if (required <= toEnd)
        {
            return required <= free ? at : -1;
        }
        if (toEnd + required > free)
        {
            return -1;
        }
        buffer.set(ValueLayout.JAVA_INT, at, toEnd);
        buffer.set(ValueLayout.JAVA_INT, at + 4, PADDING);
        tail.setPlain(t + toEnd);
        return 0;
    }

    private boolean commit(
        final long at, final int length, final EventType type, final int peer, final int handle, final long bytes,
        final DriverError error, final int messageSlot)
    {
        buffer.set(ValueLayout.JAVA_INT, at, length);
        buffer.set(ValueLayout.JAVA_INT, at + 4, type.ordinal());
        buffer.set(ValueLayout.JAVA_INT, at + 8, peer);
        buffer.set(ValueLayout.JAVA_INT, at + 12, handle);
        buffer.set(ValueLayout.JAVA_LONG, at + 16, bytes);
        buffer.set(ValueLayout.JAVA_INT, at + 24, error == null ? 0 : error.ordinal() + 1);
        buffer.set(ValueLayout.JAVA_INT, at + 28, messageSlot);
        tail.set(tail.getPlain() + align(length));
        return true;
    }

    private static int align(final int length)
    {
        return (length + 7) & -8;
    }
}
