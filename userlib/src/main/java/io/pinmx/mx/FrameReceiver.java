package io.pinmx.mx;

import io.pinmx.mx.buffer.BufferPool;
import io.pinmx.mx.match.MatchQueue;
import io.pinmx.mx.match.PostedReceive;
import io.pinmx.mx.match.UnexpectedMessage;
import io.pinmx.mx.match.UnexpectedQueue;
import io.pinmx.mx.reliability.ReceiveTracker;
import io.pinmx.mx.reliability.SequenceNumbers;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.wire.AckFrame;
import io.pinmx.pin.wire.DropReason;
import io.pinmx.pin.wire.EagerFrame;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.FrameReader;
import io.pinmx.pin.wire.MediumFragFrame;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.RndvFrame;
import org.agrona.concurrent.CachedNanoClock;

import java.lang.foreign.MemorySegment;

/**
 * Owns the incoming side: the driver's events decoded in place with reused flyweights, acks
 * and in-order acceptance per partner, matching arriving messages against posted receives or
 * keeping them as unexpected, each partner's medium-message reassembly, and the count of
 * frames the library drops as malformed or stale. Connect frames go to the {@link Connector},
 * RNDV matches, NOTIFYs and rendezvous pull events to the {@link Rendezvous}, the pull events of one-sided reads to
 * {@link RemoteReads}. Guarded by the endpoint lock.
 */
final class FrameReceiver implements EventHandler
{
    private final CachedNanoClock now;
    private final SequenceNumbers sequences;
    private final RequestPool requests;
    private final PartnerTable partners;
    private final Connector connector;
    private final Rendezvous rendezvous;
    private final RemoteReads reads;
    private final RemoteWrites writes;
    private final OutboundQueue outbound;
    private final FrameSender sender;
    private final MatchQueue matchQueue;
    private final UnexpectedQueue unexpected;
    private final BufferPool buffers;
    private final FrameFlyweight frameIn = new FrameFlyweight();
    private final EagerFrame eagerIn = new EagerFrame();
    private final MediumFragFrame mediumIn = new MediumFragFrame();
    private final RndvFrame rndvIn = new RndvFrame();
    private final AckFrame ackIn = new AckFrame();
    private final NackFrame nackIn = new NackFrame();
    private long droppedFrames;

    FrameReceiver(
        final CachedNanoClock now, final SequenceNumbers sequences, final RequestPool requests,
        final PartnerTable partners, final Connector connector, final Rendezvous rendezvous,
        final RemoteReads reads, final RemoteWrites writes, final OutboundQueue outbound, final FrameSender sender, final MatchQueue matchQueue,
        final UnexpectedQueue unexpected, final BufferPool buffers)
    {
        this.now = now;
        this.sequences = sequences;
        this.requests = requests;
        this.partners = partners;
        this.connector = connector;
        this.rendezvous = rendezvous;
        this.reads = reads;
        this.writes = writes;
        this.outbound = outbound;
        this.sender = sender;
        this.matchQueue = matchQueue;
        this.unexpected = unexpected;
        this.buffers = buffers;
    }

    /**
     * @return frames and events dropped as malformed or stale (the driver counts its own drops).
     */
    long droppedFrames()
    {
        return droppedFrames;
    }

    public void onEvent(final DriverEvent e)
    {
        switch (e.type())
        {
            case PULL_DONE -> count(onPullEnded(e.pullHandle(), e.bytes(), null, null));
            case PULL_FAILED -> count(onPullEnded(e.pullHandle(), e.bytes(), e.error(), e.errorMessage()));
            case PUT_DONE, ATOMIC_DONE -> count(writes.onEnded(e.pullHandle(), e.bytes(), e.oldValue(), null, null));
            case PUT_FAILED, ATOMIC_FAILED ->
                count(writes.onEnded(e.pullHandle(), e.bytes(), 0, e.error(), e.errorMessage()));
            case SEND_DONE ->
            {
            }
            default -> onFrame(e);
        }
    }

    /** A pull is a one-sided read's or a rendezvous receive's. */
    private boolean onPullEnded(final int handle, final long bytes, final DriverError error, final CharSequence message)
    {
        final Request r = requests.byHandle(handle);
        if (null != r && Request.Kind.READ == r.kind)
        {
            return reads.onPullEnded(r, bytes, error, message);
        }
        return rendezvous.onPullEnded(handle, bytes, error, message);
    }

    private void count(final boolean accepted)
    {
        if (!accepted)
        {
            droppedFrames++;
        }
    }

