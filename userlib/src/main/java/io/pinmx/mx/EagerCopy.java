package io.pinmx.mx;

import java.lang.foreign.MemorySegment;

/**
 * The bytes of a one-frame eager send (TINY or SMALL) held in the send window instead of the request, so the
 * request can complete and be reused as soon as the driver has put the frame where nothing can lose it (a
 * same-host peer's shared-memory ring) while a resend (the receiver held the frame back) still has the data.
 * Pooled by {@link OutboundQueue}; guarded by the endpoint lock.
 */
final class EagerCopy
{
    private final MemorySegment data;
    private MemorySegment payload;
    long matchInfo;
    /** The send still waiting for this frame's ack, or null once it completed. */
    Request request;

    /**
     * @param data where the copied bytes go: at least the largest small send (a slice of its pool's slab).
     */
    EagerCopy(final MemorySegment data)
    {
        this.data = data;
        payload = data.asSlice(0, 0);
    }

    /** Copies the send's match info and bytes. */
    EagerCopy copyOf(final Request r)
    {
        final int length = (int)r.messageLength;
        if (payload.byteSize() != length)
        {
            // A view per length, kept: a run of sends of one size allocates nothing.
            payload = data.asSlice(0, length);
        }
        r.vector.copyOut(payload);
        matchInfo = r.matchInfo;
        return this;
    }

    MemorySegment payload()
    {
        return payload;
    }

    int length()
    {
        return (int)payload.byteSize();
    }
}
