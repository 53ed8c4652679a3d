package io.pinmx.mx;

import io.pinmx.mx.buffer.BufferPool;
import io.pinmx.mx.buffer.PooledBuffer;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.wire.NotifyStatus;
import io.pinmx.regioncache.RegionCache;
import org.agrona.concurrent.CachedNanoClock;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * Owns the endpoint's requests: the preallocated pool with its free list, the wire handles
 * naming them, their terminal moves (complete, fail, cancel, release) with the buffers and
 * region leases they hold, and the completion queue {@code peek} reads (an intrusive list in
 * completion order, so nothing allocates). Guarded by the endpoint lock.
 */
final class RequestPool
{
    private final Request[] requests;
    private final int[] free;
    private int freeCount;
    private final RegionCache regionCache;
    private final BufferPool buffers;
    private final String endpointName;
    private final DriverEndpoint driver;
    private final CachedNanoClock now;
    /**
     * Whether a waiter may park on a request (DEDICATED: {@link CallerWaits} parks on it, and the move to a done state
     * must be a volatile store); an INVOKER endpoint's waiters run rounds instead, and a release store does.
     */
    private final boolean waitersPark;
    /** How long a failure may wait for its pull's end ({@link Request#failureAtPullEnd}): the options' own. */
    private final long pullEndPatienceNs;
    /** Requests whose failure waits for their pull's end. */
    private int heldFailures;
    private Request completedHead;
    private Request completedTail;

    RequestPool(
        final Endpoint endpoint, final DriverEndpoint driver, final int maxRequests, final RegionCache regionCache,
        final BufferPool buffers, final String endpointName, final CachedNanoClock now, final boolean waitersPark,
        final long pullEndPatienceNs)
    {
        this.driver = driver;
        this.pullEndPatienceNs = pullEndPatienceNs;
        this.waitersPark = waitersPark;
        this.now = now;
        this.regionCache = regionCache;
        this.buffers = buffers;
        this.endpointName = endpointName;
        requests = new Request[maxRequests];
        free = new int[maxRequests];
        for (int i = maxRequests - 1; i >= 0; i--)
        {
            requests[i] = new Request(endpoint, i);
            free[freeCount++] = i;
        }
    }

    int size()
    {
        return requests.length;
    }

    Request at(final int index)
    {
        return requests[index];
    }

    /**
     * @throws MxException when every request is in use.
     */
    Request allocate()
    {
        if (0 == freeCount)
        {
            throw new MxException("endpoint " + endpointName + ": all " + requests.length +
                " requests are in use (release completed requests, or raise maxRequests)");
        }
        final Request r = requests[free[--freeCount]];
        r.generation = (r.generation + 1) & 0x7FFF;
        r.status.reset();
        r.staging = null;
        r.framesTotal = 0;
        r.framesUnacked = 0;
        r.framesLossless = 0;
        r.sendHold = SendHold.NONE;
        r.rendezvousSend = Rendezvous.SendState.NONE;
        r.rendezvousReceive = Rendezvous.ReceiveState.NONE;
        r.notifyStatus = NotifyStatus.OK;
        r.pullRetries = 0;
        r.pullStartRefused = false;
        return r;
    }

    /**
     * Returns a request that never left FREE (its posting failed) to the free list.
     */
    void free(final Request r)
    {
        free[freeCount++] = r.index;
    }

    /**
     * @return the live request this wire handle names, or null (stale or unknown handle).
     */
    Request byHandle(final int handle)
    {
        final int index = handle & 0xFFFF;
        if (index >= requests.length)
        {
            return null;
        }
        final Request r = requests[index];
        return r.handle() == handle && RequestState.FREE != r.state ? r : null;
    }

    /** A move to a state that is not done: nobody parks for one, so the fence of a volatile store buys nothing. */
    static void moveTo(final Request r, final RequestState next)
    {
        checkMove(r, next);
        if (next.isDone())
        {
            throw new IllegalStateException(r + ": a move to " + next + " is the pool's (moveToDone)");
        }
        r.setStateReleased(next);
    }

    private void moveToDone(final Request r, final RequestState next)
    {
        checkMove(r, next);
        if (waitersPark)
        {
            r.state = next;
        }
        else
        {
            r.setStateReleased(next);
        }
    }

    private static void checkMove(final Request r, final RequestState next)
    {
        if (!r.state.canMoveTo(next))
        {
            throw new IllegalStateException(r + " cannot move from " + r.state + " to " + next);
        }
    }

    void complete(final Request r)
    {
        releaseResources(r);
        moveToDone(r, RequestState.COMPLETED);
        noteDone(r);
    }

