package io.pinmx.mx;

import io.pinmx.mx.buffer.BufferPool;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.mx.match.MatchQueue;
import io.pinmx.mx.match.PostedReceive;
import io.pinmx.mx.match.UnexpectedMessage;
import io.pinmx.mx.match.UnexpectedQueue;
import io.pinmx.mx.reliability.NanoClock;
import io.pinmx.mx.reliability.PartnerState;
import io.pinmx.mx.reliability.ReceiveTracker;
import io.pinmx.mx.reliability.ResendTimer;
import io.pinmx.mx.reliability.SendWindow;
import io.pinmx.mx.reliability.SequenceNumbers;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.wire.AckFrame;
import io.pinmx.pin.wire.ConnectFrame;
import io.pinmx.pin.wire.ConnectStatus;
import io.pinmx.pin.wire.DropReason;
import io.pinmx.pin.wire.EagerFrame;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.FrameReader;
import io.pinmx.pin.wire.MediumFragFrame;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.NotifyFrame;
import io.pinmx.pin.wire.NotifyStatus;
import io.pinmx.pin.wire.RndvFrame;
import io.pinmx.regioncache.RegionCache;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An MX-style endpoint over one driver endpoint: connect to partners, post sends and
 * receives with 64-bit match info, and run the protocol that makes them happen (eager
 * tiny/small/medium, rendezvous with pull and notify, per-partner sequence numbers, acks
 * and resends).
 * <p>
 * One lock guards all protocol state; the progress thread (or a caller in
 * {@link ProgressMode#CALLER} mode) holds it while it polls the driver and runs timers, and
 * the API methods hold it briefly to post work. Frames go out under the lock, from one
 * reused header buffer, so the hot path allocates nothing per message.
 */
public final class Endpoint implements AutoCloseable
{
    private static final int SEQUENCE_BITS = 31;
    private static final int POLL_LIMIT = 64;
    private static final int SPIN_ITERATIONS = 200;
    private static final int YIELD_ITERATIONS = 50;
    private static final long MAX_IDLE_WAIT_NS = 1_000_000L;
    private static final long MIN_IDLE_WAIT_NS = 10_000L;
    private static final int HEADER_BUFFER_BYTES = 256;
    private static final long STAGING_MAX_BYTES = 1L << 30;

    private final DriverEndpoint driver;
    private final EndpointOptions options;
    private final NanoClock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final ReentrantLock awaitLock = new ReentrantLock();
    private final SequenceNumbers sequences = new SequenceNumbers(SEQUENCE_BITS);
    private final ResendTimer resendTimer;
    private final MatchQueue matchQueue = new MatchQueue();
    private final BufferPool pool = new BufferPool(STAGING_MAX_BYTES);
    private final UnexpectedQueue unexpected;
    private final RegionCache regionCache;
    private final Request[] requests;
    private final int[] freeRequests;
    private int freeRequestCount;
    private final ArrayDeque<Request> completed = new ArrayDeque<>();
    private final ArrayList<Partner> partners = new ArrayList<>();
    private final ArrayList<Partner[]> partnersByPeer = new ArrayList<>();
    private final ArrayDeque<Notice> freeNotices = new ArrayDeque<>();
    private final int localEndpointIndex;
    private final int localSessionId;
    private final int mediumFragmentBytes;
    private final EndpointAddress address;

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
    private final FrameFlyweight headerOut = new FrameFlyweight();
    private final FrameFlyweight frameIn = new FrameFlyweight();
    private final EagerFrame eagerIn = new EagerFrame();
    private final MediumFragFrame mediumIn = new MediumFragFrame();
    private final RndvFrame rndvIn = new RndvFrame();
    private final NotifyFrame notifyIn = new NotifyFrame();
    private final AckFrame ackIn = new AckFrame();
    private final NackFrame nackIn = new NackFrame();
    private final ConnectFrame connectIn = new ConnectFrame();
    private final PullSpec pullSpec = new PullSpec();
    private final EventHandler eventHandler = this::onEvent;
    private final SendWindow.AckedHandler ackedHandler = this::onFrameAcked;
    private final SendWindow.AckedHandler failedFrameHandler = this::onFrameAbandoned;
    private final SendWindow.ResendHandler resendHandler = this::onResend;
    private Partner resendPartner;
    private String failureReason;
    private long nowNs;
    private long droppedFrames;

    private final Thread progressThread;
    private volatile boolean closed;

    private Endpoint(final PinDriver pinDriver, final EndpointOptions options)
    {
        this.options = options;
        this.clock = options.clock;
        this.driver = pinDriver.open(options.driverConfig);
        this.address = driver.address();
        this.localEndpointIndex = address.endpointIndex();
        this.localSessionId = address.sessionId();
        this.mediumFragmentBytes = Math.min(options.mediumFragmentBytes, driver.info().mediumFragPayloadBytes());
        if ((options.rendezvousThresholdBytes + mediumFragmentBytes - 1) / mediumFragmentBytes > MediumFragFrame.MAX_FRAG_COUNT)
        {
            driver.close();
            throw new IllegalArgumentException("rendezvous threshold " + options.rendezvousThresholdBytes +
                " needs more than " + MediumFragFrame.MAX_FRAG_COUNT + " fragments of " + mediumFragmentBytes + " bytes");
        }
        this.resendTimer = new ResendTimer(options.resendTimeoutNs, options.maxResends);
        this.unexpected = new UnexpectedQueue(pool, options.unexpectedMaxMessages, options.unexpectedMaxBytes);
        this.regionCache = new RegionCache(
            new DriverRegionDeclarer(driver), options.regionCacheMaxRegions, options.regionCacheMaxBytes);
        requests = new Request[options.maxRequests];
        freeRequests = new int[options.maxRequests];
        for (int i = options.maxRequests - 1; i >= 0; i--)
        {
            requests[i] = new Request(this, i);
            freeRequests[freeRequestCount++] = i;
        }
        for (final FrameKind kind : FrameKind.values())
        {
            headerViews[kind.code()] = headerBuffer.asSlice(0, kind.headerBytes());
        }
        if (ProgressMode.THREAD == options.progressMode)
        {
            progressThread = Thread.ofPlatform().daemon().name("pinmx-progress-" + address).unstarted(this::runProgress);
            progressThread.start();
        }
        else
        {
            progressThread = null;
        }
    }

    /**
     * Opens an endpoint on the driver.
     *
     * @throws io.pinmx.pin.spi.DriverException if the driver cannot open it (the message says why).
     */
    public static Endpoint open(final PinDriver driver, final EndpointOptions options)
    {
        return new Endpoint(driver, options);
    }

    /**
     * @return this endpoint's address (board, index, session id) to give to peers.
     */
    public EndpointAddress address()
    {
        return address;
    }

    public EndpointOptions options()
    {
        return options;
    }

    /**
     * @return frames this library dropped as malformed or stale (the driver counts its own drops).
     */
    public long droppedFrames()
    {
        lock.lock();
        try
        {
            return droppedFrames;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return native bytes the staging and unexpected-message pool has allocated (it reuses them).
     */
    public long pooledBufferBytes()
    {
        return pool.allocatedBytes();
    }

    /**
     * @return messages waiting in the unexpected queue.
     */
    public int unexpectedMessages()
    {
        lock.lock();
        try
        {
            return unexpected.size();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return eager bytes held for unexpected messages (bounded by {@code unexpectedMaxBytes}).
     */
    public long unexpectedBytes()
    {
        lock.lock();
        try
        {
            return unexpected.storedEagerBytes();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return the partner with this id.
     * @throws IllegalArgumentException naming the id if there is none.
     */
    public Partner partner(final int partnerId)
    {
        lock.lock();
        try
        {
            return partnerById(partnerId);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Connects to a remote endpoint, presenting its application key. Returns at once if already connected.
     *
     * @throws MxException naming the remote endpoint and the cause: wrong key, no reply within the timeout.
     */
    public Partner connect(final EndpointAddress remote, final int applicationKey, final Duration timeout)
    {
        checkOpen();
        final int peerIndex = driver.acquirePeer(remote.board());
        final long deadline = System.nanoTime() + timeout.toNanos();
        final Partner partner;
        lock.lock();
        try
        {
            nowNs = clock.nanoTime();
            final Partner existing = partnerAt(peerIndex, remote.endpointIndex());
            if (null != existing && PartnerState.FAILED != existing.state)
            {
                partner = existing;
                if (PartnerState.CONNECTED == partner.state)
                {
                    if (partner.keyVerified && partner.verifiedKey == applicationKey)
                    {
                        return partner;
                    }
                    startVerify(partner, applicationKey);
                }
            }
            else
            {
                partner = newPartner(remote, peerIndex, nonZeroRandom());
                partner.connectKey = applicationKey;
                partner.connectTimeoutNs = timeout.toNanos();
                partner.connectDeadlineNs = nowNs + partner.connectTimeoutNs;
                sendConnectRequest(partner);
            }
        }
        finally
        {
            lock.unlock();
        }
        while (true)
        {
            final PartnerState state = partner.state;
            if (PartnerState.FAILED == state)
            {
                throw new MxException(partner.failure);
            }
            if (PartnerState.CONNECTED == state)
            {
                final int verified = verifyOutcome(partner, applicationKey, deadline, timeout);
                if (verified == ConnectStatus.OK.code())
                {
                    return partner;
                }
                if (verified >= 0)
                {
                    throw new MxException("connect to " + partner.describe() + " refused: " +
                        ConnectStatus.fromCode(verified) + (ConnectStatus.BAD_KEY.code() == verified ?
                        " (application key 0x" + Integer.toHexString(applicationKey) + " is not the endpoint's)" : ""));
                }
            }
            idleWait(MAX_IDLE_WAIT_NS);
        }
    }

    /**
     * A session the partner opened to us has not checked our key: ask it, without disturbing the session.
     */
    private void startVerify(final Partner p, final int applicationKey)
    {
        if (p.verifying && p.connectKey == applicationKey)
        {
            return;
        }
        p.connectKey = applicationKey;
        p.connectSeq = nonZeroRandom();
        p.verifying = true;
        p.verifyStatusCode = -1;
        sendConnectRequest(p);
    }

    /**
     * @return the verify reply's status code, or -1 while none came (resending meanwhile).
     * @throws MxException when the deadline passes.
     */
    private int verifyOutcome(final Partner p, final int applicationKey, final long deadline, final Duration timeout)
    {
        lock.lock();
        try
        {
            nowNs = clock.nanoTime();
            if (!p.verifying)
            {
                if (p.keyVerified && p.verifiedKey == applicationKey)
                {
                    return ConnectStatus.OK.code();
                }
                startVerify(p, applicationKey);
            }
            final int code = p.verifyStatusCode;
            if (code >= 0)
            {
                p.verifying = false;
                if (ConnectStatus.OK.code() == code)
                {
                    p.keyVerified = true;
                    p.verifiedKey = applicationKey;
                }
                return code;
            }
            if (System.nanoTime() - deadline >= 0)
            {
                p.verifying = false;
                throw new MxException("connect to " + p.describe() + " timed out: no CONNECT_REPLY within " +
                    timeout.toMillis() + " ms");
            }
            if (nowNs - p.connectSentNs >= options.connectResendNs)
            {
                sendConnectRequest(p);
            }
            return -1;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Eager or rendezvous send of one segment, by size.
     */
    public Request isend(final Partner destination, final long matchInfo, final MemorySegment buffer)
    {
        return postSend(destination, matchInfo, buffer, null, 0, false);
    }

    /**
     * Send of a vector of 1..256 segments, gathered in order.
     */
    public Request isend(final Partner destination, final long matchInfo, final MemorySegment[] vector, final int count)
    {
        return postSend(destination, matchInfo, null, vector, count, false);
    }

    /**
     * Synchronous send: completes only after a receive matched it (always by rendezvous).
     */
    public Request issend(final Partner destination, final long matchInfo, final MemorySegment buffer)
    {
        return postSend(destination, matchInfo, buffer, null, 0, true);
    }

    public Request issend(final Partner destination, final long matchInfo, final MemorySegment[] vector, final int count)
    {
        return postSend(destination, matchInfo, null, vector, count, true);
    }

    /**
     * Posts a receive.
     *
     * @param source    a partner id, or {@link MatchInfo#ANY_SOURCE}.
     * @param matchMask bits of matchInfo that must agree; bits of matchInfo outside it must be 0.
     */
    public Request irecv(final int source, final long matchInfo, final long matchMask, final MemorySegment buffer)
    {
        return postReceive(source, matchInfo, matchMask, buffer, null, 0);
    }

    public Request irecv(
        final int source, final long matchInfo, final long matchMask, final MemorySegment[] vector, final int count)
    {
        return postReceive(source, matchInfo, matchMask, null, vector, count);
    }

    /**
     * Blocking send: returns once the send completed, releasing its request.
     *
     * @throws MxException naming the cause if it failed or did not complete within the timeout.
     */
    public void send(final Partner destination, final long matchInfo, final MemorySegment buffer, final Duration timeout)
    {
        finish(isend(destination, matchInfo, buffer), timeout, null);
    }

    /**
     * Blocking receive into one segment; the outcome is copied into {@code status}.
     */
    public void recv(
        final int source, final long matchInfo, final long matchMask, final MemorySegment buffer,
        final Status status, final Duration timeout)
    {
        finish(irecv(source, matchInfo, matchMask, buffer), timeout, status);
    }

    private void finish(final Request request, final Duration timeout, final Status out)
    {
        if (!request.await(timeout))
        {
            final String what = request.toString();
            if (!request.cancel())
            {
                throw new MxException(what + " did not complete within " + timeout.toMillis() + " ms");
            }
            request.release();
            throw new MxException(what + " did not match within " + timeout.toMillis() + " ms and was cancelled");
        }
        final String error = request.status.error;
        if (null != out)
        {
            out.copyFrom(request.status);
        }
        request.release();
        if (null != error)
        {
            throw new MxException(error);
        }
    }

    /**
     * Looks for an unexpected message a receive would match, without taking it.
     *
     * @return true, with source, match info and true length in {@code out}, if there is one.
     */
    public boolean iprobe(final int source, final long matchInfo, final long matchMask, final Status out)
    {
        MatchInfo.validate(matchInfo, matchMask);
        progressFromCaller();
        lock.lock();
        try
        {
            final UnexpectedMessage m = unexpected.peek(source, matchInfo, matchMask);
            if (null == m)
            {
                return false;
            }
            out.reset();
            out.source = m.source();
            out.matchInfo = m.matchInfo();
            out.messageLength = m.length();
            return true;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Blocking probe.
     *
     * @return true if such a message arrived within the timeout.
     */
    public boolean probe(
        final int source, final long matchInfo, final long matchMask, final Status out, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!iprobe(source, matchInfo, matchMask, out))
        {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return false;
            }
            idleWait(Math.min(remaining, MAX_IDLE_WAIT_NS));
        }
        return true;
    }

    /**
     * @return a completed request not yet released (oldest completion first), or null; it stays unreleased.
     */
    public Request peek()
    {
        progressFromCaller();
        lock.lock();
        try
        {
            Request r;
            while (null != (r = completed.peekFirst()))
            {
                if (r.state.isDone())
                {
                    return r;
                }
                completed.pollFirst();
                r.inCompletedQueue = false;
            }
            return null;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Waits until one of the first {@code count} requests is done.
     *
     * @return its index, or -1 if none finished within the timeout.
     */
    public int waitAny(final Request[] requests, final int count, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true)
        {
            for (int i = 0; i < count; i++)
            {
                if (requests[i].state.isDone())
                {
                    return i;
                }
            }
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return -1;
            }
            if (null == progressThread)
            {
                progressFromCaller();
            }
            idleWait(Math.min(remaining, MAX_IDLE_WAIT_NS));
        }
    }

    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (null != progressThread)
        {
            LockSupport.unpark(progressThread);
            try
            {
                progressThread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        lock.lock();
        try
        {
            for (final Partner p : partners)
            {
                failPartner(p, "endpoint " + address + " closed");
            }
            regionCache.close();
            driver.close();
            pool.close();
            arena.close();
        }
        finally
        {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- posting

    private Request postSend(
        final Partner p,
        final long matchInfo,
        final MemorySegment single,
        final MemorySegment[] vector,
        final int count,
        final boolean synchronous)
    {
        checkOpen();
        lock.lock();
        try
        {
            nowNs = clock.nanoTime();
            if (PartnerState.CONNECTED != p.state)
            {
                throw new MxException("send to " + p.describe() + " matchInfo " + MatchInfo.format(matchInfo) +
                    ": partner is " + p.state + (null != p.failure ? ": " + p.failure : ""));
            }
            final Request r = allocate();
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
                final long length = r.vector.totalBytes();
                r.partner = p;
                r.matchInfo = matchInfo;
                r.messageLength = length;
                r.synchronous = synchronous;
                r.status.source = p.id();
                r.status.matchInfo = matchInfo;
                r.status.messageLength = length;
                if (!synchronous && length <= options.rendezvousThresholdBytes)
                {
                    prepareEager(r, length);
                }
                else
                {
                    prepareRendezvous(r, length);
                }
            }
            catch (final RuntimeException ex)
            {
                releaseResources(r);
                r.vector.clear();
                free(r);
                throw ex;
            }
            r.framesUnacked = r.framesTotal;
            moveTo(r, RequestState.QUEUED);
            p.pendingFrames.addLast(r);
            pump(p);
            return r;
        }
        finally
        {
            lock.unlock();
        }
    }

    private void prepareEager(final Request r, final long length)
    {
        r.kind = Request.Kind.SEND_EAGER;
        r.framesTotal = length <= options.smallMaxBytes ? 1 : (int)((length + mediumFragmentBytes - 1) / mediumFragmentBytes);
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

    private void prepareRendezvous(final Request r, final long length)
    {
        r.kind = Request.Kind.SEND_RENDEZVOUS;
        r.framesTotal = 1;
        if (length > 0)
        {
            if (r.vector.isAllNative())
            {
                regionCache.acquire(r.vector.nonEmptySegments(), r.vector.nonEmptyCount(), r.lease);
            }
            else
            {
                r.staging = stagingFor(length, r);
                r.vector.copyOut(r.staging.segment());
                regionCache.acquire(r.staging.segment(), r.lease);
            }
        }
        r.partner.outstandingRendezvous++;
    }

    private Request postReceive(
        final int source,
        final long matchInfo,
        final long matchMask,
        final MemorySegment single,
        final MemorySegment[] vector,
        final int count)
    {
        checkOpen();
        MatchInfo.validate(matchInfo, matchMask);
        lock.lock();
        try
        {
            nowNs = clock.nanoTime();
            if (MatchInfo.ANY_SOURCE != source)
            {
                partnerById(source);
            }
            final Request r = allocate();
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
                free(r);
                throw ex;
            }
            r.kind = Request.Kind.RECEIVE;
            r.matchInfo = matchInfo;
            if (MatchInfo.ANY_SOURCE != source && PartnerState.FAILED == partners.get(source).state)
            {
                fail(r, "receive from " + partners.get(source).describe() + ": " + partners.get(source).failure);
                return r;
            }
            final UnexpectedMessage m = unexpected.match(source, matchInfo, matchMask);
            if (null != m)
            {
                takeUnexpected(r, m);
            }
            else
            {
                r.posted.set(source, matchInfo, matchMask);
                matchQueue.post(r.posted);
                moveTo(r, RequestState.POSTED);
            }
            return r;
        }
        finally
        {
            lock.unlock();
        }
    }

    private void takeUnexpected(final Request r, final UnexpectedMessage m)
    {
        final Partner p = partners.get(m.source());
        if (UnexpectedMessage.Kind.RENDEZVOUS == m.kind())
        {
            final long length = m.length();
            final int regionId = m.senderRegionId();
            final long regionOffset = m.senderRegionOffset();
            final int senderHandle = m.senderHandle();
            final long matchInfo = m.matchInfo();
            unexpected.release(m);
            startRendezvousReceive(r, p, matchInfo, length, regionId, regionOffset, senderHandle);
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
            p.incomingRequest = r;
            p.incomingUnexpected = null;
        }
        unexpected.release(m);
        if (complete)
        {
            complete(r);
        }
        else
        {
            moveTo(r, RequestState.RECEIVING);
        }
    }

    private void beginEagerReceive(final Request r, final Partner p, final long matchInfo, final long length)
    {
        r.partner = p;
        r.matchInfo = matchInfo;
        r.messageLength = length;
        r.status.source = p.id();
        r.status.matchInfo = matchInfo;
        r.status.messageLength = length;
        r.status.truncated = length > r.vector.totalBytes();
    }

    // ---------------------------------------------------------------- request lifecycle

    boolean cancel(final Request r)
    {
        lock.lock();
        try
        {
            checkLive(r);
            if (RequestState.POSTED != r.state || !matchQueue.remove(r.posted))
            {
                return false;
            }
            moveTo(r, RequestState.CANCELLED);
            noteDone(r);
            return true;
        }
        finally
        {
            lock.unlock();
        }
    }

    void release(final Request r)
    {
        lock.lock();
        try
        {
            checkLive(r);
            if (!r.state.isDone())
            {
                throw new IllegalStateException("release of " + r + ": not done yet (test, wait or cancel it first)");
            }
            if (r.pullInFlight)
            {
                r.releaseWhenPullEnds = true;
                return;
            }
            recycle(r);
        }
        finally
        {
            lock.unlock();
        }
    }

    private void recycle(final Request r)
    {
        moveTo(r, RequestState.FREE);
        r.vector.clear();
        r.partner = null;
        r.sendData = MemorySegment.NULL;
        free(r);
    }

    private void checkLive(final Request r)
    {
        if (RequestState.FREE == r.state || r.releaseWhenPullEnds)
        {
            throw new IllegalStateException("request " + Integer.toHexString(r.handle()) + " was already released");
        }
    }

    boolean awaitRequest(final Request r, final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        int idle = 0;
        while (!r.state.isDone())
        {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return false;
            }
            if (null == progressThread)
            {
                progressFromCaller();
                if (!r.state.isDone())
                {
                    idleWait(Math.min(remaining, MAX_IDLE_WAIT_NS));
                }
            }
            else if (++idle < SPIN_ITERATIONS)
            {
                Thread.onSpinWait();
            }
            else
            {
                r.waiter = Thread.currentThread();
                if (!r.state.isDone())
                {
                    LockSupport.parkNanos(Math.min(remaining, MAX_IDLE_WAIT_NS));
                }
                r.waiter = null;
            }
        }
        return true;
    }

    /**
     * One round of progress on the caller's thread in {@link ProgressMode#CALLER} mode; nothing otherwise.
     */
    void progressFromCaller()
    {
        if (null == progressThread && !closed)
        {
            progressOnce();
        }
    }

    private void idleWait(final long maxNs)
    {
        if (null != progressThread)
        {
            LockSupport.parkNanos(Math.min(maxNs, 50_000L));
            return;
        }
        progressOnce();
        if (awaitLock.tryLock())
        {
            try
            {
                driver.await(Math.min(maxNs, idleWaitNs()));
            }
            finally
            {
                awaitLock.unlock();
            }
        }
        else
        {
            Thread.yield();
        }
    }

    private Request allocate()
    {
        if (0 == freeRequestCount)
        {
            throw new MxException("endpoint " + address + ": all " + requests.length +
                " requests are in use (release completed requests, or raise maxRequests)");
        }
        final Request r = requests[freeRequests[--freeRequestCount]];
        r.generation = (r.generation + 1) & 0x7FFF;
        r.status.reset();
        r.staging = null;
        r.framesTotal = 0;
        r.framesUnacked = 0;
        r.notified = false;
        r.notifyStatus = NotifyStatus.OK;
        r.pullInFlight = false;
        r.pullRetries = 0;
        r.releaseWhenPullEnds = false;
        return r;
    }

    private void free(final Request r)
    {
        freeRequests[freeRequestCount++] = r.index;
    }

    private Request requestFor(final int handle)
    {
        final int index = handle & 0xFFFF;
        if (index >= requests.length)
        {
            return null;
        }
        final Request r = requests[index];
        return r.handle() == handle && RequestState.FREE != r.state ? r : null;
    }

    private void moveTo(final Request r, final RequestState next)
    {
        if (!r.state.canMoveTo(next))
        {
            throw new IllegalStateException(r + " cannot move from " + r.state + " to " + next);
        }
        r.state = next;
    }

    private void complete(final Request r)
    {
        releaseResources(r);
        moveTo(r, RequestState.COMPLETED);
        noteDone(r);
    }

    private void fail(final Request r, final String reason)
    {
        if (r.state.isDone())
        {
            return;
        }
        if (!r.pullInFlight)
        {
            releaseResources(r);
        }
        r.status.error = r + ": " + reason;
        moveTo(r, RequestState.FAILED);
        noteDone(r);
    }

    private void noteDone(final Request r)
    {
        if (!r.inCompletedQueue)
        {
            r.inCompletedQueue = true;
            completed.addLast(r);
        }
        r.wake();
    }

    private void releaseResources(final Request r)
    {
        if (r.lease.isHeld())
        {
            regionCache.release(r.lease);
        }
        if (null != r.staging)
        {
            pool.release(r.staging);
            r.staging = null;
        }
    }

    private io.pinmx.mx.buffer.PooledBuffer stagingFor(final long length, final Request r)
    {
        if (length > pool.maxBufferBytes())
        {
            throw new MxException(r + ": heap buffer of " + length + " bytes exceeds the staging limit of " +
                pool.maxBufferBytes() + " bytes; use a native segment");
        }
        return pool.acquire(length);
    }

    // ---------------------------------------------------------------- partners

    private Partner newPartner(final EndpointAddress remote, final int peerIndex, final int connectSeq)
    {
        final Partner p = new Partner(partners.size(), remote, peerIndex, connectSeq);
        p.sendInitialSeq = ThreadLocalRandom.current().nextInt() & 0x7FFF_FFFF;
        p.lastHeardNs = nowNs;
        partners.add(p);
        while (partnersByPeer.size() <= peerIndex)
        {
            partnersByPeer.add(null);
        }
        Partner[] slots = partnersByPeer.get(peerIndex);
        if (null == slots)
        {
            slots = new Partner[EndpointAddress.MAX_ENDPOINT_INDEX + 1];
            partnersByPeer.set(peerIndex, slots);
        }
        slots[remote.endpointIndex()] = p;
        return p;
    }

    private Partner partnerAt(final int peerIndex, final int endpointIndex)
    {
        if (peerIndex < 0 || peerIndex >= partnersByPeer.size())
        {
            return null;
        }
        final Partner[] slots = partnersByPeer.get(peerIndex);
        return null == slots ? null : slots[endpointIndex];
    }

    private Partner partnerById(final int partnerId)
    {
        if (partnerId < 0 || partnerId >= partners.size())
        {
            throw new IllegalArgumentException("no partner with id " + partnerId + " (endpoint " + address +
                " knows " + partners.size() + " partners)");
        }
        return partners.get(partnerId);
    }

    private void establish(final Partner p, final int remoteSessionId, final int remoteInitialSeq)
    {
        p.remoteSessionId = remoteSessionId;
        p.remoteInitialSeq = remoteInitialSeq;
        p.window = new SendWindow(sequences, options.sendWindowFrames, p.sendInitialSeq);
        p.tracker = new ReceiveTracker(sequences, remoteInitialSeq, options.ackDelayNs, options.ackEveryFrames);
        p.lastHeardNs = nowNs;
        p.moveTo(PartnerState.CONNECTED);
    }

    private void failPartner(final Partner p, final String reason)
    {
        if (PartnerState.FAILED == p.state)
        {
            return;
        }
        p.failure = reason;
        p.moveTo(PartnerState.FAILED);
        failureReason = reason;
        if (null != p.window)
        {
            p.window.clear(failedFrameHandler);
        }
        Object pending;
        while (null != (pending = p.pendingFrames.pollFirst()))
        {
            onFrameAbandoned(pending, 0);
        }
        p.headNextFrame = 0;
        if (null != p.incomingRequest)
        {
            fail(p.incomingRequest, reason);
            p.incomingRequest = null;
        }
        p.incomingUnexpected = null;
        unexpected.removeAllFrom(p.id());
        for (final Request r : requests)
        {
            final RequestState s = r.state;
            if (RequestState.POSTED == s && r.posted.source() == p.id())
            {
                matchQueue.remove(r.posted);
                fail(r, reason);
            }
            else if ((RequestState.PULLING == s || RequestState.SENDING == s || RequestState.RECEIVING == s) &&
                r.partner == p)
            {
                fail(r, reason);
            }
        }
    }

    // ---------------------------------------------------------------- sending frames

    private void pump(final Partner p)
    {
        while (PartnerState.CONNECTED == p.state && p.window.hasRoom())
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
                    moveTo(r, RequestState.SENDING);
                }
                final int frameIndex = p.headNextFrame;
                final int seq = p.window.append(r, frameIndex, nowNs);
                if (0 == frameIndex)
                {
                    r.firstSeq = seq;
                }
                sendRequestFrame(p, r, frameIndex, seq, false);
                if (++p.headNextFrame == r.framesTotal)
                {
                    p.pendingFrames.pollFirst();
                    p.headNextFrame = 0;
                }
            }
            else
            {
                final Notice n = (Notice)head;
                p.pendingFrames.pollFirst();
                sendNotice(p, n, p.window.append(n, 0, nowNs), false);
            }
        }
    }

    private void sendRequestFrame(final Partner p, final Request r, final int frameIndex, final int seq, final boolean resend)
    {
        final long length = r.messageLength;
        if (Request.Kind.SEND_RENDEZVOUS == r.kind)
        {
            rndvOut.wrap(headerBuffer, 0);
            rndvOut.encodeHeader(FrameKind.RNDV, p.remoteEndpointIndex, localEndpointIndex, p.remoteSessionId,
                localSessionId, seq, 0);
            rndvOut.encode(r.matchInfo, length, r.lease.isHeld() ? r.lease.regionId() : 0,
                r.lease.isHeld() ? r.lease.offset() : 0, r.handle());
            transmit(p, FrameKind.RNDV, emptyPayload, resend);
        }
        else if (1 == r.framesTotal && length <= options.smallMaxBytes)
        {
            final FrameKind kind = length <= options.tinyMaxBytes ? FrameKind.TINY : FrameKind.SMALL;
            eagerOut.wrap(headerBuffer, 0);
            eagerOut.encodeHeader(kind, p.remoteEndpointIndex, localEndpointIndex, p.remoteSessionId, localSessionId,
                seq, (int)length);
            eagerOut.encode(r.matchInfo, (int)length);
            transmit(p, kind, 0 == length ? emptyPayload : r.sendData, resend);
        }
        else
        {
            final long offset = (long)frameIndex * mediumFragmentBytes;
            final int bytes = (int)Math.min(mediumFragmentBytes, length - offset);
            mediumOut.wrap(headerBuffer, 0);
            mediumOut.encodeHeader(FrameKind.MEDIUM_FRAG, p.remoteEndpointIndex, localEndpointIndex,
                p.remoteSessionId, localSessionId, seq, bytes);
            mediumOut.encode(r.matchInfo, (int)length, (int)offset, frameIndex, r.framesTotal, r.firstSeq);
            transmit(p, FrameKind.MEDIUM_FRAG, r.fragments.view(r.sendData, frameIndex, offset, bytes), resend);
        }
    }

    private void sendNotice(final Partner p, final Notice n, final int seq, final boolean resend)
    {
        notifyOut.wrap(headerBuffer, 0);
        notifyOut.encodeHeader(FrameKind.NOTIFY, p.remoteEndpointIndex, localEndpointIndex, p.remoteSessionId,
            localSessionId, seq, 0);
        notifyOut.encode(n.sendHandle, n.status, n.bytesPulled);
        transmit(p, FrameKind.NOTIFY, emptyPayload, resend);
    }

    private void sendAck(final Partner p, final boolean requestAck)
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
     * Piggy-backs the partner's ack on every frame and hands it to the driver. A driver
     * error is kept for the failure message; the frame stays in the window and is resent.
     */
    private void transmit(final Partner p, final FrameKind kind, final MemorySegment payload, final boolean resend)
    {
        headerOut.wrap(headerBuffer, 0);
        headerOut.ackSeq(p.tracker.expectedSeq());
        if (resend)
        {
            headerOut.flags(headerOut.flags() | FrameFlyweight.FLAG_RESENT);
        }
        try
        {
            driver.send(p.peerIndex, headerViews[kind.code()], payload);
            p.tracker.onAckSent();
        }
        catch (final RuntimeException ex)
        {
            p.lastSendError = ex.getMessage();
        }
    }

    private void sendConnectRequest(final Partner p)
    {
        connectOut.wrap(headerBuffer, 0);
        connectOut.encodeHeader(FrameKind.CONNECT_REQUEST, p.remoteEndpointIndex, localEndpointIndex, 0,
            localSessionId, 0, 0);
        connectOut.encode(p.connectKey, p.connectSeq, p.sendInitialSeq, ConnectStatus.OK);
        p.connectSentNs = nowNs;
        sendUnsequenced(p.peerIndex, FrameKind.CONNECT_REQUEST);
    }

    private void sendConnectReply(
        final int peerIndex, final int remoteEndpoint, final int remoteSession, final int connectSeq,
        final int initialSeq, final ConnectStatus status)
    {
        connectOut.wrap(headerBuffer, 0);
        connectOut.encodeHeader(FrameKind.CONNECT_REPLY, remoteEndpoint, localEndpointIndex, remoteSession,
            localSessionId, 0, 0);
        connectOut.encode(0, connectSeq, initialSeq, status);
        sendUnsequenced(peerIndex, FrameKind.CONNECT_REPLY);
    }

    private void sendUnsequenced(final int peerIndex, final FrameKind kind)
    {
        try
        {
            driver.send(peerIndex, headerViews[kind.code()], emptyPayload);
        }
        catch (final RuntimeException ex)
        {
            droppedFrames++;
        }
    }

    private void onResend(final int seq, final Object owner, final int frameIndex)
    {
        final Partner p = resendPartner;
        if (owner instanceof Request r)
        {
            sendRequestFrame(p, r, frameIndex, seq, true);
        }
        else
        {
            sendNotice(p, (Notice)owner, seq, true);
        }
    }

    private void onFrameAcked(final Object owner, final int frameIndex)
    {
        if (owner instanceof Request r)
        {
            if (--r.framesUnacked == 0)
            {
                maybeCompleteSend(r);
            }
        }
        else
        {
            recycleNotice((Notice)owner);
        }
    }

    private void onFrameAbandoned(final Object owner, final int frameIndex)
    {
        if (owner instanceof Request r)
        {
            fail(r, failureReason);
        }
        else
        {
            recycleNotice((Notice)owner);
        }
    }

    private void maybeCompleteSend(final Request r)
    {
        if (RequestState.SENDING != r.state || r.framesUnacked != 0)
        {
            return;
        }
        if (Request.Kind.SEND_EAGER == r.kind)
        {
            r.status.bytesTransferred = r.messageLength;
            complete(r);
        }
        else if (r.notified)
        {
            r.partner.outstandingRendezvous--;
            if (r.notifyStatus.isSuccess())
            {
                complete(r);
            }
            else
            {
                fail(r, "receiver " + r.partner.describe() + " failed to pull the message: " + r.notifyStatus +
                    " after " + r.status.bytesTransferred + " of " + r.messageLength + " bytes");
            }
        }
    }

    private void queueNotice(final Partner p, final int senderHandle, final NotifyStatus status, final long bytesPulled)
    {
        if (PartnerState.CONNECTED != p.state)
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
        pump(p);
    }

    private void recycleNotice(final Notice n)
    {
        freeNotices.addFirst(n);
    }

    // ---------------------------------------------------------------- progress

    private void runProgress()
    {
        int idle = 0;
        while (!closed)
        {
            if (progressOnce())
            {
                idle = 0;
            }
            else if (++idle < SPIN_ITERATIONS)
            {
                Thread.onSpinWait();
            }
            else if (idle < SPIN_ITERATIONS + YIELD_ITERATIONS)
            {
                Thread.yield();
            }
            else
            {
                driver.await(idleWaitNs());
            }
        }
    }

    /**
     * @return how long progress may sleep before a timer (ack, resend, keepalive, connect) falls due.
     */
    private long idleWaitNs()
    {
        if (!lock.tryLock())
        {
            return MIN_IDLE_WAIT_NS;
        }
        try
        {
            final long now = clock.nanoTime();
            long next = now + MAX_IDLE_WAIT_NS;
            for (int i = 0, n = partners.size(); i < n; i++)
            {
                final Partner p = partners.get(i);
                if (PartnerState.CONNECTING == p.state || p.verifying)
                {
                    next = Math.min(next, p.connectSentNs + options.connectResendNs);
                }
                if (PartnerState.CONNECTED == p.state)
                {
                    next = Math.min(next, Math.min(resendTimer.deadlineNs(p.window), p.tracker.ackDeadlineNs()));
                    if (isWaitingOn(p))
                    {
                        next = Math.min(next, Math.max(p.lastHeardNs, p.lastKeepaliveNs) + options.keepaliveIntervalNs);
                    }
                }
            }
            return Math.max(MIN_IDLE_WAIT_NS, next - now);
        }
        finally
        {
            lock.unlock();
        }
    }

    private static boolean isWaitingOn(final Partner p)
    {
        return !p.window.isEmpty() || p.outstandingRendezvous > 0 || null != p.incomingRequest;
    }

    /**
     * @return true if any event arrived.
     */
    private boolean progressOnce()
    {
        if (!lock.tryLock())
        {
            return false;
        }
        try
        {
            if (closed && Thread.currentThread() != progressThread)
            {
                return false;
            }
            nowNs = clock.nanoTime();
            final int events = driver.poll(eventHandler, POLL_LIMIT);
            nowNs = clock.nanoTime();
            runTimers();
            return events > 0;
        }
        finally
        {
            lock.unlock();
        }
    }

    private void runTimers()
    {
        for (int i = 0, n = partners.size(); i < n; i++)
        {
            final Partner p = partners.get(i);
            switch (p.state)
            {
                case CONNECTING ->
                {
                    if (nowNs - p.connectDeadlineNs >= 0)
                    {
                        failPartner(p, "connect to " + p.describe() + " timed out: no CONNECT_REPLY within " +
                            p.connectTimeoutNs / 1_000_000 + " ms" +
                            (null != p.lastSendError ? " (last send error: " + p.lastSendError + ")" : ""));
                    }
                    else if (nowNs - p.connectSentNs >= options.connectResendNs)
                    {
                        sendConnectRequest(p);
                    }
                }
                case CONNECTED -> partnerTimers(p);
                case FAILED ->
                {
                }
            }
        }
    }

    private void partnerTimers(final Partner p)
    {
        final boolean waiting = isWaitingOn(p);
        final long silentNs = nowNs - p.lastHeardNs;
        if (waiting && silentNs > options.peerTimeoutNs())
        {
            failPartner(p, p.describe() + " unreachable: nothing heard for " + silentNs / 1_000_000 +
                " ms (limit " + options.peerTimeoutNs() / 1_000_000 + " ms) with " + p.window.inFlight() +
                " frames unacknowledged from seq " + p.window.oldestSeq() +
                (null != p.lastSendError ? "; last send error: " + p.lastSendError : ""));
            return;
        }
        // Retries past maxResends from a partner that still answers mean it is holding us back
        // (full unexpected queue): keep resending; a silent one was failed just above.
        switch (resendTimer.check(p.window, nowNs))
        {
            case RESEND, GIVE_UP ->
            {
                resendPartner = p;
                p.window.resendAll(nowNs, resendHandler);
                resendPartner = null;
            }
            case WAIT ->
            {
            }
        }
        if (p.tracker.isAckDue(nowNs))
        {
            sendAck(p, false);
        }
        else if (waiting && silentNs > options.keepaliveIntervalNs && nowNs - p.lastKeepaliveNs > options.keepaliveIntervalNs)
        {
            p.lastKeepaliveNs = nowNs;
            sendAck(p, true);
        }
    }

    // ---------------------------------------------------------------- receiving frames

    private void onEvent(final DriverEvent e)
    {
        switch (e.type())
        {
            case PULL_DONE -> onPullEnded(e.pullHandle(), e.bytes(), null, null);
            case PULL_FAILED -> onPullEnded(e.pullHandle(), e.bytes(), e.error(), e.errorMessage());
            case SEND_DONE ->
            {
            }
            default -> onFrame(e);
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
            case CONNECT_REQUEST -> onConnectRequest(peerIndex, buffer, offset);
            case CONNECT_REPLY -> onConnectReply(peerIndex, buffer, offset);
            case NACK -> onNack(peerIndex, buffer, offset);
            default ->
            {
                final Partner p = partnerAt(peerIndex, frameIn.srcEndpoint());
                if (null == p || PartnerState.CONNECTED != p.state || p.remoteSessionId != frameIn.srcSession())
                {
                    droppedFrames++;
                    return;
                }
                p.lastHeardNs = nowNs;
                if (frameIn.hasAck())
                {
                    p.window.acknowledge(frameIn.ackSeq(), ackedHandler);
                }
                if (FrameKind.ACK == kind)
                {
                    ackIn.wrap(buffer, offset);
                    p.window.acknowledge(ackIn.ackUpTo(), ackedHandler);
                    if ((ackIn.flags() & FrameFlyweight.FLAG_ACK_REQUESTED) != 0)
                    {
                        p.tracker.ackRequested(nowNs);
                    }
                }
                else
                {
                    onSequenced(p, kind, buffer, offset);
                }
                if (PartnerState.CONNECTED == p.state)
                {
                    pump(p);
                    if (p.tracker.isAckDue(nowNs))
                    {
                        sendAck(p, false);
                    }
                }
            }
        }
    }

    private void onSequenced(final Partner p, final FrameKind kind, final MemorySegment buffer, final long offset)
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
            case NOTIFY -> onNotify(p, buffer, offset);
            default -> true;
        };
        if (accepted)
        {
            p.tracker.accept(nowNs);
        }
        else
        {
            p.tracker.refuse(nowNs);
        }
    }

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
            complete(r);
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
        if (0 == fragIndex)
        {
            if (length > pool.maxBufferBytes())
            {
                droppedFrames++;
                return true;
            }
            final PostedReceive posted = matchQueue.match(p.id(), matchInfo);
            if (null != posted)
            {
                final Request r = (Request)posted.owner();
                beginEagerReceive(r, p, matchInfo, length);
                moveTo(r, RequestState.RECEIVING);
                p.incomingRequest = r;
                p.incomingUnexpected = null;
            }
            else
            {
                final UnexpectedMessage m = unexpected.tryAddEager(p.id(), matchInfo, length);
                if (null == m)
                {
                    return false;
                }
                p.incomingUnexpected = m;
                p.incomingRequest = null;
            }
            p.incomingMessageSeq = mediumIn.messageSeq();
        }
        else if (p.incomingMessageSeq != mediumIn.messageSeq() || (null == p.incomingRequest && null == p.incomingUnexpected))
        {
            droppedFrames++;
            return true;
        }
        final boolean last = fragIndex == mediumIn.fragCount() - 1;
        final Request r = p.incomingRequest;
        if (null != r)
        {
            r.status.bytesTransferred += r.vector.copyIn(fragOffset, buffer, payloadOffset, payloadBytes);
            if (last)
            {
                p.incomingRequest = null;
                complete(r);
            }
        }
        else
        {
            p.incomingUnexpected.append(fragOffset, buffer, payloadOffset, payloadBytes);
            if (last)
            {
                p.incomingUnexpected = null;
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
            startRendezvousReceive((Request)posted.owner(), p, matchInfo, rndvIn.messageLength(), rndvIn.regionId(),
                rndvIn.regionOffset(), rndvIn.sendHandle());
            return true;
        }
        return null != unexpected.tryAddRendezvous(p.id(), matchInfo, rndvIn.messageLength(), rndvIn.regionId(),
            rndvIn.regionOffset(), rndvIn.sendHandle());
    }

    private void startRendezvousReceive(
        final Request r, final Partner p, final long matchInfo, final long length, final int remoteRegionId,
        final long remoteOffset, final int senderHandle)
    {
        beginEagerReceive(r, p, matchInfo, length);
        r.senderHandle = senderHandle;
        final long pullBytes = Math.min(length, r.vector.totalBytes());
        if (0 == pullBytes)
        {
            complete(r);
            queueNotice(p, senderHandle, length > 0 ? NotifyStatus.TRUNCATED : NotifyStatus.OK, 0);
            return;
        }
        try
        {
            if (r.vector.isAllNative())
            {
                regionCache.acquire(r.vector.nonEmptySegments(), r.vector.nonEmptyCount(), r.lease);
            }
            else
            {
                r.staging = stagingFor(pullBytes, r);
                regionCache.acquire(r.staging.segment(), r.lease);
            }
            r.remoteRegionId = remoteRegionId;
            r.remoteOffset = remoteOffset;
            r.pullBytes = pullBytes;
            startPull(r, p);
        }
        catch (final RuntimeException ex)
        {
            fail(r, "could not start the pull of " + pullBytes + " bytes from " + p.describe() + ": " + ex.getMessage());
            queueNotice(p, senderHandle, NotifyStatus.NO_RESOURCES, 0);
            return;
        }
        r.pullInFlight = true;
        p.outstandingRendezvous++;
        moveTo(r, RequestState.PULLING);
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
        if (DriverError.TIMEOUT != error || RequestState.PULLING != r.state || PartnerState.CONNECTED != p.state)
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

    private void onPullEnded(final int handle, final long bytes, final DriverError errorKind, final CharSequence errorMessage)
    {
        final Request r = requestFor(handle);
        if (null == r || !r.pullInFlight)
        {
            droppedFrames++;
            return;
        }
        if (null != errorKind && retryPull(r, errorKind))
        {
            r.pullRetries++;
            return;
        }
        final String error = null == errorKind ? null : "pull failed: " + errorKind + ": " + errorMessage +
            (r.pullRetries > 0 ? " (after " + r.pullRetries + " earlier pull timeouts)" : "");
        r.pullInFlight = false;
        final Partner p = r.partner;
        p.outstandingRendezvous--;
        if (RequestState.PULLING == r.state)
        {
            if (null == error && null != r.staging)
            {
                r.vector.copyIn(0, r.staging.segment(), 0, bytes);
            }
            r.status.bytesTransferred = bytes;
            if (null == error)
            {
                complete(r);
            }
            else
            {
                fail(r, "pull of " + r.messageLength + " bytes from " + p.describe() + " failed after " + bytes +
                    " bytes: " + error);
            }
            final NotifyStatus status = null != error ? notifyStatusFor(errorKind) :
                bytes < r.messageLength ? NotifyStatus.TRUNCATED : NotifyStatus.OK;
            queueNotice(p, r.senderHandle, status, bytes);
        }
        else
        {
            releaseResources(r);
            if (r.releaseWhenPullEnds)
            {
                r.releaseWhenPullEnds = false;
                recycle(r);
            }
        }
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

    private boolean onNotify(final Partner p, final MemorySegment buffer, final long offset)
    {
        notifyIn.wrap(buffer, offset);
        final Request r = requestFor(notifyIn.sendHandle());
        if (null == r || Request.Kind.SEND_RENDEZVOUS != r.kind || r.partner != p || r.notified)
        {
            droppedFrames++;
            return true;
        }
        r.notified = true;
        r.notifyStatus = notifyIn.status();
        r.status.bytesTransferred = notifyIn.bytesPulled();
        maybeCompleteSend(r);
        return true;
    }

    private void onConnectRequest(final int peerIndex, final MemorySegment buffer, final long offset)
    {
        connectIn.wrap(buffer, offset);
        final int remoteEndpoint = connectIn.srcEndpoint();
        final int remoteSession = connectIn.srcSession();
        final int connectSeq = connectIn.connectSeq();
        final int remoteInitialSeq = connectIn.initialSeq();
        if (connectIn.appKey() != options.applicationKey)
        {
            sendConnectReply(peerIndex, remoteEndpoint, remoteSession, connectSeq, 0, ConnectStatus.BAD_KEY);
            return;
        }
        if (!sequences.isValid(remoteInitialSeq))
        {
            droppedFrames++;
            return;
        }
        Partner p = partnerAt(peerIndex, remoteEndpoint);
        if (null != p && PartnerState.CONNECTED == p.state && p.remoteSessionId == remoteSession &&
            (p.acceptedConnectSeq == connectSeq || p.remoteInitialSeq == remoteInitialSeq))
        {
            p.acceptedConnectSeq = connectSeq;
            sendConnectReply(peerIndex, remoteEndpoint, remoteSession, connectSeq, p.sendInitialSeq, ConnectStatus.OK);
            return;
        }
        if (null != p && PartnerState.CONNECTING == p.state)
        {
            establish(p, remoteSession, remoteInitialSeq);
        }
        else
        {
            if (null != p)
            {
                failPartner(p, p.describe() + " connected again (session " + Integer.toHexString(remoteSession) +
                    "): the earlier connection's pending requests are abandoned");
            }
            p = newPartner(new EndpointAddress(driver.peer(peerIndex), remoteEndpoint, 0), peerIndex, 0);
            establish(p, remoteSession, remoteInitialSeq);
        }
        p.acceptedConnectSeq = connectSeq;
        sendConnectReply(peerIndex, remoteEndpoint, remoteSession, connectSeq, p.sendInitialSeq, ConnectStatus.OK);
    }

    private void onConnectReply(final int peerIndex, final MemorySegment buffer, final long offset)
    {
        connectIn.wrap(buffer, offset);
        final Partner p = partnerAt(peerIndex, connectIn.srcEndpoint());
        if (null != p && PartnerState.CONNECTED == p.state && p.verifying && p.connectSeq == connectIn.connectSeq())
        {
            p.verifyStatusCode = connectIn.statusCode();
            return;
        }
        if (null == p || PartnerState.CONNECTING != p.state || p.connectSeq != connectIn.connectSeq())
        {
            droppedFrames++;
            return;
        }
        final ConnectStatus status = connectIn.status();
        if (ConnectStatus.OK != status)
        {
            failPartner(p, "connect to " + p.describe() + " refused: " + status +
                (ConnectStatus.BAD_KEY == status ?
                " (application key 0x" + Integer.toHexString(p.connectKey) + " is not the endpoint's)" : ""));
            return;
        }
        if (!sequences.isValid(connectIn.initialSeq()))
        {
            droppedFrames++;
            return;
        }
        establish(p, connectIn.srcSession(), connectIn.initialSeq());
        p.keyVerified = true;
        p.verifiedKey = p.connectKey;
        pump(p);
    }

    private void onNack(final int peerIndex, final MemorySegment buffer, final long offset)
    {
        nackIn.wrap(buffer, offset);
        final Partner p = partnerAt(peerIndex, nackIn.srcEndpoint());
        if (null == p || PartnerState.FAILED == p.state)
        {
            droppedFrames++;
            return;
        }
        final NackReason reason = nackIn.reason();
        failPartner(p, p.describe() + " refused our " + nackIn.refusedKind() + " frame seq " + nackIn.refusedSeq() +
            ": " + reason + (NackReason.BAD_SESSION == reason ? " (the remote endpoint was closed or reopened)" :
            NackReason.BAD_ENDPOINT == reason ? " (no such endpoint is open on that board)" : ""));
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new MxException("endpoint " + address + " is closed");
        }
    }

    private static int nonZeroRandom()
    {
        int v;
        do
        {
            v = ThreadLocalRandom.current().nextInt();
        }
        while (0 == v);
        return v;
    }

    public String toString()
    {
        return "Endpoint{" + address + ", " + options.progressMode + '}';
    }
}