    private void onFrame(final DriverEvent e)
    {
        final MemorySegment buffer = e.buffer();
        final long offset = e.frameOffset();
        if (DropReason.NONE != FrameReader.check(buffer, offset, e.frameLength()))
        {
            droppedFrames++;
            return;
        }
        frameIn.wrap(buffer, offset);
        final FrameKind kind = frameIn.kind();
        final int peerIndex = e.peerIndex();
        switch (kind)
        {
            case CONNECT_REQUEST -> count(connector.onConnectRequest(peerIndex, buffer, offset));
            case CONNECT_REPLY -> count(connector.onConnectReply(peerIndex, buffer, offset));
            case NACK -> onNack(peerIndex, buffer, offset);
            default -> onSessionFrame(peerIndex, kind, buffer, offset, e.lossless());
        }
    }

    private void onSessionFrame(
        final int peerIndex, final FrameKind kind, final MemorySegment buffer, final long offset, final boolean lossless)
    {
        final Partner p = partners.find(peerIndex, frameIn.srcEndpoint());
        if (null == p || !p.isConnected() || p.remoteSessionId != frameIn.srcSession())
        {
            droppedFrames++;
            if (null != p && ConnectionState.FAILED == p.connection && p.remoteSessionId == frameIn.srcSession())
            {
                // A partner still using a connection we failed learns it now, whatever it sends.
                sender.sendNack(peerIndex, frameIn.srcEndpoint(), frameIn.srcSession(), kind, frameIn.seq());
            }
            return;
        }
        final long nowNs = now.nanoTime();
        p.lastHeardNs = nowNs;
        if (frameIn.hasAck())
        {
            p.window.acknowledge(frameIn.ackSeq(), outbound.ackedHandler());
        }
        if (FrameKind.ACK == kind)
        {
            ackIn.wrap(buffer, offset);
            p.window.acknowledge(ackIn.ackUpTo(), outbound.ackedHandler());
            if ((ackIn.flags() & FrameFlyweight.FLAG_ACK_REQUESTED) != 0)
            {
                p.tracker.ackRequested(nowNs);
            }
        }
        else
        {
            onSequenced(p, kind, buffer, offset, nowNs, lossless);
        }
        if (p.isConnected())
        {
            // an ack still owed after this goes out from the timers, which run right after the poll: one ACK
            // per partner and progress round, not one per frame of a medium message
            partners.pump(p);
        }
    }

    /**
     * @param lossless the driver says the frame came through a queue that cannot lose it: a TINY, SMALL or medium
     *                 send then completed without our ack (see {@link OutboundQueue}), so its ack may wait for a frame back;
     *                 not so for a resend, whose first try the driver refused (that send waits for the ack).
     */
    private void onSequenced(
        final Partner p, final FrameKind kind, final MemorySegment buffer, final long offset, final long nowNs,
        final boolean lossless)
    {
        final int seq = frameIn.seq();
        if (!sequences.isValid(seq) || ReceiveTracker.Classification.IN_ORDER != p.tracker.classify(seq, nowNs))
        {
            return;
        }
        final boolean accepted = switch (kind)
        {
            case TINY, SMALL -> onEager(p, kind, buffer, offset);
            case MEDIUM_FRAG -> onMediumFragment(p, buffer, offset);
            case RNDV -> onRendezvous(p, buffer, offset);
            case NOTIFY ->
            {
                count(rendezvous.onNotify(p, buffer, offset));
                yield true;
            }
            default -> true;
        };
        if (accepted && lossless && (FrameKind.TINY == kind || FrameKind.SMALL == kind || FrameKind.MEDIUM_FRAG == kind) &&
            (frameIn.flags() & FrameFlyweight.FLAG_RESENT) == 0)
        {
            p.tracker.acceptLossless(nowNs);
        }
        else if (accepted)
        {
            p.tracker.accept(nowNs);
        }
        else
        {
            p.tracker.refuse(nowNs);
        }
    }

    /**
     * @return false if the message was refused (no receive matched and the unexpected queue is full).
     */
    private boolean onEager(final Partner p, final FrameKind kind, final MemorySegment buffer, final long offset)
    {
        eagerIn.wrap(buffer, offset);
        final long matchInfo = eagerIn.matchInfo();
        final long length = eagerIn.messageLength();
        final long payloadOffset = offset + kind.headerBytes();
        final PostedReceive posted = matchQueue.match(p.id(), matchInfo);
        if (null != posted)
        {
            final Request r = (Request)posted.owner();
            beginEagerReceive(r, p, matchInfo, length);
            r.status.bytesTransferred = r.vector.copyIn(0, buffer, payloadOffset, length);
            requests.complete(r);
            return true;
        }
        final UnexpectedMessage m = unexpected.tryAddEager(p.id(), matchInfo, length);
        if (null == m)
        {
            return false;
        }
        m.append(0, buffer, payloadOffset, length);
        return true;
    }