    /**
     * Completes an eager send whose frames are all in lossless queues but not yet acknowledged: its bytes are staged
     * (unless they already are) so a resend never reads the owner's buffer again, and the window holds the request
     * until its frames are acknowledged ({@link #endSendHold}). A message too large to stage is left to complete on
     * its acks.
     */
    void completeHeldBySendWindow(final Request r)
    {
        if (null == r.staging)
        {
            if (r.messageLength > buffers.maxBufferBytes())
            {
                return;
            }
            r.staging = buffers.acquire(r.messageLength);
            r.vector.copyOut(r.staging.segment());
            r.sendData = r.staging.segment();
        }
        r.status.bytesTransferred = r.messageLength;
        r.sendHold = SendHold.HELD;
        moveToDone(r, RequestState.COMPLETED);
        noteDone(r);
    }

    /**
     * The send window let go of a request it held (its last frame acknowledged, or abandoned with its partner):
     * the staged bytes go back, and the request is recycled if its owner released it meanwhile.
     */
    void endSendHold(final Request r)
    {
        final boolean released = SendHold.HELD_RELEASED == r.sendHold;
        r.sendHold = SendHold.NONE;
        releaseResources(r);
        if (released)
        {
            recycle(r);
        }
    }

    /**
     * Fails the request with the reason unless it is done already. A request whose buffer a
     * declare may still use keeps its lease and staging until that ends. A request whose pull the driver is
     * running is not done until that pull ends: the driver may place replies into its buffer until then, and an
     * owner told it is done would reuse or free that buffer. The failure waits ({@link Request#failureAtPullEnd}),
     * the driver is asked to cancel the pull so that its end comes now rather than at its timeout, and whoever sees
     * the pull end ends the request with it ({@link #endHeldFailure}).
     *
     * @throws RuntimeException if the driver refused to let go of the request's region (the request failed all the
     *                          same).
     */
    void fail(final Request r, final String reason)
    {
        if (r.state.isDone())
        {
            return;
        }
        if (RequestState.PULLING == r.state && Rendezvous.ReceiveState.PULLING == r.rendezvousReceive)
        {
            if (null == r.failureAtPullEnd)
            {
                r.failureAtPullEnd = reason;
                r.failureHeldSinceNs = now.nanoTime();
                heldFailures++;
                cancelPull(r);
            }
            return;
        }
        failNow(r, reason);
    }

    /** Fails the request now; a buffer a declare or pull still uses stays held until that ends. */
    private void failNow(final Request r, final String reason)
    {
        r.failureAtPullEnd = null;
        r.status.error = r + ": " + reason;
        moveToDone(r, RequestState.FAILED);
        noteDone(r);
        // after the state: under the endpoint lock nobody sees the order, and a refusal here leaves it failed
        if (!r.rendezvousReceive.holdsBuffer())
        {
            releaseResources(r);
        }
    }

    /**
     * Asks the driver to end the request's pull at once. A driver that cannot (it lacks the operation, or is closed)
     * leaves the failure waiting for the pull's own end, or for {@link #endHeldFailures}.
     */
    private void cancelPull(final Request r)
    {
        try
        {
            driver.cancelPull(r.handle());
        }
        catch (final DriverException cannotCancel)
        {
            // the held failure takes effect at the pull's own end event, as without a cancel
        }
    }

    /**
     * The pull of a request whose failure waited for it ended, or the driver can write no more (closed, or its
     * progress stopped): the request lets its buffer go and fails with the reason it was given.
     *
     * @return false if no failure waited.
     */
    boolean endHeldFailure(final Request r, final long bytesTransferred)
    {
        final String reason = r.failureAtPullEnd;
        if (null == reason)
        {
            return false;
        }
        heldFailures--;
        r.failureAtPullEnd = null;
        r.rendezvousReceive = Rendezvous.ReceiveState.NONE;
        r.partner.outstandingRendezvous--;
        r.readOffsets = null;
        r.readLengths = null;
        r.status.bytesTransferred = bytesTransferred;
        fail(r, reason);
        return true;
    }

    /**
     * Failures that waited for their pull's end for longer than {@link #pullEndPatienceNs} take effect: the end
     * event did not come (a driver fault), and no wait may depend on an event that may not come. The request keeps
     * its buffer until that end comes, if ever, and its error says that bytes may still land there until then.
     */
    void endOverdueHeldFailures(final long nowNs)
    {
        if (0 == heldFailures)
        {
            return;
        }
        for (final Request r : requests)
        {
            if (null != r.failureAtPullEnd && nowNs - r.failureHeldSinceNs - pullEndPatienceNs > 0)
            {
                final String reason = r.failureAtPullEnd + "; its pull's end was not reported within " +
                    TimeUnit.NANOSECONDS.toMillis(pullEndPatienceNs) + " ms of its cancel (the driver may still " +
                    "write into the buffer until it is)";
                heldFailures--;
                failNow(r, reason);
            }
        }
    }

