package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackReason;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The consumer side of an endpoint's event ring, read in place in the memory the kernel maps (struct
 * pinmx_ring_ctl, then {@link PinmxAbi#RING_SLOTS} slots of a struct pinmx_event head and the frame or struct
 * pinmx_pull_event). The producer index is read with acquire ordering before a slot, the consumer index written
 * with release ordering after the handler is done with it, as the header prescribes. A received frame is handed
 * to the handler where it lies in the slot: nothing is copied and nothing allocated.
 */
final class KernelEventRing
{
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final ValueLayout.OfInt U32_BE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong U64_UNALIGNED = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt U32_UNALIGNED = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort U16_UNALIGNED = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final long HEAD_BYTES = PinmxAbi.EVENT.byteSize();
    private static final int SLOT_MASK = PinmxAbi.RING_SLOTS - 1;
    private static final String BAD_KEY_TEXT = "the remote region refused the key (none, another one, or a region " +
        "not declared for remote access)";

    private final MemorySegment ring;
    private final PeerRegistry<MacPeer> peers;
    /** The source of the event being filled, as the peer registry looks it up. */
    private final MacPeer.Key sourceKey = new MacPeer.Key();
    private final DriverCounters counters;
    private final DriverEvent event = new DriverEvent();
    /**
     * The thread inside {@link #poll}'s handler, or null. Plain: only that thread's own reads matter, and a stale
     * value seen by another thread is never that thread.
     */
    private Thread delivering;
    /** The entry held for the event being delivered (null when none), released once its handler returned. */
    private MacPeer heldPeer;
    /** Whether the event ends a pull, put or atomic, whose own hold on the peer is released with it. */
    private boolean endsOperation;

    /**
     * @param ring     the PINMX_RING_BYTES mapping.
     * @param peers    the endpoint's peers; a frame from a new MAC adds it, and each event holds its entry.
     * @param counters the endpoint's counters (frames received per kind, pulls done/failed, pull bytes).
     */
    KernelEventRing(final MemorySegment ring, final PeerRegistry<MacPeer> peers, final DriverCounters counters)
    {
        this.ring = ring;
        this.peers = peers;
        this.counters = counters;
    }

    /** @return true when the calling thread is inside an event handler of {@link #poll}. */
    boolean isDelivering()
    {
        return delivering == Thread.currentThread();
    }

    /** @return true when the kernel has produced events not consumed yet. */
    boolean hasEvents()
    {
        return (int)INT.getAcquire(ring, PinmxAbi.RING_CTL_PRODUCER) != ring.get(ValueLayout.JAVA_INT,
            PinmxAbi.RING_CTL_CONSUMER);
    }

    /**
     * Deliver up to {@code limit} events; the consumer index moves past each slot once its handler returned.
     *
     * @return events delivered.
     */
    int poll(final EventHandler handler, final int limit)
    {
        int consumer = ring.get(ValueLayout.JAVA_INT, PinmxAbi.RING_CTL_CONSUMER);
        final int producer = (int)INT.getAcquire(ring, PinmxAbi.RING_CTL_PRODUCER);
        int delivered = 0;
        while (consumer != producer && delivered < limit)
        {
            final long slot = PinmxAbi.RING_CTL_BYTES + (long)(consumer & SLOT_MASK) * PinmxAbi.RING_SLOT_BYTES;
            try
            {
                if (fill(slot))
                {
                    delivered++;
                    delivering = Thread.currentThread();
                    handler.onEvent(event);
                }
            }
            finally
            {
                delivering = null;
                releasePeer();
                consumer++;
                INT.setRelease(ring, PinmxAbi.RING_CTL_CONSUMER, consumer);
            }
        }
        return delivered;
    }

    private void releasePeer()
    {
        final MacPeer peer = heldPeer;
        if (null != peer)
        {
            heldPeer = null;
            peers.releaseHold(peer);
            if (endsOperation)
            {
                endsOperation = false;
                peers.releaseHold(peer);
            }
        }
    }

