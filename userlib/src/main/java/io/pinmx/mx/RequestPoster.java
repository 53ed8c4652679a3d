package io.pinmx.mx;

import io.pinmx.mx.buffer.BufferPool;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.mx.match.MatchQueue;
import io.pinmx.mx.match.UnexpectedMessage;
import io.pinmx.mx.match.UnexpectedQueue;
import io.pinmx.mx.reliability.NanoClock;
import org.agrona.concurrent.CachedNanoClock;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Turns the API's sends and receives into posted requests: a send is described, staged or
 * declared outside the endpoint lock (a declare may pin a whole buffer), then queued to its
 * partner; a receive takes a matching unexpected message or waits in the match queue, and a
 * rendezvous it matched is declared after the lock is let go. Owns no state of its own.
 */
final class RequestPoster
{
    private final ReentrantLock lock;
    private final NanoClock clock;
    private final CachedNanoClock now;
    private final EndpointOptions options;
    private final int mediumFragmentBytes;
    private final RequestPool requests;
    private final PartnerTable partners;
    private final OutboundQueue outbound;
    private final Rendezvous rendezvous;
    private final FrameReceiver receiver;
    private final MatchQueue matchQueue;
    private final UnexpectedQueue unexpected;
    private final BufferPool pool;

    RequestPoster(
        final ReentrantLock lock, final NanoClock clock, final CachedNanoClock now, final EndpointOptions options,
        final int mediumFragmentBytes, final RequestPool requests, final PartnerTable partners,
        final OutboundQueue outbound, final Rendezvous rendezvous, final FrameReceiver receiver,
        final MatchQueue matchQueue, final UnexpectedQueue unexpected, final BufferPool pool)
    {
        this.lock = lock;
        this.clock = clock;
        this.now = now;
        this.options = options;
        this.mediumFragmentBytes = mediumFragmentBytes;
        this.requests = requests;
        this.partners = partners;
        this.outbound = outbound;
        this.rendezvous = rendezvous;
        this.receiver = receiver;
        this.matchQueue = matchQueue;
        this.unexpected = unexpected;
        this.pool = pool;
    }

    /**
     * An eager send is described and queued in one hold of the lock; a rendezvous send lets
     * the lock go while it declares its buffer.
     */
    Request postSend(
        final Partner p,
        final long matchInfo,
        final MemorySegment single,
        final MemorySegment[] vector,
        final int count,
        final boolean synchronous)
    {
        final Request r;
        lock.lock();
        try
        {
            checkConnected(p, matchInfo);
            r = requests.allocate();
            try
            {
                describe(r, p, matchInfo, single, vector, count, synchronous);
                if (!synchronous && r.messageLength <= options.rendezvousThresholdBytes)
                {
                    prepareEager(r, r.messageLength);
                    return queue(p, r);
                }
            }
            catch (final RuntimeException ex)
            {
                discard(r);
                throw ex;
            }
        }
        finally
        {
            lock.unlock();
        }
        try
        {
            rendezvous.declareSend(r, r.messageLength);
        }
        catch (final RuntimeException ex)
        {
            lock.lock();
            try
            {
                discard(r);
            }
            finally
            {
                lock.unlock();
            }
            throw ex;
        }
        lock.lock();
        try
        {
            return queue(p, r);
        }
        finally
        {
            lock.unlock();
        }
    }

    private static void describe(
        final Request r, final Partner p, final long matchInfo, final MemorySegment single,
        final MemorySegment[] vector, final int count, final boolean synchronous)
    {
        if (null != single)
        {
            r.vector.set(single);
        }
        else
        {
            r.vector.set(vector, count);
        }
        final long length = r.vector.totalBytes();
        r.partner = p;
        r.matchInfo = matchInfo;
        r.messageLength = length;
        r.synchronous = synchronous;
        r.status.source = p.id();
        r.status.matchInfo = matchInfo;
        r.status.messageLength = length;
    }

    private void discard(final Request r)
    {
        requests.releaseResources(r);
        r.vector.clear();
        requests.free(r);
    }

    /**
     * Queues the described send to its partner (failing it if the partner failed meanwhile) and sends what fits.
     */
    private Request queue(final Partner p, final Request r)
    {
        now.update(clock.nanoTime());
        r.framesUnacked = r.framesTotal;
        RequestPool.moveTo(r, RequestState.QUEUED);
        if (!p.isConnected())
        {
            requests.fail(r, "send to " + p.describe() + ": partner is " + p.state() + ": " + p.failure);
            return r;
        }
        if (Request.Kind.SEND_RENDEZVOUS == r.kind)
        {
            p.outstandingRendezvous++;
        }
        outbound.enqueue(p, r);
        partners.pump(p);
        return r;
    }

    private void checkConnected(final Partner p, final long matchInfo)
    {
        if (!p.isConnected())
        {
            throw new MxException("send to " + p.describe() + " matchInfo " + MatchInfo.format(matchInfo) +
                ": partner is " + p.state() + (null != p.failure ? ": " + p.failure : ""));
        }
    }

    private void prepareEager(final Request r, final long length)
    {
        r.kind = Request.Kind.SEND_EAGER;
        r.framesTotal = length <= options.smallMaxBytes ? 1 : (int)((length + mediumFragmentBytes - 1) / mediumFragmentBytes);
        if (length <= options.smallMaxBytes)
        {
            // Copied from the vector into the send window's EagerCopy when it goes out: nothing to stage.
            return;
        }
        if (1 == r.vector.count() && r.vector.segment(0).isNative())
        {
            r.sendData = r.vector.segment(0);
        }
        else
        {
            r.staging = pool.acquire(length);
            r.vector.copyOut(r.staging.segment());
            r.sendData = r.staging.segment();
        }
    }

    Request postReceive(
        final int source,
        final long matchInfo,
        final long matchMask,
        final MemorySegment single,
        final MemorySegment[] vector,
        final int count)
    {
        MatchInfo.validate(matchInfo, matchMask);
        lock.lock();
        try
        {
            final Partner from = MatchInfo.ANY_SOURCE != source ? partners.byId(source) : null;
            final Request r = requests.allocate();
            try
            {
                if (null != single)
                {
                    r.vector.set(single);
                }
                else
                {
                    r.vector.set(vector, count);
                }
            }
            catch (final RuntimeException ex)
            {
                requests.free(r);
                throw ex;
            }
            r.kind = Request.Kind.RECEIVE;
            r.matchInfo = matchInfo;
            if (null != from && ConnectionState.FAILED == from.connection)
            {
                requests.fail(r, "receive from " + from.describe() + ": " + from.failure);
                return r;
            }
            final UnexpectedMessage m = unexpected.match(source, matchInfo, matchMask);
            if (null != m)
            {
                // taking a message may queue frames (a rendezvous' NOTIFY), which the send window stamps
                now.update(clock.nanoTime());
                receiver.takeUnexpected(r, m);
            }
            else
            {
                r.posted.set(source, matchInfo, matchMask);
                matchQueue.post(r.posted);
                RequestPool.moveTo(r, RequestState.POSTED);
            }
            return r;
        }
        finally
        {
            lock.unlock();
            rendezvous.declarePending();
        }
    }
}
