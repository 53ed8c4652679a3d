package io.pinmx.mx;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.wire.AckFrame;
import io.pinmx.pin.wire.ConnectFrame;
import io.pinmx.pin.wire.ConnectStatus;
import io.pinmx.pin.wire.EagerFrame;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.MediumFragFrame;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.NotifyFrame;
import io.pinmx.pin.wire.RndvFrame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Owns the outgoing side of the wire: one reused native header buffer with a flyweight per
 * frame kind, the encoding of every frame the library sends, the partner's ack piggy-backed
 * on each, the hand-off to {@link DriverEndpoint#send} and what a refused send means.
 * <p>
 * Send errors, by {@link io.pinmx.pin.spi.DriverError}: NO_RESOURCES (ring or socket buffer
 * stayed full), SYSTEM (a send syscall failed, e.g. ENOBUFS), PEER_UNREACHABLE (the peer's ring
 * went away) and TIMEOUT are transient: a sequenced frame stays in the send window and
 * is resent (from the next progress round, {@link Partner#holdingRefused}), the error is kept for the partner's
 * timeout message, nothing counts as dropped.
 * Anything else (BAD_ARGUMENT such as a frame too large for the peer's ring, ENDPOINT_CLOSED,
 * UNKNOWN_PEER, or a non-driver exception) can never succeed on resend: the partner's sequence
 * stream is broken, so the sender marks it ({@link Partner#sendPathBroken}) and the caller
 * fails the partner, and with it the request, at once with the cause. A refused connect reply
 * or NACK has no request to fail: it is counted in {@link #failedSends()}.
 * Guarded by the endpoint lock.
 */
final class FrameSender
{
    private static final int HEADER_BUFFER_BYTES = 256;
    /** Most frames of one {@link #sendRun}: an offloaded UDP send of 64 KiB holds fewer than that of a 1500-byte MTU. */
    static final int MAX_RUN_FRAMES = 64;

    private final DriverEndpoint driver;
    private final EndpointOptions options;
    private final int localEndpointIndex;
    private final int localSessionId;
    private final int mediumFragmentBytes;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment headerBuffer = arena.allocate(HEADER_BUFFER_BYTES, 8);
    private final MemorySegment[] headerViews = new MemorySegment[FrameKind.MAX_CODE + 1];
    private final MemorySegment emptyPayload = headerBuffer.asSlice(0, 0);
    private final EagerFrame eagerOut = new EagerFrame();
    private final MediumFragFrame mediumOut = new MediumFragFrame();
    private final RndvFrame rndvOut = new RndvFrame();
    private final NotifyFrame notifyOut = new NotifyFrame();
    private final AckFrame ackOut = new AckFrame();
    private final ConnectFrame connectOut = new ConnectFrame();
    private final NackFrame nackOut = new NackFrame();
    private final FrameFlyweight headerOut = new FrameFlyweight();
    /** One MEDIUM_FRAG header per frame of a run, and the run's payloads (cleared after each run). */
    private final MemorySegment[] runHeaders = new MemorySegment[MAX_RUN_FRAMES];
    private final MemorySegment[] runPayloads = new MemorySegment[MAX_RUN_FRAMES];
    private int runFrames;
    private int runFirstSeq;
    private long resentFrames;
    private long resentIntoQueueFrames;
    private long failedSends;

    FrameSender(
        final DriverEndpoint driver, final EndpointAddress local, final EndpointOptions options,
        final int mediumFragmentBytes)
    {
        this.driver = driver;
        this.options = options;
        this.localEndpointIndex = local.endpointIndex();
        this.localSessionId = local.sessionId();
        this.mediumFragmentBytes = mediumFragmentBytes;
        for (final FrameKind kind : FrameKind.values())
        {
            headerViews[kind.code()] = headerBuffer.asSlice(0, kind.headerBytes());
        }
        final long runHeaderBytes = FrameKind.MEDIUM_FRAG.headerBytes();
        final MemorySegment runHeaderBuffer = arena.allocate(runHeaderBytes * MAX_RUN_FRAMES, 8);
        for (int k = 0; k < MAX_RUN_FRAMES; k++)
        {
            runHeaders[k] = runHeaderBuffer.asSlice(k * runHeaderBytes, runHeaderBytes);
        }
    }

    /**
     * @return sequenced frames sent again after no ack came in time (go-back-N resends).
     */
    long resentFrames()
    {
        return resentFrames;
    }

    /**
     * @return the resends the driver put straight into the partner's receive queue (a same-host ring), which
     *         cannot have lost the frame's first copy: the partner had dropped it (its hold-back) or the first
     *         try was refused.
     */
    long resentIntoQueueFrames()
    {
        return resentIntoQueueFrames;
    }

    /**
     * @return unsequenced frames (connect replies, NACKs) the driver refused outright.
     */
    long failedSends()
    {
        return failedSends;
    }

    /**
     * Frame {@code frameIndex} of a send: RNDV or a MEDIUM_FRAG (TINY and SMALL go from their copy).
     *
     * @return true when the driver put it in the peer's receive queue, where it cannot be lost.
     */
    boolean sendRequestFrame(final Partner p, final Request r, final int frameIndex, final int seq, final boolean resend)
    {
        final long length = r.messageLength;
        if (Request.Kind.SEND_RENDEZVOUS == r.kind)
        {
            rndvOut.wrap(headerBuffer, 0);
            rndvOut.encodeHeader(FrameKind.RNDV, p.remoteEndpointIndex, localEndpointIndex, p.remoteSessionId,
                localSessionId, seq, 0);
            rndvOut.encode(r.matchInfo, length, r.lease.isHeld() ? r.lease.regionId() : 0,
                r.lease.isHeld() ? r.lease.offset() : 0, r.handle());
            return queued(p, seq, transmit(p, FrameKind.RNDV, emptyPayload, resend));
        }
        else
        {
            return queued(p, seq,
                transmit(p, FrameKind.MEDIUM_FRAG, encodeMedium(headerBuffer, p, r, frameIndex, seq), resend));
        }
    }

    /**
     * Encodes frame {@code frameIndex} of a medium send, sequence number {@code seq}, as the next frame of the run
     * {@link #sendRun} sends; at most {@link #MAX_RUN_FRAMES} frames, all to one partner.
     */
    void addToRun(final Partner p, final Request r, final int frameIndex, final int seq)
    {
        if (0 == runFrames)
        {
            runFirstSeq = seq;
        }
        runPayloads[runFrames] = encodeMedium(runHeaders[runFrames], p, r, frameIndex, seq);
        headerOut.wrap(runHeaders[runFrames], 0);
        headerOut.ackSeq(p.tracker.expectedSeq());
        runFrames++;
    }

    /**
     * Sends the frames {@link #addToRun} encoded since the last run in one {@link DriverEndpoint#sendRun}.
     *
     * @return true when the driver put them in the peer's receive queue, where they cannot be lost.
     */
    boolean sendRun(final Partner p)
    {
        final int frames = runFrames;
        runFrames = 0;
        try
        {
            final boolean delivered = driver.sendRun(p.peerIndex, runHeaders, runPayloads, frames);
            p.tracker.onAckSent();
            p.lastSendRefused = false;
            if (delivered)
            {
                p.window.inReceiveQueue(runFirstSeq, frames);
            }
            return delivered;
        }
        catch (final RuntimeException ex)
        {
            refused(p, FrameKind.MEDIUM_FRAG, ex);
            return false;
        }
        finally
        {
            Arrays.fill(runPayloads, 0, frames, null);
        }
    }

    /** @return the fragment's payload. */
    private MemorySegment encodeMedium(
        final MemorySegment header, final Partner p, final Request r, final int frameIndex, final int seq)
    {
        final long length = r.messageLength;
        final long offset = (long)frameIndex * mediumFragmentBytes;
        final int bytes = (int)Math.min(mediumFragmentBytes, length - offset);
        mediumOut.wrap(header, 0);
        mediumOut.encodeHeader(FrameKind.MEDIUM_FRAG, p.remoteEndpointIndex, localEndpointIndex, p.remoteSessionId,
            localSessionId, seq, bytes);
        mediumOut.encode(r.matchInfo, (int)length, (int)offset, frameIndex, r.framesTotal, r.firstSeq);
        return r.fragments.view(r.sendData, frameIndex, offset, bytes);
    }

    /**
     * The TINY or SMALL frame of an eager send from its copy.
     *
     * @return true when the driver put it in the peer's receive queue, where it cannot be lost.
     */
    boolean sendEagerCopy(final Partner p, final EagerCopy c, final int seq, final boolean resend)
    {
        final int length = c.length();
        final FrameKind kind = length <= options.tinyMaxBytes ? FrameKind.TINY : FrameKind.SMALL;
        eagerOut.wrap(headerBuffer, 0);
        eagerOut.encodeHeader(kind, p.remoteEndpointIndex, localEndpointIndex, p.remoteSessionId, localSessionId,
            seq, length);
        eagerOut.encode(c.matchInfo, length);
        return queued(p, seq, transmit(p, kind, 0 == length ? emptyPayload : c.payload(), resend));
    }

    void sendNotice(final Partner p, final Notice n, final int seq, final boolean resend)
    {
        notifyOut.wrap(headerBuffer, 0);
        notifyOut.encodeHeader(FrameKind.NOTIFY, p.remoteEndpointIndex, localEndpointIndex, p.remoteSessionId,
            localSessionId, seq, 0);
        notifyOut.encode(n.sendHandle, n.status, n.bytesPulled);
        queued(p, seq, transmit(p, FrameKind.NOTIFY, emptyPayload, resend));
    }

    /** Tells the send window where sequenced frame {@code seq} went: the timer resends it by that. */
    private static boolean queued(final Partner p, final int seq, final boolean delivered)
    {
        if (delivered)
        {
            p.window.inReceiveQueue(seq, 1);
        }
        return delivered;
    }

    void sendAck(final Partner p, final boolean requestAck)
    {
        ackOut.wrap(headerBuffer, 0);
        ackOut.encodeHeader(FrameKind.ACK, p.remoteEndpointIndex, localEndpointIndex, p.remoteSessionId,
            localSessionId, 0, 0);
        ackOut.encode(p.tracker.expectedSeq());
        if (requestAck)
        {
            ackOut.flags(FrameFlyweight.FLAG_ACK_REQUESTED);
        }
        transmit(p, FrameKind.ACK, emptyPayload, false);
    }

    /**
     * Piggy-backs the partner's ack on the frame and hands it to the driver.
     */
    private boolean transmit(final Partner p, final FrameKind kind, final MemorySegment payload, final boolean resend)
    {
        headerOut.wrap(headerBuffer, 0);
        headerOut.ackSeq(p.tracker.expectedSeq());
        if (resend)
        {
            headerOut.flags(headerOut.flags() | FrameFlyweight.FLAG_RESENT);
            resentFrames++;
        }
        try
        {
            final boolean delivered = driver.send(p.peerIndex, headerViews[kind.code()], payload);
            p.tracker.onAckSent();
            p.lastSendRefused = false;
            if (resend && delivered)
            {
                resentIntoQueueFrames++;
            }
            return delivered;
        }
        catch (final RuntimeException ex)
        {
            refused(p, kind, ex);
            return false;
        }
    }

    private static void refused(final Partner p, final FrameKind kind, final RuntimeException ex)
    {
        p.lastSendRefused = isTransient(ex);
        if (p.lastSendRefused)
        {
            p.lastSendError = ex.getMessage();
        }
        else if (null == p.sendPathBroken)
        {
            p.sendPathBroken = "the driver refused our " + kind + " frame: " + ex.getMessage();
        }
    }

    /**
     * Sends the partner's CONNECT_REQUEST (a new connection or a key check); a refusal that
     * cannot pass on resend marks the partner's send path broken.
     */
    void sendConnectRequest(final Partner p, final long nowNs)
    {
        connectOut.wrap(headerBuffer, 0);
        connectOut.encodeHeader(FrameKind.CONNECT_REQUEST, p.remoteEndpointIndex, localEndpointIndex, 0,
            localSessionId, 0, 0);
        connectOut.encode(p.connectKey, p.connectSeq, p.sendInitialSeq, ConnectStatus.OK);
        p.connectSentNs = nowNs;
        try
        {
            driver.send(p.peerIndex, headerViews[FrameKind.CONNECT_REQUEST.code()], emptyPayload);
        }
        catch (final RuntimeException ex)
        {
            if (isTransient(ex))
            {
                p.lastSendError = ex.getMessage();
            }
            else if (null == p.sendPathBroken)
            {
                p.sendPathBroken = "the driver refused our CONNECT_REQUEST: " + ex.getMessage();
            }
        }
    }

    void sendConnectReply(
        final int peerIndex, final int remoteEndpoint, final int remoteSession, final int connectSeq,
        final int initialSeq, final ConnectStatus status)
    {
        connectOut.wrap(headerBuffer, 0);
        connectOut.encodeHeader(FrameKind.CONNECT_REPLY, remoteEndpoint, localEndpointIndex, remoteSession,
            localSessionId, 0, 0);
        connectOut.encode(0, connectSeq, initialSeq, status);
        sendUnsequenced(peerIndex, FrameKind.CONNECT_REPLY);
    }

    /**
     * Tells a peer we do not (or no longer) hold the session its frame named.
     */
    void sendNack(
        final int peerIndex, final int remoteEndpoint, final int remoteSession, final FrameKind refusedKind,
        final int refusedSeq)
    {
        nackOut.wrap(headerBuffer, 0);
        nackOut.encodeHeader(FrameKind.NACK, remoteEndpoint, localEndpointIndex, remoteSession, localSessionId, 0, 0);
        nackOut.encode(NackReason.BAD_SESSION, refusedKind, refusedSeq, 0, 0, 0, 0, 0);
        sendUnsequenced(peerIndex, FrameKind.NACK);
    }

    /**
     * Replies and NACKs are answers the peer asks again for (it resends its request or frame), so
     * a failed one is only counted.
     */
    private void sendUnsequenced(final int peerIndex, final FrameKind kind)
    {
        try
        {
            driver.send(peerIndex, headerViews[kind.code()], emptyPayload);
        }
        catch (final RuntimeException ex)
        {
            failedSends++;
        }
    }

    static boolean isTransient(final RuntimeException ex)
    {
        if (!(ex instanceof DriverException de))
        {
            return false;
        }
        return switch (de.kind())
        {
            case NO_RESOURCES, SYSTEM, PEER_UNREACHABLE, TIMEOUT -> true;
            default -> false;
        };
    }

    void close()
    {
        arena.close();
    }
}