    private boolean onMediumFragment(final Partner p, final MemorySegment buffer, final long offset)
    {
        mediumIn.wrap(buffer, offset);
        final long matchInfo = mediumIn.matchInfo();
        final long length = mediumIn.messageLength();
        final long fragOffset = mediumIn.fragOffset();
        final int fragIndex = mediumIn.fragIndex();
        final long payloadOffset = offset + FrameKind.MEDIUM_FRAG.headerBytes();
        final int payloadBytes = mediumIn.payloadLength();
        final MediumReassembly incoming = p.incoming;
        if (0 == fragIndex)
        {
            if (length > buffers.maxBufferBytes())
            {
                droppedFrames++;
                return true;
            }
            final PostedReceive posted = matchQueue.match(p.id(), matchInfo);
            if (null != posted)
            {
                final Request r = (Request)posted.owner();
                beginEagerReceive(r, p, matchInfo, length);
                RequestPool.moveTo(r, RequestState.RECEIVING);
                incoming.intoRequest(r, mediumIn.messageSeq());
            }
            else
            {
                final UnexpectedMessage m = unexpected.tryAddEager(p.id(), matchInfo, length);
                if (null == m)
                {
                    return false;
                }
                incoming.intoUnexpected(m, mediumIn.messageSeq());
            }
        }
        else if (!incoming.continues(mediumIn.messageSeq()))
        {
            droppedFrames++;
            return true;
        }
        final boolean last = fragIndex == mediumIn.fragCount() - 1;
        final Request r = incoming.request();
        if (null != r)
        {
            r.status.bytesTransferred += r.vector.copyIn(fragOffset, buffer, payloadOffset, payloadBytes);
            if (last)
            {
                incoming.clear();
                requests.complete(r);
            }
        }
        else
        {
            incoming.unexpected().append(fragOffset, buffer, payloadOffset, payloadBytes);
            if (last)
            {
                incoming.clear();
            }
        }
        return true;
    }

    private boolean onRendezvous(final Partner p, final MemorySegment buffer, final long offset)
    {
        rndvIn.wrap(buffer, offset);
        final long matchInfo = rndvIn.matchInfo();
        final PostedReceive posted = matchQueue.match(p.id(), matchInfo);
        if (null != posted)
        {
            rendezvous.matched((Request)posted.owner(), p, matchInfo, rndvIn.messageLength(), rndvIn.regionId(),
                rndvIn.regionOffset(), rndvIn.sendHandle());
            return true;
        }
        return null != unexpected.tryAddRendezvous(p.id(), matchInfo, rndvIn.messageLength(), rndvIn.regionId(),
            rndvIn.regionOffset(), rndvIn.sendHandle());
    }

    /**
     * A receive just posted matched an unexpected message: take what arrived (the rest of a
     * medium message follows into the receive), or start the pull of a rendezvous one.
     */
    void takeUnexpected(final Request r, final UnexpectedMessage m)
    {
        final Partner p = partners.at(m.source());
        if (UnexpectedMessage.Kind.RENDEZVOUS == m.kind())
        {
            final long length = m.length();
            final int regionId = m.senderRegionId();
            final long regionOffset = m.senderRegionOffset();
            final int senderHandle = m.senderHandle();
            final long matchInfo = m.matchInfo();
            unexpected.release(m);
            rendezvous.matched(r, p, matchInfo, length, regionId, regionOffset, senderHandle);
            return;
        }
        beginEagerReceive(r, p, m.matchInfo(), m.length());
        final long arrived = m.bytesArrived();
        if (arrived > 0)
        {
            r.status.bytesTransferred += r.vector.copyIn(0, m.data(), 0, arrived);
        }
        final boolean complete = m.isComplete();
        if (!complete)
        {
            p.incoming.redirectTo(r);
        }
        unexpected.release(m);
        if (complete)
        {
            requests.complete(r);
        }
        else
        {
            RequestPool.moveTo(r, RequestState.RECEIVING);
        }
    }

    private static void beginEagerReceive(final Request r, final Partner p, final long matchInfo, final long length)
    {
        r.partner = p;
        r.matchInfo = matchInfo;
        r.messageLength = length;
        r.status.source = p.id();
        r.status.matchInfo = matchInfo;
        r.status.messageLength = length;
        r.status.truncated = length > r.vector.totalBytes();
    }

    private void onNack(final int peerIndex, final MemorySegment buffer, final long offset)
    {
        nackIn.wrap(buffer, offset);
        final Partner p = partners.find(peerIndex, nackIn.srcEndpoint());
        if (null == p || ConnectionState.FAILED == p.connection)
        {
            droppedFrames++;
            return;
        }
        final NackReason reason = nackIn.reason();
        partners.fail(p, p.describe() + " refused our " + nackIn.refusedKind() + " frame seq " + nackIn.refusedSeq() +
            ": " + reason + (NackReason.BAD_SESSION == reason ?
            " (the remote endpoint was closed or reopened, or gave this connection up)" :
            NackReason.BAD_ENDPOINT == reason ? " (no such endpoint is open on that board)" : ""));
    }
}
