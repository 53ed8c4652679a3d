package io.pinmx.mx;

import io.pinmx.mx.reliability.NanoClock;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.wire.NotifyFrame;
import io.pinmx.pin.wire.NotifyStatus;
import io.pinmx.regioncache.RegionCache;
import org.agrona.concurrent.CachedNanoClock;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Owns the rendezvous protocol: a large send declares its buffer and waits for the receiver's
 * NOTIFY ({@link SendState}); a matched receive declares its buffer, has the driver pull the
 * message, and owes the sender a NOTIFY ({@link ReceiveState}). Region declares (an ioctl that
 * may pin a whole buffer) run outside the endpoint lock: a send declares before it is queued,
 * and a receive matched under the lock waits in the declare queue until the thread that
 * matched it has let the lock go ({@link #declarePending()}). A RNDV the endpoint sent itself is not pulled: the
 * receive copies the send's buffer, which lives in this process ({@link #ownSend}), and notifies as a
 * pull would have.
 */
final class Rendezvous
{
    /** A rendezvous send's progress towards its NOTIFY. */
    enum SendState
    {
        /** Not a rendezvous send. */
        NONE,
        /** RNDV queued or out; the receiver has not said how its pull ended. */
        AWAITING_NOTIFY,
        /** The NOTIFY came ({@link Request#notifyStatus}); the send completes once its RNDV is acked. */
        NOTIFIED
    }

    /** Who may touch a rendezvous receive's buffer besides its owner. */
    enum ReceiveState
    {
        /** Nobody: not a rendezvous receive, or its pull ended. */
        NONE,
        /** Matched; its buffer is being (or waits to be) declared outside the lock. */
        DECLARING,
        /** Released by its owner while DECLARING: recycled once the declare ends. */
        DECLARING_RELEASED,
        /** The driver is pulling into the buffer: keep lease and staging until its pull event. */
        PULLING,
        /** Released by its owner while PULLING: recycled at its pull event. */
        PULLING_RELEASED;

        boolean holdsBuffer()
        {
            return NONE != this;
        }

        boolean isReleased()
        {
            return DECLARING_RELEASED == this || PULLING_RELEASED == this;
        }

        /**
         * @return the state after the owner released the request.
         */
        ReceiveState released()
        {
            return switch (this)
            {
                case DECLARING, DECLARING_RELEASED -> DECLARING_RELEASED;
                case PULLING, PULLING_RELEASED -> PULLING_RELEASED;
                case NONE -> NONE;
            };
        }
    }

    private final ReentrantLock lock;
    private final EndpointAddress self;
    private final NanoClock clock;
    private final CachedNanoClock now;
    private final DriverEndpoint driver;
    private final RegionCache regionCache;
    private final RequestPool requests;
    private final PartnerTable partners;
    private final OutboundQueue outbound;
    private final ArrayDeque<Request> declareQueue;
    /** Size of {@link #declareQueue}, readable without the lock so an idle round skips it. */
    private volatile int declaresQueued;
    private final PullSpec pullSpec = new PullSpec();
    private final NotifyFrame notifyIn = new NotifyFrame();
    private final RefusedPullStarts refusedStarts;
    private final Consumer<Request> retryStart = r -> declared(r, null);

    Rendezvous(
        final ReentrantLock lock, final EndpointAddress self, final NanoClock clock, final CachedNanoClock now,
        final DriverEndpoint driver, final RegionCache regionCache, final RequestPool requests,
        final PartnerTable partners, final OutboundQueue outbound)
    {
        this.lock = lock;
        this.self = self;
        this.clock = clock;
        this.now = now;
        this.driver = driver;
        this.regionCache = regionCache;
        this.requests = requests;
        this.partners = partners;
        this.outbound = outbound;
        this.declareQueue = new ArrayDeque<>(requests.size());
        this.refusedStarts = new RefusedPullStarts(requests.size());
    }

    /**
     * Declares a rendezvous send's buffer (staging a heap vector first). Called without the
     * endpoint lock, on a request no other thread can see yet.
     */
    void declareSend(final Request r, final long length)
    {
        r.kind = Request.Kind.SEND_RENDEZVOUS;
        r.framesTotal = 1;
        r.rendezvousSend = SendState.AWAITING_NOTIFY;
        if (0 == length)
        {
            return;
        }
        if (r.vector.isAllNative())
        {
            regionCache.acquire(r.vector.nonEmptySegments(), r.vector.nonEmptyCount(), r.lease);
        }
        else
        {
            r.staging = requests.stagingFor(length, r);
            r.vector.copyOut(r.staging.segment());
            regionCache.acquire(r.staging.segment(), r.lease);
        }
    }

    /**
     * A receive matched a RNDV: complete at once when nothing is to be pulled, otherwise queue its declare.
     */
    void matched(
        final Request r, final Partner p, final long matchInfo, final long length, final int remoteRegionId,
        final long remoteOffset, final int senderHandle)
    {
        r.partner = p;
        r.matchInfo = matchInfo;
        r.messageLength = length;
        r.status.source = p.id();
        r.status.matchInfo = matchInfo;
        r.status.messageLength = length;
        r.status.truncated = length > r.vector.totalBytes();
        r.senderHandle = senderHandle;
        final long pullBytes = Math.min(length, r.vector.totalBytes());
        if (0 == pullBytes)
        {
            requests.complete(r);
            outbound.queueNotice(p, senderHandle, length > 0 ? NotifyStatus.TRUNCATED : NotifyStatus.OK, 0);
            partners.pump(p);
            return;
        }
        final Request ownSend = ownSend(r, p, remoteRegionId, remoteOffset);
        if (null != ownSend)
        {
            copyFromOwnSend(r, ownSend, pullBytes);
            return;
        }
        r.remoteRegionId = remoteRegionId;
        r.remoteOffset = remoteOffset;
        r.pullBytes = pullBytes;
        r.rendezvousReceive = ReceiveState.DECLARING;
        p.outstandingRendezvous++;
        RequestPool.moveTo(r, RequestState.PULLING);
        declareQueue.addLast(r);
        declaresQueued = declareQueue.size();
    }

    /**
     * A RNDV from this endpoint itself names a send of ours still waiting for its NOTIFY: the receive copies it in
     * this process rather than declaring its buffer and having the driver pull our own region. Not when either
     * buffer is at a raw address ({@link SegmentVector#isAllJvmMapped}): such a RNDV is pulled as any other, and the
     * driver reports what faults; nor when the RNDV names no such send (released or failed meanwhile).
     *
     * @return that send, or null.
     */
    private Request ownSend(final Request r, final Partner p, final int remoteRegionId, final long remoteOffset)
    {
        if (!p.is(self) || !r.vector.isAllJvmMapped())
        {
            return null;
        }
        final Request send = requests.byHandle(r.senderHandle);
        return null != send && send.partner == p && SendState.AWAITING_NOTIFY == send.rendezvousSend &&
            send.lease.isHeld() && send.lease.regionId() == remoteRegionId && send.lease.offset() == remoteOffset &&
            send.vector.isAllJvmMapped() ? send : null;
    }

    /** Copies the first {@code bytes} of our own send into the receive, then ends both as a pull would. */
    private void copyFromOwnSend(final Request r, final Request send, final long bytes)
    {
        final Partner p = r.partner;
        try
        {
            if (null != send.staging)
            {
                r.vector.copyIn(0, send.staging.segment(), 0, bytes);
            }
            else
            {
                r.vector.copyIn(send.vector, bytes);
            }
        }
        catch (final RuntimeException ex)
        {
            // a buffer whose arena was closed while its request was in flight
            requests.fail(r, "copy of " + bytes + " bytes from this endpoint's own send failed: " + ex);
            outbound.queueNotice(p, r.senderHandle, NotifyStatus.PULL_FAILED, 0);
            partners.pump(p);
            return;
        }
        r.status.bytesTransferred = bytes;
        requests.complete(r);
        outbound.queueNotice(p, r.senderHandle, r.messageLength > bytes ? NotifyStatus.TRUNCATED : NotifyStatus.OK,
            bytes);
        partners.pump(p);
    }

    /**
     * Declares the buffers of matched receives outside the lock, then starts their pulls.
     * Call without holding the endpoint lock.
     */
    void declarePending()
    {
        while (0 != declaresQueued)
        {
            final Request r;
            lock.lock();
            try
            {
                r = declareQueue.pollFirst();
                declaresQueued = declareQueue.size();
            }
            finally
            {
                lock.unlock();
            }
            if (null == r)
            {
                return;
            }
            RuntimeException failure = null;
            try
            {
                requests.declareDestination(r, r.pullBytes);
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
            lock.lock();
            try
            {
                now.update(clock.nanoTime());
                declared(r, failure);
            }
            finally
            {
                lock.unlock();
            }
        }
    }

    private void declared(final Request r, final RuntimeException declareFailure)
    {
        final Partner p = r.partner;
        if (RequestState.PULLING != r.state || ReceiveState.DECLARING != r.rendezvousReceive)
        {
            requests.endBufferHold(r);
            return;
        }
        try
        {
            if (null != declareFailure)
            {
                throw declareFailure;
            }
            startPull(r, p);
            refusedStarts.accepted(r, now.nanoTime());
            r.rendezvousReceive = ReceiveState.PULLING;
        }
        catch (final RuntimeException ex)
        {
            if (null == declareFailure && refusedStarts.defer(r, ex, now.nanoTime()))
            {
                return;
            }
            r.rendezvousReceive = ReceiveState.NONE;
            p.outstandingRendezvous--;
            requests.fail(r, "could not start the pull of " + r.pullBytes + " bytes from " + p.describe() + ": " +
                ex.getMessage());
            outbound.queueNotice(p, r.senderHandle, NotifyStatus.NO_RESOURCES, 0);
            partners.pump(p);
        }
    }

    /**
     * Starts again the pulls the driver refused for want of room (under the lock, after a poll freed some). A
     * receive released or failed meanwhile only lets its buffer go.
     */
    void retryRefusedPulls()
    {
        refusedStarts.retryEach(retryStart);
    }

    /** @return whether pull starts the driver refused for want of room wait to be tried again. */
    boolean hasRefusedPulls()
    {
        return !refusedStarts.isEmpty();
    }

    private void startPull(final Request r, final Partner p)
    {
        pullSpec.peerIndex(p.peerIndex)
            .remoteEndpointIndex(p.remoteEndpointIndex)
            .remoteSessionId(p.remoteSessionId)
            .remoteRegionId(r.remoteRegionId)
            .remoteOffset(r.remoteOffset)
            .localRegionId(r.lease.regionId())
            .localOffset(r.lease.offset())
            .length(r.pullBytes)
            .pullHandle(r.handle());
        driver.startPull(pullSpec);
    }

    /**
     * A pull that timed out while the partner is still connected is only slow (loss, a
     * descheduled peer): pull again rather than fail. A partner that went silent is failed
     * by the keepalive timer, which fails the request with it.
     */
    private boolean retryPull(final Request r, final DriverError error)
    {
        final Partner p = r.partner;
        if (DriverError.TIMEOUT != error || RequestState.PULLING != r.state || !p.isConnected())
        {
            return false;
        }
        try
        {
            startPull(r, p);
            return true;
        }
        catch (final RuntimeException ex)
        {
            return false;
        }
    }

    /**
     * @return false if no pull of ours has this handle (a stale event).
     */
    boolean onPullEnded(final int handle, final long bytes, final DriverError errorKind, final CharSequence errorMessage)
    {
        final Request r = requests.byHandle(handle);
        if (null == r || (ReceiveState.PULLING != r.rendezvousReceive && ReceiveState.PULLING_RELEASED != r.rendezvousReceive))
        {
            return false;
        }
        if (requests.endHeldFailure(r, bytes))
        {
            return true;
        }
        if (null != errorKind && retryPull(r, errorKind))
        {
            r.pullRetries++;
            return true;
        }
        final Partner p = r.partner;
        if (RequestState.PULLING != r.state || ReceiveState.PULLING != r.rendezvousReceive)
        {
            requests.endBufferHold(r);
            return true;
        }
        r.rendezvousReceive = ReceiveState.NONE;
        p.outstandingRendezvous--;
        if (null == errorKind && null != r.staging)
        {
            r.vector.copyIn(0, r.staging.segment(), 0, bytes);
        }
        r.status.bytesTransferred = bytes;
        if (null == errorKind)
        {
            requests.complete(r);
        }
        else
        {
            requests.fail(r, "pull of " + r.messageLength + " bytes from " + p.describe() + " failed after " + bytes +
                " bytes: pull failed: " + errorKind + ": " + errorMessage +
                (r.pullRetries > 0 ? " (after " + r.pullRetries + " earlier pull timeouts)" : ""));
        }
        final NotifyStatus status = null != errorKind ? notifyStatusFor(errorKind) :
            bytes < r.messageLength ? NotifyStatus.TRUNCATED : NotifyStatus.OK;
        outbound.queueNotice(p, r.senderHandle, status, bytes);
        partners.pump(p);
        return true;
    }

    private static NotifyStatus notifyStatusFor(final DriverError error)
    {
        return switch (error)
        {
            case SEGMENT_FAULT -> NotifyStatus.SEGMENT_FAULT;
            case UNKNOWN_REGION -> NotifyStatus.UNKNOWN_REGION;
            case OUT_OF_RANGE -> NotifyStatus.OUT_OF_RANGE;
            case TIMEOUT -> NotifyStatus.TIMEOUT;
            case NO_RESOURCES -> NotifyStatus.NO_RESOURCES;
            default -> NotifyStatus.PULL_FAILED;
        };
    }

    /**
     * @return false if no rendezvous send to this partner waits for this NOTIFY (stale or duplicate).
     */
    boolean onNotify(final Partner p, final MemorySegment buffer, final long offset)
    {
        notifyIn.wrap(buffer, offset);
        final Request r = requests.byHandle(notifyIn.sendHandle());
        if (null == r || SendState.AWAITING_NOTIFY != r.rendezvousSend || r.partner != p)
        {
            return false;
        }
        r.rendezvousSend = SendState.NOTIFIED;
        r.notifyStatus = notifyIn.status();
        r.status.bytesTransferred = notifyIn.bytesPulled();
        outbound.maybeCompleteSend(r);
        return true;
    }
}
