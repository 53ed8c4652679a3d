package io.pinmx.pin.user;

import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.PutFrame;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A UDP relay between an origin and a target endpoint on loopback (each sees the other at the relay's port) that
 * answers for the target the way pinmx.ko answers for a region held back by an access epoch: while {@link State#HOLDING}
 * every PUT and ATOMIC from the origin is answered NACK HELD (addressed and encoded as the target would, the refused
 * frame's handle in it) and not passed on; while {@link State#SILENT} it passes nothing either way, a target gone
 * quiet. Everything else, and everything while {@link State#PASSING}, crosses unchanged.
 */
final class HoldingRelay implements AutoCloseable
{
    /** What the relay does with the origin's PUT and ATOMIC frames. */
    enum State
    {
        PASSING,
        HOLDING,
        SILENT
    }

    private final DatagramChannel channel;
    private final InetSocketAddress origin;
    private final InetSocketAddress target;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment nackFrame = arena.allocate(FrameKind.NACK.headerBytes(), 8);
    private final ByteBuffer nackBuffer = nackFrame.asByteBuffer();
    private final FrameChecksum checksum = new FrameChecksum();
    private final FrameFlyweight header = new FrameFlyweight();
    private final PutFrame handleWord = new PutFrame();
    private final NackFrame nack = new NackFrame();
    private final AtomicInteger heldNacks = new AtomicInteger();
    private final Thread thread;
    private volatile State state = State.PASSING;

    HoldingRelay(final InetSocketAddress origin, final InetSocketAddress target) throws IOException
    {
        this.origin = origin;
        this.target = target;
        channel = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        thread = Thread.ofPlatform().daemon().name("holding-relay").start(this::run);
    }

    /** Where each endpoint sends to reach the other. */
    int port()
    {
        return channel.socket().getLocalPort();
    }

    void state(final State state)
    {
        this.state = state;
    }

    /** NACK HELDs sent to the origin so far. */
    int heldNacks()
    {
        return heldNacks.get();
    }

    private void run()
    {
        final ByteBuffer datagram = ByteBuffer.allocateDirect(64 * 1024);
        final MemorySegment received = MemorySegment.ofBuffer(datagram);
        try
        {
            while (true)
            {
                final InetSocketAddress from = (InetSocketAddress)channel.receive(datagram.clear());
                datagram.flip();
                final State now = state;
                if (now == State.SILENT || datagram.remaining() < FrameFlyweight.HEADER_BYTES)
                {
                    continue;
                }
                final FrameKind kind = header.wrap(received, 0).kind();
                if (from.equals(origin) && now == State.HOLDING && (kind == FrameKind.PUT || kind == FrameKind.ATOMIC))
                {
                    answerHeld(received, kind);
                }
                else if (from.equals(origin) || from.equals(target))
                {
                    channel.send(datagram, from.equals(origin) ? target : origin);
                }
            }
        }
        catch (final ClosedChannelException e)
        {
            // closed by the test: the relay ends
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("relay between " + origin + " and " + target + ": " + e.getMessage(), e);
        }
    }

    private void answerHeld(final MemorySegment refused, final FrameKind kind) throws IOException
    {
        // a PUT's put handle and an ATOMIC's request seq are the kind part's first word
        final int refusedHandle = handleWord.wrap(refused, 0).putHandle();
        nack.wrap(nackFrame, 0).encodeHeader(FrameKind.NACK, header.srcEndpoint(), header.dstEndpoint(),
            header.srcSession(), header.dstSession(), 0, 0);
        nack.encode(NackReason.HELD, kind, header.seq(), refusedHandle, 0, 0, 0, 0);
        checksum.stamp(nackFrame.address(), FrameKind.NACK.headerBytes());
        channel.send(nackBuffer.clear(), origin);
        heldNacks.incrementAndGet();
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
        try
        {
            thread.join(10_000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        arena.close();
    }
}
