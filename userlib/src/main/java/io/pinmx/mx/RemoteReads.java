package io.pinmx.mx;

import io.pinmx.mx.reliability.NanoClock;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.PullSpec;
import org.agrona.concurrent.CachedNanoClock;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Owns one-sided reads ({@link EndpointRegions#iget}): the driver pulls pieces of a partner's exposed region into a
 * destination vector, with no message to the partner and nothing for its process to do. A read declares its
 * destination (or a staging buffer for heap memory) outside the endpoint lock before anyone can see it, then pulls
 * its pieces one run at a time: consecutive pieces that are contiguous in the remote region go as one pull, each
 * landing where the previous one ended in the destination. While a pull runs the request holds its buffer
 * ({@link Rendezvous.ReceiveState#PULLING}), and the partner counts as busy, so its silence is measured and a dead
 * partner fails the read. A pull that timed out while the partner is connected is only slow: it is started again,
 * waiting behind refused starts like a new one.
 */
final class RemoteReads
{
    private final ReentrantLock lock;
    private final NanoClock clock;
    private final CachedNanoClock now;
    private final DriverEndpoint driver;
    private final RequestPool requests;
    private final PullSpec pullSpec = new PullSpec();
    private final RefusedPullStarts refusedStarts;
    private final Consumer<Request> retryStart = this::retryStart;

    RemoteReads(
        final ReentrantLock lock, final NanoClock clock, final CachedNanoClock now, final DriverEndpoint driver,
        final RequestPool requests)
    {
        this.lock = lock;
        this.clock = clock;
        this.now = now;
        this.driver = driver;
        this.requests = requests;
        this.refusedStarts = new RefusedPullStarts(requests.size());
    }

    /**
     * @throws IllegalArgumentException naming the piece or count that is wrong.
     * @throws MxException              if the partner is not connected or every request is in use.
     */
    Request post(
        final Partner p, final int remoteRegionId, final long key, final long[] remoteOffsets, final long[] lengths,
        final int pieces, final MemorySegment[] destination, final int count)
    {
        final long total = checkPieces(remoteOffsets, lengths, pieces);
        final Request r;
        lock.lock();
        try
        {
            checkConnected(p, remoteRegionId);
            r = requests.allocate();
            try
            {
                r.vector.set(destination, count);
            }
            catch (final RuntimeException ex)
            {
                requests.free(r);
                throw ex;
            }
        }
        finally
        {
            lock.unlock();
        }
        final long destinationBytes = r.vector.totalBytes();
        if (destinationBytes != total)
        {
            discard(r);
            throw new IllegalArgumentException("read of " + total + " bytes in " + pieces + " pieces into a " +
                "destination of " + destinationBytes + " bytes: the sizes must agree");
        }
        describe(r, p, remoteRegionId, remoteOffsets, lengths, pieces, total);
        r.readKey = key;
        try
        {
            declare(r, total);
        }
        catch (final RuntimeException ex)
        {
            discard(r);
            throw ex;
        }
        lock.lock();
        try
        {
            now.update(clock.nanoTime());
            start(r, p, total);
            return r;
        }
        finally
        {
            lock.unlock();
        }
    }

    private static long checkPieces(final long[] remoteOffsets, final long[] lengths, final int pieces)
    {
        if (null == remoteOffsets || null == lengths || pieces < 0 || pieces > remoteOffsets.length ||
            pieces > lengths.length)
        {
            throw new IllegalArgumentException("read of " + pieces + " pieces: offsets and lengths must hold that " +
                "many (" + (null == remoteOffsets ? "null" : remoteOffsets.length) + " offsets, " +
                (null == lengths ? "null" : lengths.length) + " lengths)");
        }
        long total = 0;
        for (int i = 0; i < pieces; i++)
        {
            if (remoteOffsets[i] < 0 || lengths[i] < 0 || remoteOffsets[i] + lengths[i] < 0 ||
                total + lengths[i] < 0)
            {
                throw new IllegalArgumentException("read piece " + i + ": remote offset " + remoteOffsets[i] +
                    ", length " + lengths[i] + " is negative or overflows");
            }
            total += lengths[i];
        }
        return total;
    }

    private static void checkConnected(final Partner p, final int remoteRegionId)
    {
        if (!p.isConnected())
        {
            throw new MxException("read of region " + remoteRegionId + " of " + p.describe() + ": partner is " +
                p.state() + (null != p.failure ? ": " + p.failure : ""));
        }
    }

    private static void describe(
        final Request r, final Partner p, final int remoteRegionId, final long[] remoteOffsets, final long[] lengths,
        final int pieces, final long total)
    {
        r.kind = Request.Kind.READ;
        r.partner = p;
        r.remoteRegionId = remoteRegionId;
        r.readOffsets = remoteOffsets;
        r.readLengths = lengths;
        r.readPieces = pieces;
        r.readFrom = 0;
        r.readTo = 0;
        r.readDestinationOffset = 0;
        r.messageLength = total;
        r.status.source = p.id();
        r.status.messageLength = total;
    }

    /** Called without the lock, on a request nobody else sees yet. */
    private void declare(final Request r, final long total)
    {
        if (0 != total)
        {
            requests.declareDestination(r, total);
        }
    }

    private void discard(final Request r)
    {
        lock.lock();
        try
        {
            requests.releaseResources(r);
            r.vector.clear();
            forgetPieces(r);
            requests.free(r);
        }
        finally
        {
            lock.unlock();
        }
    }

    private void start(final Request r, final Partner p, final long total)
    {
        if (!p.isConnected())
        {
            forgetPieces(r);
            requests.fail(r, "read of region " + r.remoteRegionId + " of " + p.describe() + ": partner is " +
                p.state() + ": " + p.failure);
            return;
        }
        if (0 == total)
        {
            forgetPieces(r);
            requests.complete(r);
            return;
        }
        RequestPool.moveTo(r, RequestState.PULLING);
        r.rendezvousReceive = Rendezvous.ReceiveState.PULLING;
        p.outstandingRendezvous++;
        pullNextRun(r);
    }

    /** Starts the pull of the pieces from {@code readTo} on; a refusal fails the read. */
    private void pullNextRun(final Request r)
    {
        int from = r.readTo;
        while (from < r.readPieces && 0 == r.readLengths[from])
        {
            from++;
        }
        int to = from + 1;
        long bytes = r.readLengths[from];
        while (to < r.readPieces && r.readOffsets[to] == r.readOffsets[to - 1] + r.readLengths[to - 1])
        {
            bytes += r.readLengths[to++];
        }
        r.readFrom = from;
        r.readTo = to;
        r.pullBytes = bytes;
        tryStart(r);
    }

    private void tryStart(final Request r)
    {
        if (refusedStarts.queueBehind(r, now.nanoTime()))
        {
            return;
        }
        try
        {
            startPull(r);
            refusedStarts.accepted(r, now.nanoTime());
        }
        catch (final RuntimeException ex)
        {
            if (refusedStarts.defer(r, ex, now.nanoTime()))
            {
                return;
            }
            final long bytes = r.pullBytes;
            final int from = r.readFrom;
            end(r, "could not start the pull of " + bytes + " bytes at offset " + r.readOffsets[from] +
                " of region " + r.remoteRegionId + " from " + r.partner.describe() + ": " + ex.getMessage());
        }
    }

    /**
     * Starts again the pulls the driver refused for want of room (under the lock, after a poll freed some).
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

    /** A read released or failed while its pull waited to start only lets its buffer go, as at a pull's end. */
    private void retryStart(final Request r)
    {
        if (requests.endHeldFailure(r, r.readDestinationOffset))
        {
            return;
        }
        if (RequestState.PULLING != r.state || Rendezvous.ReceiveState.PULLING != r.rendezvousReceive)
        {
            forgetPieces(r);
            requests.endBufferHold(r);
            return;
        }
        tryStart(r);
    }

    private void startPull(final Request r)
    {
        final Partner p = r.partner;
        pullSpec.peerIndex(p.peerIndex)
            .remoteEndpointIndex(p.remoteEndpointIndex)
            .remoteSessionId(p.remoteSessionId)
            .remoteRegionId(r.remoteRegionId)
            .remoteOffset(r.readOffsets[r.readFrom])
            .localRegionId(r.lease.regionId())
            .localOffset(r.lease.offset() + r.readDestinationOffset)
            .length(r.pullBytes)
            .remoteKey(r.readKey)
            .pullHandle(r.handle());
        driver.startPull(pullSpec);
    }

    /**
     * The pull of a read ended (under the lock, from the progress round).
     *
     * @return false if the read has no pull running (a stale event).
     */
    boolean onPullEnded(final Request r, final long bytes, final DriverError errorKind, final CharSequence errorMessage)
    {
        if (Rendezvous.ReceiveState.PULLING != r.rendezvousReceive &&
            Rendezvous.ReceiveState.PULLING_RELEASED != r.rendezvousReceive)
        {
            return false;
        }
        if (requests.endHeldFailure(r, r.readDestinationOffset))
        {
            return true;
        }
        if (RequestState.PULLING != r.state || Rendezvous.ReceiveState.PULLING != r.rendezvousReceive)
        {
            forgetPieces(r);
            requests.endBufferHold(r);
            return true;
        }
        if (null != errorKind)
        {
            if (DriverError.TIMEOUT == errorKind && r.partner.isConnected())
            {
                r.pullRetries++;
                tryStart(r);
                return true;
            }
            end(r, "pull of " + r.pullBytes + " bytes at offset " + r.readOffsets[r.readFrom] + " of region " +
                r.remoteRegionId + " from " + r.partner.describe() + " failed after " + bytes + " bytes: " +
                errorKind + ": " + errorMessage + (r.pullRetries > 0 ? " (after " + r.pullRetries +
                " earlier pull timeouts)" : ""));
            return true;
        }
        r.readDestinationOffset += r.pullBytes;
        if (r.readDestinationOffset < r.messageLength)
        {
            pullNextRun(r);
        }
        else
        {
            end(r, null);
        }
        return true;
    }

    /**
     * Ends the read's hold on its buffer, then completes it (copying a staged read in) or fails it with the reason.
     */
    private void end(final Request r, final String failure)
    {
        r.rendezvousReceive = Rendezvous.ReceiveState.NONE;
        r.partner.outstandingRendezvous--;
        forgetPieces(r);
        if (null != failure)
        {
            r.status.bytesTransferred = r.readDestinationOffset;
            requests.fail(r, failure);
            return;
        }
        if (null != r.staging)
        {
            r.vector.copyIn(0, r.staging.segment(), 0, r.messageLength);
        }
        r.status.bytesTransferred = r.messageLength;
        requests.complete(r);
    }

    /** The caller's arrays are its own again. */
    private static void forgetPieces(final Request r)
    {
        r.readOffsets = null;
        r.readLengths = null;
    }
}
