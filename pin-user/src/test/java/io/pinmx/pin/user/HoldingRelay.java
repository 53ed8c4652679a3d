package io.pinmx.pin.user;

import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.PutFrame;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link UdpRelay} between an origin and a target endpoint that answers for the target the way pinmx.ko answers for
 * a region held back by an access epoch: while {@link State#HOLDING} every PUT and ATOMIC from the origin is answered
 * NACK HELD (addressed and encoded as the target would, the refused frame's handle in it) and not passed on; while
 * {@link State#SILENT} it passes nothing either way, a target gone quiet. Everything else, and everything while
 * {@link State#PASSING}, crosses unchanged.
 */
final class HoldingRelay extends UdpRelay
{
    /** What the relay does with the origin's PUT and ATOMIC frames. */
    enum State
    {
        PASSING,
        HOLDING,
        SILENT
    }

    private final InetSocketAddress origin;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment nackFrame = arena.allocate(FrameKind.NACK.headerBytes(), 8);
    private final ByteBuffer nackBuffer = nackFrame.asByteBuffer();
    private final FrameChecksum checksum = new FrameChecksum();
    private final FrameFlyweight header = new FrameFlyweight();
    private final PutFrame handleWord = new PutFrame();
    private final NackFrame nack = new NackFrame();
    private final AtomicInteger heldNacks = new AtomicInteger();
    private volatile State state = State.PASSING;

    HoldingRelay(final InetSocketAddress origin, final InetSocketAddress target) throws IOException
    {
        super(origin, target, "holding-relay");
        this.origin = origin;
        start();
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

    @Override
    protected void relay(final ByteBuffer datagram, final InetSocketAddress to, final long n) throws IOException
    {
        final State now = state;
        if (now == State.SILENT || datagram.remaining() < FrameFlyweight.HEADER_BYTES)
        {
            return;
        }
        final MemorySegment received = MemorySegment.ofBuffer(datagram);
        final FrameKind kind = header.wrap(received, 0).kind();
        if (!to.equals(origin) && now == State.HOLDING && (kind == FrameKind.PUT || kind == FrameKind.ATOMIC))
        {
            answerHeld(received, kind);
        }
        else
        {
            send(datagram, to);
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
        send(nackBuffer.clear(), origin);
        heldNacks.incrementAndGet();
    }

    @Override
    public void close() throws IOException
    {
        super.close();
        arena.close();
    }
}
