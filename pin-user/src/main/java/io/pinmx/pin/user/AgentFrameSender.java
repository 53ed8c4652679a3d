package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.wire.FrameKind;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

/**
 * Sends the frames the agent writes itself (PULL, PULL_REPLY, NACK) over UDP and counts them. These are never
 * reported to the application: a frame not sent is a loss that the puller's resend timer recovers.
 */
final class AgentFrameSender
{
    private final UdpTransport udp;
    private final DriverCounters counters;

    AgentFrameSender(final UdpTransport udp, final DriverCounters counters)
    {
        this.udp = udp;
        this.counters = counters;
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
