package io.pinmx.mx;

import io.pinmx.mx.buffer.BufferPool;
import io.pinmx.mx.match.MatchInfo;
import io.pinmx.mx.match.MatchQueue;
import io.pinmx.mx.match.UnexpectedMessage;
import io.pinmx.mx.match.UnexpectedQueue;
import io.pinmx.mx.reliability.NanoClock;
import io.pinmx.mx.reliability.SequenceNumbers;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.provider.ProgressRunner;
import io.pinmx.pin.provider.SegmentKinds;
import io.pinmx.pin.provider.ThreadingMode;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.wire.MediumFragFrame;
import io.pinmx.regioncache.RegionCache;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.CachedNanoClock;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An MX-style endpoint over one driver endpoint: connect to partners, post sends and
 * receives with 64-bit match info, and run the protocol that makes them happen (eager
 * tiny/small/medium, rendezvous with pull and notify, per-partner sequence numbers, acks
 * and resends). What it counts is read through {@link #counters()}; exposing memory and one-sided reads go through
 * {@link #regions()}.
 * <p>
 * The public facade: it checks arguments, takes the endpoint lock to post work and hands it
 * to the parts that own the state: {@link RequestPool} (requests, completions),
 * {@link PartnerTable} and {@link Connector} (partners, handshake), {@link OutboundQueue} and
 * {@link FrameSender} (frames out), {@link FrameReceiver} (frames in, matching, reassembly),
 * {@link Rendezvous} (declare, pull, notify), {@link RemoteReads} (one-sided reads of exposed
 * regions), {@link PartnerTimers} (resends, acks, liveness), {@link EndpointRound} (the progress agent, run by a
 * {@link ProgressRunner} in the options' {@link ThreadingMode}), {@link CallerWaits} and {@link BlockingCalls} (how
 * API threads wait). One lock guards all protocol state; the
 * round (on the agent's thread, or a caller's wait in {@link ThreadingMode#INVOKER} mode) holds it while it polls
 * the driver and runs timers, and the API methods hold it briefly to post work. Region
 * declares run outside it. Frames go out under the lock, from one reused header buffer, so
 * the hot path allocates nothing per message.
 */
public final class Endpoint implements AutoCloseable
{
    private static final int SEQUENCE_BITS = 31;
    private static final long STAGING_MAX_BYTES = 1L << 30;

    private final DriverEndpoint driver;
    private final EndpointOptions options;
    private final NanoClock clock;
    private final CachedNanoClock now = new CachedNanoClock();
    private final ReentrantLock lock = new ReentrantLock();
    private final MatchQueue matchQueue = new MatchQueue();
    private final BufferPool pool = new BufferPool(STAGING_MAX_BYTES);
    private final UnexpectedQueue unexpected;
    private final RegionCache regionCache;
    private final RequestPool requests;
    private final FrameSender sender;
    private final OutboundQueue outbound;
    private final PartnerTable partners;
    private final Connector connector;
    private final Rendezvous rendezvous;
    private final RemoteReads reads;
    private final RemoteWrites writes;
    private final FrameReceiver receiver;
    private final RequestPoster poster;
    private final EndpointRound round;
    private final ProgressRunner progress;
    private final CallerWaits waits;
    private final BlockingCalls blocking;
    private final EndpointCounters counters;
    private final EndpointRegions regions;
    private final int mediumFragmentBytes;
    private final EndpointAddress address;
    private volatile boolean closed;

    private Endpoint(final PinDriver pinDriver, final EndpointOptions options)
    {
        SegmentKinds.loadAll();
        this.options = options;
        this.clock = options.clock;
        // The progress thread keeps polling the driver: the driver needs no thread of its own.
        this.driver = pinDriver.open(ProgressMode.THREAD == options.progressMode ?
            options.driverConfig.withProgressByOpener() : options.driverConfig);
        this.address = driver.address();
        this.mediumFragmentBytes = Math.min(options.mediumFragmentBytes, driver.info().mediumFragPayloadBytes());
        if ((options.rendezvousThresholdBytes + mediumFragmentBytes - 1) / mediumFragmentBytes > MediumFragFrame.MAX_FRAG_COUNT)
        {
            driver.close();
            throw new IllegalArgumentException("rendezvous threshold " + options.rendezvousThresholdBytes +
                " needs more than " + MediumFragFrame.MAX_FRAG_COUNT + " fragments of " + mediumFragmentBytes + " bytes");
        }
        now.update(clock.nanoTime());
        final SequenceNumbers sequences = new SequenceNumbers(SEQUENCE_BITS);
        this.unexpected = new UnexpectedQueue(pool, options.unexpectedMaxMessages, options.unexpectedMaxBytes);
        this.regionCache = new RegionCache(
            new DriverRegionDeclarer(driver), options.regionCacheMaxRegions, options.regionCacheMaxBytes);
        this.requests = new RequestPool(this, driver, options.maxRequests, regionCache, pool, address.toString(), now,
            ThreadingMode.DEDICATED == options.progressMode.threadingMode(), options.pullEndPatienceNs);
        this.sender = new FrameSender(driver, address, options, mediumFragmentBytes);
        this.outbound = new OutboundQueue(now, sender, requests, options.smallMaxBytes,
            options.sendWindowFrames);
        this.partners = new PartnerTable(address.toString(), driver, now, requests, matchQueue, unexpected, outbound);
        this.connector = new Connector(options, now, driver, sequences, partners, sender);
        this.rendezvous = new Rendezvous(lock, address, clock, now, driver, regionCache, requests, partners, outbound);
        this.reads = new RemoteReads(lock, clock, now, driver, requests);
        this.writes = new RemoteWrites(this, lock, driver, requests);
        this.receiver = new FrameReceiver(now, sequences, requests, partners, connector, rendezvous, reads, writes,
            outbound, sender, matchQueue, unexpected, pool);
        this.poster = new RequestPoster(lock, clock, now, options, mediumFragmentBytes, requests, partners, outbound,
            rendezvous, receiver, matchQueue, unexpected, pool);
        final PartnerTimers timers = new PartnerTimers(options, now, partners, connector, outbound, sender, driver,
            matchQueue);
        final ThreadingMode mode = options.progressMode.threadingMode();
        this.round = new EndpointRound(lock, clock, now, driver, receiver, timers, rendezvous, reads, requests,
            "pinmx-progress-" + address, ThreadingMode.DEDICATED == mode ? options.progressSliceNs : 0,
            ThreadingMode.INVOKER == mode, this::stopped);
        this.progress = ProgressRunner.start(mode,
            BackoffThenBlockIdleStrategy.endpointAgent(() -> driver.await(round.idleWaitNs())),
            this::progressFailed, round);
        this.waits = new CallerWaits(driver, round, progress, options.callerPollNs, options.callerPollIdle);
        this.blocking = new BlockingCalls(waits);
        this.counters = new EndpointCounters(lock, driver, receiver, sender, pool, unexpected);
        this.regions = new EndpointRegions(this, driver, regionCache, reads);
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

    /** @return the options this endpoint was opened with. */
    public EndpointOptions options()
    {
        return options;
    }

    /** @return what this endpoint counts: frames dropped, resent and refused, its driver's counters, its queues. */
    public EndpointCounters counters()
    {
        return counters;
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
            return partners.byId(partnerId);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Gives a partner up on news from outside the endpoint (a job's launcher reporting its process dead): every
     * pending request to or from it, and every receive from any source, fails at once with {@code reason}, as
     * when the peer timeout gives it up. A partner that already failed stays as it is.
     *
     * @throws IllegalArgumentException when the partner is not this endpoint's, or the reason is blank.
     */
    public void failPartner(final Partner partner, final String reason)
    {
        if (null == reason || reason.isBlank())
        {
            throw new IllegalArgumentException("failPartner: a reason must be given for " + partner);
        }
        lock.lock();
        try
        {
            if (partners.byId(partner.id()) != partner)
            {
                throw new IllegalArgumentException("failPartner: " + partner + " is not a partner of " + address);
            }
            partners.failLost(partner, reason);
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
        final long startNs = System.nanoTime();
        final long deadline = startNs + timeout.toNanos();
        final Partner partner;
        lock.lock();
        try
        {
            now.update(clock.nanoTime());
            partner = connector.begin(remote, peerIndex, applicationKey, timeout.toNanos());
        }
        finally
        {
            lock.unlock();
        }
        return blocking.awaitConnected(this, partner, applicationKey, startNs, deadline, timeout);
    }

    /** Under the lock: the connector's verdict on a connected partner, see {@link Connector#verifyOutcome}. */
    int verifyOutcome(final Partner p, final int applicationKey, final long deadline, final Duration timeout)
    {
        lock.lock();
        try
        {
            now.update(clock.nanoTime());
            return connector.verifyOutcome(p, applicationKey, deadline, timeout);
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
        checkOpen();
        return poster.postSend(destination, matchInfo, buffer, null, 0, false);
    }

    /**
     * Send of a vector of 1..256 segments, gathered in order.
     */
    public Request isend(final Partner destination, final long matchInfo, final MemorySegment[] vector, final int count)
    {
        checkOpen();
        return poster.postSend(destination, matchInfo, null, vector, count, false);
    }

    /**
     * Synchronous send: completes only after a receive matched it (always by rendezvous).
     */
    public Request issend(final Partner destination, final long matchInfo, final MemorySegment buffer)
    {
        checkOpen();
        return poster.postSend(destination, matchInfo, buffer, null, 0, true);
    }

    /** Synchronous send of a vector of 1..256 segments, gathered in order. */
    public Request issend(final Partner destination, final long matchInfo, final MemorySegment[] vector, final int count)
    {
        checkOpen();
        return poster.postSend(destination, matchInfo, null, vector, count, true);
    }

    /**
     * Posts a receive.
     *
     * @param source    a partner id, or {@link MatchInfo#ANY_SOURCE}.
     * @param matchMask bits of matchInfo that must agree; bits of matchInfo outside it must be 0.
     */
    public Request irecv(final int source, final long matchInfo, final long matchMask, final MemorySegment buffer)
    {
        checkOpen();
        return poster.postReceive(source, matchInfo, matchMask, buffer, null, 0);
    }

    /** Posts a receive into a vector of 1..256 segments, filled in order. */
    public Request irecv(
        final int source, final long matchInfo, final long matchMask, final MemorySegment[] vector, final int count)
    {
        checkOpen();
        return poster.postReceive(source, matchInfo, matchMask, null, vector, count);
    }

    /**
     * @return memory this endpoint exposes to partners' one-sided reads and writes, and one-sided reads of the memory
     *         partners exposed.
     */
    public EndpointRegions regions()
    {
        return regions;
    }

    /**
     * @return what the endpoint's driver is and can do: {@code driverInfo().has(DriverFeature.REMOTE_WRITE)} says
     *         whether {@link RemoteWrites} and {@link EndpointRegions#exposeForWrites} work here.
     */
    public DriverInfo driverInfo()
    {
        return driver.info();
    }

    /**
     * @return the origin side of one-sided writes and atomics into partners' regions exposed with
     *         {@link EndpointRegions#exposeForWrites}.
     */
    public RemoteWrites writes()
    {
        return writes;
    }

    /**
     * Blocking send: returns once the send completed, releasing its request.
     *
     * @throws MxException naming the cause if it failed or did not complete within the timeout.
     */
    public void send(final Partner destination, final long matchInfo, final MemorySegment buffer, final Duration timeout)
    {
        BlockingCalls.finish(isend(destination, matchInfo, buffer), timeout, null);
    }

    /**
     * Blocking receive into one segment; the outcome is copied into {@code status}.
     */
    public void recv(
        final int source, final long matchInfo, final long matchMask, final MemorySegment buffer,
        final Status status, final Duration timeout)
    {
        BlockingCalls.finish(irecv(source, matchInfo, matchMask, buffer), timeout, status);
    }

    /**
     * Looks for an unexpected message a receive would match, without taking it.
     *
     * @return true, with source, match info and true length in {@code out}, if there is one.
     * @throws MxException if the endpoint is closed or stopped (nothing can arrive any more).
     */
    public boolean iprobe(final int source, final long matchInfo, final long matchMask, final Status out)
    {
        checkOpen();
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
        return blocking.probe(this, source, matchInfo, matchMask, out, timeout);
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
            return requests.oldestCompleted();
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
        return blocking.waitAny(requests, count, timeout);
    }

    /**
     * As {@link #waitAny(Request[], int, Duration)}, staying on the core for the first {@code pollFor} of the wait
     * instead of the options' {@code callerPollNs} (see {@link Request#await(Duration, Duration)}).
     *
     * @throws IllegalArgumentException naming pollFor if it is negative.
     */
    public int waitAny(final Request[] requests, final int count, final Duration timeout, final Duration pollFor)
    {
        if (pollFor.isNegative())
        {
            throw new IllegalArgumentException("pollFor = " + pollFor + ": must be >= 0");
        }
        return blocking.waitAny(requests, count, timeout, pollFor.toNanos());
    }

    /**
     * Closes the endpoint: partners are told, every pending request fails, regions are undeclared and the driver
     * endpoint closes.
     *
     * @throws RuntimeException the first thing that refused to close (everything else closed all the same); none
     *                          after the endpoint stopped, when such refusals only repeat its cause.
     */
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        round.close();
        progress.close();
        lock.lock();
        try
        {
            final boolean stopped = null != round.failure();
            RuntimeException refusal = null;
            if (!stopped)
            {
                partners.sayGoodbye(sender);
                refusal = partners.failAll("endpoint " + address + " closed");
            }
            try
            {
                regionCache.close();
            }
            catch (final RuntimeException ex)
            {
                refusal = PartnerTable.withRefusal(refusal, ex);
            }
            driver.close();
            requests.endHeldFailures();
            pool.close();
            sender.close();
            if (null != refusal && !stopped)
            {
                throw refusal;
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /** The agent's thread: what its round or idle threw stops the endpoint; its own stop signal ends the thread. */
    private void progressFailed(final Throwable cause)
    {
        if (!(cause instanceof AgentTerminationException))
        {
            round.stop(cause);
        }
    }

    /** A progress round threw {@code cause}: everything pending fails naming it, and every call after throws. */
    private void stopped(final Throwable cause)
    {
        lock.lock();
        try
        {
            final RuntimeException refusal = partners.failAll(stoppedBy(cause));
            // no pull's end is polled any more: a failure held for one would never reach its waiter
            requests.endHeldFailures();
            if (null != refusal && refusal != cause)
            {
                cause.addSuppressed(refusal);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    boolean cancel(final Request r)
    {
        lock.lock();
        try
        {
            requests.checkLive(r);
            if (RequestState.POSTED != r.state || !matchQueue.remove(r.posted))
            {
                return false;
            }
            requests.cancelled(r);
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
            requests.release(r);
        }
        finally
        {
            lock.unlock();
        }
    }

    boolean awaitRequest(final Request r, final long timeoutNs)
    {
        return waits.awaitRequest(r, timeoutNs);
    }

    boolean awaitRequest(final Request r, final long timeoutNs, final long pollNs, final boolean ackWhenIdle)
    {
        return waits.awaitRequest(r, timeoutNs, pollNs, ackWhenIdle);
    }

    /**
     * One round of progress on the caller's thread in {@link ThreadingMode#INVOKER} mode; nothing otherwise.
     */
    void progressFromCaller()
    {
        waits.progressFromCaller();
    }

    void checkOpen()
    {
        if (closed)
        {
            throw new MxException("endpoint " + address + " is closed");
        }
        final Throwable failure = round.failure();
        if (null != failure)
        {
            throw new MxException(stoppedBy(failure), failure);
        }
    }

    private String stoppedBy(final Throwable cause)
    {
        return "endpoint " + address + " stopped: a progress round failed: " + cause;
    }

    public String toString()
    {
        return "Endpoint{" + address + ", " + options.progressMode + '}';
    }
}