    /** @return true when the slot became an event; false when it was dropped (counted). */
    private boolean fill(final long slot)
    {
        final int type = ring.get(ValueLayout.JAVA_INT, slot + PinmxAbi.EVENT_TYPE);
        final MacPeer source = peers.holdSource(sourceKey.set(sourceMac(slot)));
        if (null == source)
        {
            counters.increment(Counter.DROPPED_PEER_TABLE_FULL);
            return false;
        }
        heldPeer = source;
        final int peer = source.index();
        if (type == PinmxAbi.EVENT_FRAME)
        {
            return fillFrame(slot, peer);
        }
        final long body = slot + HEAD_BYTES;
        if (type == PinmxAbi.EVENT_PUT_DONE || type == PinmxAbi.EVENT_PUT_FAILED)
        {
            endsOperation = true;
            return fillPutEnd(type, body, peer);
        }
        if (type == PinmxAbi.EVENT_ATOMIC_DONE || type == PinmxAbi.EVENT_ATOMIC_FAILED)
        {
            endsOperation = true;
            return fillAtomicEnd(type, body, peer);
        }
        endsOperation = type == PinmxAbi.EVENT_PULL_FAILED || type == PinmxAbi.EVENT_PULL_DONE;
        final int handle = ring.get(U32_UNALIGNED, body + PinmxAbi.PULL_EVENT_HANDLE);
        final long bytes = ring.get(U64_UNALIGNED, body + PinmxAbi.PULL_EVENT_BYTES);
        final int status = ring.get(U32_UNALIGNED, body + PinmxAbi.PULL_EVENT_STATUS);
        if (type == PinmxAbi.EVENT_PULL_DONE && status == PinmxAbi.PULL_OK)
        {
            counters.increment(Counter.PULLS_DONE);
            counters.add(Counter.PULL_BYTES, bytes);
            event.pullDone(peer, handle, bytes);
            return true;
        }
        if (type == PinmxAbi.EVENT_PULL_FAILED || type == PinmxAbi.EVENT_PULL_DONE)
        {
            counters.increment(Counter.PULLS_FAILED);
            counters.add(Counter.PULL_BYTES, bytes);
            event.pullFailed(peer, handle, bytes, errorOf(status, body), describeFailure("pull", status, body, peer,
                handle));
            return true;
        }
        counters.increment(Counter.DROPPED_UNKNOWN_KIND);
        return false;
    }

    /** A put's end carries a struct pinmx_pull_event. */
    private boolean fillPutEnd(final int type, final long body, final int peer)
    {
        final int handle = ring.get(U32_UNALIGNED, body + PinmxAbi.PULL_EVENT_HANDLE);
        final long bytes = ring.get(U64_UNALIGNED, body + PinmxAbi.PULL_EVENT_BYTES);
        final int status = ring.get(U32_UNALIGNED, body + PinmxAbi.PULL_EVENT_STATUS);
        if (type == PinmxAbi.EVENT_PUT_DONE && status == PinmxAbi.PULL_OK)
        {
            event.putDone(peer, handle, bytes);
        }
        else
        {
            event.putFailed(peer, handle, bytes, errorOf(status, body), describeFailure("put", status, body, peer,
                handle));
        }
        return true;
    }

    /**
     * An atomic's end carries a struct pinmx_atomic_event, whose error and NACK reason lie where a pull event's do
     * ({@code PinmxAbiTest} checks both layouts), so {@link #errorOf} reads either.
     */
    private boolean fillAtomicEnd(final int type, final long body, final int peer)
    {
        final int handle = ring.get(U32_UNALIGNED, body + PinmxAbi.ATOMIC_EVENT_HANDLE);
        final int status = ring.get(U32_UNALIGNED, body + PinmxAbi.ATOMIC_EVENT_STATUS);
        if (type == PinmxAbi.EVENT_ATOMIC_DONE && status == PinmxAbi.PULL_OK)
        {
            event.atomicDone(peer, handle, ring.get(U64_UNALIGNED, body + PinmxAbi.ATOMIC_EVENT_OLD));
        }
        else
        {
            event.atomicFailed(peer, handle, errorOf(status, body), describeAtomicFailure(status, body, peer, handle));
        }
        return true;
    }

    private boolean fillFrame(final long slot, final int peer)
    {
        final int frameBytes = ring.get(ValueLayout.JAVA_INT, slot + PinmxAbi.EVENT_FRAME_LEN);
        final long frame = slot + HEAD_BYTES;
        final FrameKind kind = FrameKind.fromCode(ring.get(ValueLayout.JAVA_BYTE, frame) & 0xFF);
        final EventType type = null == kind ? null : EventType.received(kind);
        if (null == type || frameBytes < FrameFlyweight.HEADER_BYTES)
        {
            counters.increment(Counter.DROPPED_UNKNOWN_KIND);
            return false;
        }
        // The slot's length includes Ethernet padding; the frame's own length comes from its header.
        final long length = kind.headerBytes() +
            (ring.get(U32_BE, frame + FrameFlyweight.PAYLOAD_LENGTH_OFFSET) & 0xFFFF_FFFFL);
        if (length > frameBytes)
        {
            counters.increment(Counter.DROPPED_BAD_LENGTH);
            return false;
        }
        counters.increment(Counter.received(kind));
        event.received(type, peer, ring, frame, (int)length);
        return true;
    }

    private long sourceMac(final long slot)
    {
        long mac = 0;
        for (int i = 0; i < 6; i++)
        {
            mac = mac << 8 | (ring.get(ValueLayout.JAVA_BYTE, slot + PinmxAbi.EVENT_SRC_MAC + i) & 0xFF);
        }
        return mac;
    }