    /** The driver is closed or no longer runs: failures held for pulls that can end no more take effect. */
    void endHeldFailures()
    {
        for (final Request r : requests)
        {
            if (RequestState.PULLING == r.state)
            {
                endHeldFailure(r, 0);
            }
        }
    }

    void cancelled(final Request r)
    {
        moveToDone(r, RequestState.CANCELLED);
        noteDone(r);
    }

    /**
     * The owner is done with the request: recycle it, or, while a declare or pull still uses
     * its buffer, leave that to the end of the pull.
     *
     * @throws IllegalStateException if it was released already or is not done yet.
     */
    void release(final Request r)
    {
        checkLive(r);
        if (!r.state.isDone())
        {
            throw new IllegalStateException("release of " + r + ": not done yet (test, wait or cancel it first)");
        }
        unlinkCompleted(r);
        if (SendHold.HELD == r.sendHold)
        {
            r.sendHold = SendHold.HELD_RELEASED;
            return;
        }
        if (r.rendezvousReceive.holdsBuffer())
        {
            r.rendezvousReceive = r.rendezvousReceive.released();
            return;
        }
        recycle(r);
    }

    void recycle(final Request r)
    {
        moveTo(r, RequestState.FREE);
        r.rendezvousReceive = Rendezvous.ReceiveState.NONE;
        r.vector.clear();
        r.partner = null;
        r.sendData = MemorySegment.NULL;
        free(r);
    }

    /**
     * @throws IllegalStateException naming the request if its owner released it already.
     */
    void checkLive(final Request r)
    {
        if (RequestState.FREE == r.state || r.rendezvousReceive.isReleased() || SendHold.HELD_RELEASED == r.sendHold)
        {
            throw new IllegalStateException("request " + Integer.toHexString(r.handle()) + " was already released");
        }
    }

    /**
     * The declare or pull of a request that failed meanwhile, or that its owner released, ended: its buffer is free.
     */
    void endBufferHold(final Request r)
    {
        final boolean orphaned = r.rendezvousReceive.isReleased();
        r.rendezvousReceive = Rendezvous.ReceiveState.NONE;
        r.partner.outstandingRendezvous--;
        releaseResources(r);
        if (orphaned)
        {
            recycle(r);
        }
    }

    void releaseResources(final Request r)
    {
        if (r.lease.isHeld())
        {
            regionCache.release(r.lease);
        }
        if (null != r.staging)
        {
            buffers.release(r.staging);
            r.staging = null;
        }
    }

    /**
     * Declares the buffer a pull will write {@code bytes} into: the request's own native segments, or a pooled staging
     * buffer for heap memory (copied in when the pull ends). Called without the endpoint lock.
     */
    void declareDestination(final Request r, final long bytes)
    {
        if (r.vector.isAllNative())
        {
            regionCache.acquire(r.vector.nonEmptySegments(), r.vector.nonEmptyCount(), r.lease);
        }
        else
        {
            r.staging = stagingFor(bytes, r);
            regionCache.acquire(r.staging.segment(), r.lease);
        }
    }

    /**
     * @throws MxException naming the request when a heap buffer is too large to stage.
     */
    PooledBuffer stagingFor(final long length, final Request r)
    {
        if (length > buffers.maxBufferBytes())
        {
            throw new MxException(r + ": heap buffer of " + length + " bytes exceeds the staging limit of " +
                buffers.maxBufferBytes() + " bytes; use a native segment");
        }
        return buffers.acquire(length);
    }

    /**
     * @return the oldest completed request not yet released, or null.
     */
    Request oldestCompleted()
    {
        return completedHead;
    }

    private void noteDone(final Request r)
    {
        if (null == r.completedPrev && completedHead != r)
        {
            r.completedNext = null;
            if (null == completedTail)
            {
                completedHead = r;
            }
            else
            {
                completedTail.completedNext = r;
                r.completedPrev = completedTail;
            }
            completedTail = r;
        }
        r.wake();
    }

    private void unlinkCompleted(final Request r)
    {
        if (null == r.completedPrev && completedHead != r)
        {
            return;
        }
        final Request prev = r.completedPrev;
        final Request next = r.completedNext;
        if (null == prev)
        {
            completedHead = next;
        }
        else
        {
            prev.completedNext = next;
        }
        if (null == next)
        {
            completedTail = prev;
        }
        else
        {
            next.completedPrev = prev;
        }
        r.completedPrev = null;
        r.completedNext = null;
    }
}
