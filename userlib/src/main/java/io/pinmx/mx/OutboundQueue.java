package io.pinmx.mx;

import io.pinmx.mx.reliability.SendWindow;
import io.pinmx.pin.wire.NotifyStatus;
import org.agrona.concurrent.CachedNanoClock;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Owns what goes out to each partner in sequence: the partner's queue of sends and NOTIFYs
 * waiting for window room, moving them into the send window (which assigns sequence numbers),
 * the pooled {@link Notice}s, go-back-N resends, frames held back behind one the driver refused for now (a full
 * receive queue: sent again by the next round, {@link #retryRefused}), and the completion of a send once its frames
 * are acknowledged (and, for a rendezvous, once the receiver's NOTIFY came). Guarded by the
 * endpoint lock.
 * <p>
 * A one-frame eager send (TINY, SMALL) goes into the window as a pooled {@link EagerCopy} of its bytes and
 * completes as soon as the driver says the frame is in the peer's receive queue (a same-host shared-memory ring
 * cannot lose it): the sender does not wait a round trip for the ack, and an ACK frame need not come back before
 * the receiver's own next frame carries it. Over a link that may drop frames the send completes on its ack, as
 * every other frame does; the copy is what a resend sends in both cases. A medium eager send (MEDIUM_FRAG frames)
 * whose every fragment went into such a queue completes likewise once its last fragment is out, its bytes staged
 * for a resend ({@link RequestPool#completeHeldBySendWindow}); the window holds the request ({@link SendHold})
 * until its frames are acknowledged.
 */
final class OutboundQueue
{
    private final CachedNanoClock now;
    private final FrameSender sender;
    private final RequestPool requests;
    private final int smallMaxBytes;
    /** Copies made at a time, in one native allocation: one partner's whole send window of small sends. */
    private final int copiesPerSlab;
    private final ArrayDeque<Notice> freeNotices = new ArrayDeque<>();
    private final ArrayDeque<EagerCopy> freeCopies;
    private final SendWindow.AckedHandler ackedHandler = this::onFrameAcked;
    private final SendWindow.ClearedHandler<String> abandonedHandler = this::onFrameAbandoned;
    private final SendWindow.ResendHandler<Partner> resendHandler = this::onResend;

    OutboundQueue(
        final CachedNanoClock now, final FrameSender sender, final RequestPool requests, final int smallMaxBytes,
        final int sendWindowFrames)
    {
        this.now = now;
        this.sender = sender;
        this.requests = requests;
        this.smallMaxBytes = smallMaxBytes;
        this.copiesPerSlab = sendWindowFrames;
        this.freeCopies = new ArrayDeque<>(2 * sendWindowFrames);
        addCopies();
    }

    /**
     * Made ahead, not per send: a send that finds the pool empty (more small sends unacknowledged than ever before,
     * e.g. while a partner is descheduled) would otherwise allocate on the message path long after warm-up.
     */
    private void addCopies()
    {
        final long strideBytes = (Math.max(smallMaxBytes, 1) + 7L) & ~7L;
        final MemorySegment slab = Arena.ofAuto().allocate(strideBytes * copiesPerSlab, 8);
        for (int i = 0; i < copiesPerSlab; i++)
        {
            freeCopies.addLast(new EagerCopy(slab.asSlice(i * strideBytes, strideBytes)));
        }
    }

    SendWindow.AckedHandler ackedHandler()
    {
        return ackedHandler;
    }

    /**
     * Queues a QUEUED send behind the partner's earlier frames.
     */
    void enqueue(final Partner p, final Request r)
    {
        p.pendingFrames.addLast(r);
    }

    /**
     * Moves queued frames into the window while it has room, the partner is connected and no frame to it waits to be
     * sent again after a refusal.
     */
    void pump(final Partner p)
    {
        final long nowNs = now.nanoTime();
        while (p.isConnected() && p.window.hasRoom() && null == p.sendPathBroken && !p.holdingRefused)
        {
            final Object head = p.pendingFrames.peekFirst();
            if (null == head)
            {
                return;
            }
            if (head instanceof Request r)
            {
                if (RequestState.QUEUED == r.state)
                {
                    RequestPool.moveTo(r, RequestState.SENDING);
                }
                if (Request.Kind.SEND_EAGER == r.kind && r.messageLength <= smallMaxBytes)
                {
                    p.pendingFrames.pollFirst();
                    sendCopied(p, r, nowNs);
                    continue;
                }
                final int frameIndex = p.headNextFrame;
                final int run = Math.min(Math.min(r.framesTotal - frameIndex, p.window.room()), FrameSender.MAX_RUN_FRAMES);
                if (Request.Kind.SEND_EAGER == r.kind && run > 1)
                {
                    sendMediumRun(p, r, frameIndex, run, nowNs);
                }
                else
                {
                    final int seq = p.window.append(r, frameIndex, nowNs);
                    if (0 == frameIndex)
                    {
                        r.firstSeq = seq;
                    }
                    if (sender.sendRequestFrame(p, r, frameIndex, seq, false))
                    {
                        r.framesLossless++;
                    }
                    holdIfRefused(p, seq);
                    p.headNextFrame++;
                }
                if (p.headNextFrame == r.framesTotal)
                {
                    p.pendingFrames.pollFirst();
                    p.headNextFrame = 0;
                    completeIfLossless(p, r);
                }
            }
            else
            {
                final Notice n = (Notice)head;
                p.pendingFrames.pollFirst();
                final int seq = p.window.append(n, 0, nowNs);
                sender.sendNotice(p, n, seq, false);
                holdIfRefused(p, seq);
            }
        }
    }

    /**
     * After a sequenced send: when the driver refused it for now, nothing more goes to the partner before the next
     * progress round sends it again ({@link #retryRefused}).
     */
    private static void holdIfRefused(final Partner p, final int seq)
    {
        if (p.lastSendRefused && !p.holdingRefused)
        {
            p.holdingRefused = true;
            p.refusedFromSeq = seq;
        }
    }

    /**
     * Once per progress round: sends again the frames a refusal held back, oldest first, then what the window has
     * room for. A round's timers run outside the driver's delivery of frames, so a driver waiting for room in the
     * partner's receive queue can take in this endpoint's own frames meanwhile.
     */
    void retryRefused(final Partner p)
    {
        if (!p.holdingRefused)
        {
            return;
        }
        p.holdingRefused = false;
        p.window.resendFrom(p.refusedFromSeq, now.nanoTime(), resendHandler, p);
        pump(p);
    }

    /**
     * The next {@code frames} MEDIUM_FRAG frames of the partner's head send, handed to the driver together (one UDP
     * send with segmentation offload in the user driver, where a system call per frame would cost more than the
     * frame's bytes).
     */
    private void sendMediumRun(final Partner p, final Request r, final int firstFrame, final int frames, final long nowNs)
    {
        int firstFrameSeq = 0;
        for (int k = 0; k < frames; k++)
        {
            final int seq = p.window.append(r, firstFrame + k, nowNs);
            if (0 == k)
            {
                firstFrameSeq = seq;
            }
            if (0 == firstFrame + k)
            {
                r.firstSeq = seq;
            }
            sender.addToRun(p, r, firstFrame + k, seq);
        }
        if (sender.sendRun(p))
        {
            r.framesLossless += frames;
        }
        holdIfRefused(p, firstFrameSeq);
        p.headNextFrame += frames;
    }

    private void completeIfLossless(final Partner p, final Request r)
    {
        if (Request.Kind.SEND_EAGER == r.kind && r.framesLossless == r.framesTotal && RequestState.SENDING == r.state &&
            r.framesUnacked > 0 && null == p.sendPathBroken)
        {
            requests.completeHeldBySendWindow(r);
        }
    }

    private void sendCopied(final Partner p, final Request r, final long nowNs)
    {
        if (freeCopies.isEmpty())
        {
            addCopies();
        }
        final EagerCopy c = freeCopies.pollFirst();
        c.copyOf(r);
        final int seq = p.window.append(c, 0, nowNs);
        r.firstSeq = seq;
        if (sender.sendEagerCopy(p, c, seq, false) && null == p.sendPathBroken)
        {
            r.framesUnacked = 0;
            maybeCompleteSend(r);
        }
        else
        {
            c.request = r;
            holdIfRefused(p, seq);
        }
    }

    /**
     * Queues a NOTIFY telling a rendezvous sender how its message's pull ended (dropped when the
     * partner is no longer connected: its send failed with it).
     */
    void queueNotice(final Partner p, final int senderHandle, final NotifyStatus status, final long bytesPulled)
    {
        if (!p.isConnected())
        {
            return;
        }
        Notice n = freeNotices.pollFirst();
        if (null == n)
        {
            n = new Notice();
        }
        n.sendHandle = senderHandle;
        n.status = status;
        n.bytesPulled = bytesPulled;
        p.pendingFrames.addLast(n);
    }

    /**
     * Go-back-N: sends every unacknowledged frame to the partner again.
     */
    void resendAll(final Partner p)
    {
        p.holdingRefused = false;
        p.window.resendAll(now.nanoTime(), resendHandler, p);
    }

    /**
     * Forgets every frame to the failed partner; their sends fail with the reason.
     */
    void abandonAll(final Partner p, final String reason)
    {
        if (null != p.window)
        {
            p.window.clear(abandonedHandler, reason);
        }
        Object pending;
        while (null != (pending = p.pendingFrames.pollFirst()))
        {
            onFrameAbandoned(reason, pending, 0);
        }
        p.headNextFrame = 0;
    }

    /**
     * Completes a send whose frames are all acknowledged: at once when eager, on NOTIFY when rendezvous.
     */
    void maybeCompleteSend(final Request r)
    {
        if (RequestState.SENDING != r.state || r.framesUnacked != 0)
        {
            return;
        }
        if (Request.Kind.SEND_EAGER == r.kind)
        {
            r.status.bytesTransferred = r.messageLength;
            requests.complete(r);
        }
        else if (Rendezvous.SendState.NOTIFIED == r.rendezvousSend)
        {
            r.partner.outstandingRendezvous--;
            if (r.notifyStatus.isSuccess())
            {
                requests.complete(r);
            }
            else
            {
                requests.fail(r, "receiver " + r.partner.describe() + " failed to pull the message: " + r.notifyStatus +
                    " after " + r.status.bytesTransferred + " of " + r.messageLength + " bytes");
            }
        }
    }

    private void onResend(final Partner p, final int seq, final Object owner, final int frameIndex)
    {
        if (p.holdingRefused)
        {
            // The partner's ring stayed full for the frame before: each later one would wait as long while this
            // thread drains nothing, and two ranks sending into each other's full rings then crawl.
            return;
        }
        if (owner instanceof Request r)
        {
            sender.sendRequestFrame(p, r, frameIndex, seq, true);
        }
        else if (owner instanceof EagerCopy c)
        {
            sender.sendEagerCopy(p, c, seq, true);
        }
        else
        {
            sender.sendNotice(p, (Notice)owner, seq, true);
        }
        holdIfRefused(p, seq);
    }

    private void onFrameAcked(final Object owner, final int frameIndex)
    {
        if (owner instanceof Request r)
        {
            if (--r.framesUnacked == 0)
            {
                if (SendHold.NONE == r.sendHold)
                {
                    maybeCompleteSend(r);
                }
                else
                {
                    requests.endSendHold(r);
                }
            }
        }
        else if (owner instanceof EagerCopy c)
        {
            final Request r = c.request;
            recycle(c);
            if (null != r && --r.framesUnacked == 0)
            {
                maybeCompleteSend(r);
            }
        }
        else
        {
            freeNotices.addFirst((Notice)owner);
        }
    }

    private void onFrameAbandoned(final String reason, final Object owner, final int frameIndex)
    {
        if (owner instanceof Request r)
        {
            if (SendHold.NONE == r.sendHold)
            {
                requests.fail(r, reason);
            }
            else if (--r.framesUnacked == 0)
            {
                requests.endSendHold(r);
            }
        }
        else if (owner instanceof EagerCopy c)
        {
            final Request r = c.request;
            recycle(c);
            if (null != r)
            {
                requests.fail(r, reason);
            }
        }
        else
        {
            freeNotices.addFirst((Notice)owner);
        }
    }

    /**
     * Oldest first: every copy takes its turn, so each has its view of a message length made while that length is
     * warming up, not the first time a stall reaches a copy deep in the pool.
     */
    private void recycle(final EagerCopy c)
    {
        c.request = null;
        freeCopies.addLast(c);
    }
}