    private DriverError errorOf(final int status, final long body)
    {
        return switch (status)
        {
            case PinmxAbi.PULL_SEGMENT_FAULT -> DriverError.SEGMENT_FAULT;
            case PinmxAbi.PULL_UNKNOWN_REGION -> DriverError.UNKNOWN_REGION;
            case PinmxAbi.PULL_OUT_OF_RANGE -> DriverError.OUT_OF_RANGE;
            case PinmxAbi.PULL_TIMEOUT -> DriverError.TIMEOUT;
            case PinmxAbi.PULL_NO_RESOURCES -> DriverError.NO_RESOURCES;
            case PinmxAbi.PULL_BAD_KEY -> DriverError.BAD_KEY;
            default ->
            {
                final int nack = ring.get(ValueLayout.JAVA_BYTE, body + PinmxAbi.PULL_EVENT_NACK_REASON) & 0xFF;
                final int errno = ring.get(U32_UNALIGNED, body + PinmxAbi.PULL_EVENT_ERROR);
                yield nack == NackReason.BAD_ENDPOINT.code() || nack == NackReason.BAD_SESSION.code() ?
                    DriverError.PEER_UNREACHABLE : errno == Errno.EBADF ? DriverError.ENDPOINT_CLOSED : DriverError.SYSTEM;
            }
        };
    }

    /** Failure path only: builds the message naming side, segment, address, errno and NACK reason. */
    private String describeFailure(
        final String operation, final int status, final long body, final int peer, final int handle)
    {
        final boolean local = ring.get(ValueLayout.JAVA_BYTE, body + PinmxAbi.PULL_EVENT_LOCAL) != 0;
        final int segment = ring.get(U16_UNALIGNED, body + PinmxAbi.PULL_EVENT_SEGMENT) & 0xFFFF;
        final long address = ring.get(U64_UNALIGNED, body + PinmxAbi.PULL_EVENT_ADDRESS);
        final int errno = ring.get(U32_UNALIGNED, body + PinmxAbi.PULL_EVENT_ERROR);
        final int nack = ring.get(ValueLayout.JAVA_BYTE, body + PinmxAbi.PULL_EVENT_NACK_REASON) & 0xFF;
        final String side = local ? "local region" : "remote region";
        final StringBuilder text = new StringBuilder(operation).append(' ').append(handle)
            .append(" with ").append(peers.entry(peer).board()).append(": ");
        switch (status)
        {
            case PinmxAbi.PULL_SEGMENT_FAULT -> text.append(side).append(" segment ").append(segment).append(" at 0x")
                .append(Long.toHexString(address)).append(": not pinnable");
            case PinmxAbi.PULL_UNKNOWN_REGION -> text.append(local ? "the local region was destroyed" :
                "the remote region id is unknown to the peer");
            case PinmxAbi.PULL_OUT_OF_RANGE -> text.append("remote offset ").append(address)
                .append(" is past the end of the remote region");
            case PinmxAbi.PULL_TIMEOUT -> text.append("a block stayed incomplete after the last resend");
            case PinmxAbi.PULL_NO_RESOURCES -> text.append("the peer refused the request's shape (its reply limit ")
                .append(address).append(" bytes)");
            case PinmxAbi.PULL_BAD_KEY -> text.append(BAD_KEY_TEXT);
            default -> text.append("failed (status ").append(status).append(')');
        }
        appendCauses(text, nack, errno);
        return text.toString();
    }

    /** Failure path only. */
    private String describeAtomicFailure(final int status, final long body, final int peer, final int handle)
    {
        final long address = ring.get(U64_UNALIGNED, body + PinmxAbi.ATOMIC_EVENT_ADDRESS);
        final int errno = ring.get(U32_UNALIGNED, body + PinmxAbi.ATOMIC_EVENT_ERROR);
        final int nack = ring.get(ValueLayout.JAVA_BYTE, body + PinmxAbi.ATOMIC_EVENT_NACK_REASON) & 0xFF;
        final StringBuilder text = new StringBuilder("atomic ").append(handle).append(" on ")
            .append(peers.entry(peer).board()).append(": ");
        switch (status)
        {
            case PinmxAbi.PULL_SEGMENT_FAULT -> text.append("the page at remote region offset ").append(address)
                .append(" cannot be pinned");
            case PinmxAbi.PULL_UNKNOWN_REGION -> text.append("the remote region id is unknown to the peer");
            case PinmxAbi.PULL_OUT_OF_RANGE -> text.append("remote offset ").append(address)
                .append(" is past the end of the remote region");
            case PinmxAbi.PULL_TIMEOUT -> text.append("no answer after the last resend");
            case PinmxAbi.PULL_NO_RESOURCES -> text.append("the word is not naturally aligned in the target's memory");
            case PinmxAbi.PULL_BAD_KEY -> text.append(BAD_KEY_TEXT);
            default -> text.append("failed (status ").append(status).append(')');
        }
        appendCauses(text, nack, errno);
        return text.toString();
    }

    private static void appendCauses(final StringBuilder text, final int nack, final int errno)
    {
        if (nack != 0)
        {
            final NackReason reason = NackReason.fromCode(nack);
            text.append("; NACK ").append(null == reason ? "code " + nack : reason.name());
        }
        if (errno != 0)
        {
            text.append("; ").append(Errno.describe(errno));
        }
    }
}
