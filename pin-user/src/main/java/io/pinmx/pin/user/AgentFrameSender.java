package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.wire.FrameKind;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

/**
 * Sends the frames the agent writes itself (PULL, PULL_REPLY, NACK, the one-sided frames and their answers) over UDP,
 * or into a same-host peer's shared-memory ring, and counts them. These are never reported to the application: a
 * frame not sent (a full ring included) is a loss that its sender's resend timer recovers.
 */
final class AgentFrameSender
{
    private final UdpTransport udp;
    private final DriverCounters counters;
    /** This endpoint's address as ring records name their sender. */
    private final byte[] hostBytes;

    AgentFrameSender(final UdpTransport udp, final DriverCounters counters, final byte[] hostBytes)
    {
        this.udp = udp;
        this.counters = counters;
        this.hostBytes = hostBytes;
    }

    /**
     * A frame into a same-host peer endpoint's ring, ringing its doorbell at {@code to} when its agent is parked.
     *
     * @return whether the frame went in; a full ring is counted as {@link Counter#SHM_RING_FULL_WAITS} and the frame
     *         waits for its resend.
     */
    boolean sendShm(
        final EndpointFile peerFile, final MemorySegment header, final MemorySegment payload, final long payloadOffset,
        final int payloadBytes, final InetSocketAddress to, final FrameKind kind)
    {
        final ShmFrameRing ring = peerFile.ring();
        final MemorySegment body = payloadBytes == 0 ? MemorySegment.NULL : payload.asSlice(payloadOffset, payloadBytes);
        if (!ring.offer(header, body, udp.port(), hostBytes))
        {
            counters.increment(Counter.SHM_RING_FULL_WAITS);
            return false;
        }
        counters.increment(Counter.SHM_FRAMES_SENT);
        counters.increment(Counter.sent(kind));
        if (ring.claimWakeUp())
        {
            ringDoorbell(to);
        }
        return true;
    }

    /**
     * Wake a same-host peer endpoint parked at {@code to} for what this agent put in its ring. A doorbell that cannot
     * go out leaves the peer parked: the record waits for its next wake-up or poll (a frame's sender resends it; an
     * invitation to share a pull is optional, the puller copies whatever the peer does not).
     */
    void ringDoorbell(final InetSocketAddress to)
    {
        try
        {
            udp.sendDoorbell(to);
            counters.increment(Counter.DOORBELLS_SENT);
        }
        catch (final IOException e)
        {
            // left to the peer's next wake-up or poll, as above
        }
    }

    /** @return whether the frame went out. */
    boolean send(
        final MemorySegment header, final MemorySegment payload, final long payloadOffset, final int payloadBytes,
        final InetSocketAddress to, final FrameKind kind)
    {
        try
        {
            final int status = udp.send(header, payload, payloadOffset, payloadBytes, to);
            if (status == UdpTransport.SENT)
            {
                counters.increment(Counter.sent(kind));
                if (kind == FrameKind.PULL_REPLY)
                {
                    counters.increment(Counter.PULL_REPLY_FRAMES_SENT);
                }
                return true;
            }
            if (status == UdpTransport.LOSS_INJECTED)
            {
                counters.increment(Counter.DROPPED_LOSS_INJECTED_TX);
            }
            return false;
        }
        catch (final IOException e)
        {
            // UDP send errors (ICMP unreachable reported late, buffer full) are losses: resend timers recover them.
            return false;
        }
    }

    /**
     * A served block's PULL_REPLY frames ({@link UdpTransport#sendSegments}).
     *
     * @return false if a send met a page that is not mapped (the frames from it on were not sent).
     */
    boolean sendReplies(final FrameIovecs frames, final int segmentBytes, final InetSocketAddress to)
    {
        try
        {
            final int sent = udp.sendSegments(frames, segmentBytes, to);
            counters.add(Counter.sent(FrameKind.PULL_REPLY), sent);
            counters.add(Counter.PULL_REPLY_FRAMES_SENT, sent);
            counters.add(Counter.DROPPED_LOSS_INJECTED_TX, udp.injectedLosses());
            counters.add(Counter.OFFLOADED_SENDS, udp.offloadedSends());
            return !udp.faulted();
        }
        catch (final IOException e)
        {
            // as above: frames not sent are recovered by the puller's resend
            return true;
        }
    }
}
