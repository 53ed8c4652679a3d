package io.pinmx.pin.user;

import io.pinmx.pin.provider.AwaitLoop;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.provider.ContractChecks;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.wire.DropReason;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.FrameReader;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open endpoint of the user-space driver. Application threads call the {@link DriverEndpoint} operations;
 * the progress agent ({@link #doWork}) receives UDP datagrams and shared-memory frames, validates and dispatches
 * them, runs the {@link PullEngine} and produces events. The agent runs on the endpoint's progress thread or, with
 * {@code progressThread=false}, inside {@link #poll} and {@link #await}.
 * <p>
 * Idle: spin, then yield, then park in the UDP selector with the shared-memory ring flagged "parked" so a
 * same-host sender rings the doorbell (a zero-length datagram); an application thread that starts a pull wakes
 * the selector.
 * <p>
 * Locks, each with one purpose (documented at its field): this object's monitor (close runs once),
 * {@code regionLock} (region table writers), {@code agentLock} (who runs the agent without a progress thread),
 * {@code pollLock} (the event ring's consumer vs close), and the peer-file cache's own; the peer table and the
 * pull engine own theirs. Only close nests them: inside agentLock it takes the pull engine's, regionLock and the
 * peer-file cache's in turn; pollLock it takes after releasing agentLock.
 */
final class UserEndpoint implements DriverEndpoint
{
    private static final long PARK_MAX_NS = TimeUnit.SECONDS.toNanos(1);
    /** One waiter is unparked by the agent; with several awaiting threads the others re-check this often. */
    private static final long AWAIT_PARK_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long TIMER_CHECK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SHM_FULL_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int RECEIVE_BATCH = 64;
    private static final int MAX_KIND_PART_BYTES = 64;
    private static final SecureRandom SESSION_IDS = new SecureRandom();
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final UserDriverOptions options;
    private final DriverInfo info;
    private final EndpointAddress address;
    private final int endpointIndex;
    private final int sessionId;
    private final Arena arena;
    private final UdpTransport udp;
    private final EndpointFile file;
    private final RegionTable regions;
    private final DriverCounters counters = new DriverCounters();
    private final PeerTable peers = new PeerTable(counters);
    private final EventRing events;
    private final PullEngine pulls;
    private final int maxFrameBytes;
    private final byte[] hostBytes;

    private final InetSocketAddress[] shmSenderAddress = new InetSocketAddress[65536];
    private final byte[][] shmSenderBytes = new byte[65536][];
    /** Null without the same-host path. */
    private final PeerFileCache peerFiles;
    /**
     * Serialises writers of the region table (declareRegion, destroyRegion and close, from application threads);
     * readers (the agent serving pulls, same-host pullers in other processes) go by the table's seqlock instead.
     */
    private final Object regionLock = new Object();
    /**
     * Held by whoever runs the agent ({@link #doWork}) without a progress thread (a thread in poll or await), so
     * one runs it at a time; close takes it to tear the transport down once no caller is inside the agent.
     */
    private final ReentrantLock agentLock = new ReentrantLock();
    /**
     * Held while events are consumed (poll, the event ring's single consumer), so close frees the ring's memory
     * only once no handler is reading a frame in place.
     */
    private final ReentrantLock pollLock = new ReentrantLock();
    private final FrameFlyweight header = new FrameFlyweight();
    private final NackFrame nack = new NackFrame();
    private final ShmFrameRing.FrameConsumer shmConsumer = this::onShmFrame;
    private final AwaitLoop awaitLoop = new AwaitLoop(this::eventReady, this::blockAwaiting);
    /** The send limit as a message names it, built once so a send allocates nothing. */
    private final String frameLimitText;
    private final Thread progressThread;
    /** Null when counters are not published; used by the progress agent only. */
    private final CounterPublisher counterPublisher;

    private volatile boolean closed;
    private volatile Throwable progressFailure;
    private volatile boolean agentParked;
    private volatile Thread waiter;
    private long nextTimerCheckNs;

    private UserEndpoint(final int endpointIndex, final UserDriverOptions options, final DriverInfo info)
        throws IOException
    {
        this.options = options;
        this.info = info;
        this.endpointIndex = endpointIndex;
        int session;
        do
        {
            session = SESSION_IDS.nextInt();
        }
        while (session == 0);
        this.sessionId = session;
        this.maxFrameBytes = FrameFlyweight.HEADER_BYTES + MAX_KIND_PART_BYTES + options.framePayloadBytes();
        this.frameLimitText = "frame payload " + options.framePayloadBytes();
        this.arena = Arena.ofShared();
        UdpTransport transport = null;
        EndpointFile endpointFile = null;
        try
        {
            final int port = options.basePort() == 0 ? 0 : options.basePort() + endpointIndex;
            if (port > 65535)
            {
                throw new DriverException(DriverError.BAD_ARGUMENT, "endpoint " + endpointIndex + " of base port " +
                    options.basePort() + ": port " + port + " out of range");
            }
            transport = UdpTransport.open(options.bindAddress(), port, maxFrameBytes,
                new LossInjector(options.lossTxFraction(), options.lossSeed()),
                new LossInjector(options.lossRxFraction(), options.lossSeed() * 31 + 7));
            final int basePort = transport.port() - endpointIndex;
            if (basePort < 1)
            {
                throw new DriverException(DriverError.BAD_ARGUMENT, "endpoint " + endpointIndex + " got port " +
                    transport.port() + ", below its index: give a basePort");
            }
            this.address = new EndpointAddress(BoardAddress.udp(options.bindAddress(), basePort), endpointIndex, session);
            if (options.sameHost())
            {
                endpointFile = EndpointFile.create(options.shmDirectory(), transport.port(), session,
                    options.shmRingBytes(), options.maxRegions());
                this.regions = endpointFile.regions();
                Libc.allowPeersToRead();
            }
            else
            {
                this.regions = new RegionTable(arena.allocate(RegionTable.areaBytes(options.maxRegions()), 64));
            }
        }
        catch (final IOException | RuntimeException e)
        {
            if (endpointFile != null)
            {
                endpointFile.close();
            }
            if (transport != null)
            {
                transport.close();
            }
            arena.close();
            throw e;
        }
        this.udp = transport;
        this.file = endpointFile;
        this.hostBytes = options.bindAddress().getAddress();
        this.events = new EventRing(arena, options.eventRingBytes(), peers);
        this.peerFiles = options.sameHost() ? new PeerFileCache(options.shmDirectory(), udp.port()) : null;
        this.pulls = new PullEngine(arena, options, udp, peers, this::peerFile, regions, counters, events,
            endpointIndex, session);
        this.counterPublisher = null == options.countersFile() ? null :
            CounterPublisher.open(options.countersFile(), address, counters);
        if (options.progressThread())
        {
            progressThread = new Thread(this::runProgress, "pinmx-progress-" + address);
            progressThread.setDaemon(true);
            progressThread.start();
        }
        else
        {
            progressThread = null;
        }
    }

    static UserEndpoint open(final int endpointIndex, final UserDriverOptions options, final DriverInfo info)
    {
        try
        {
            return new UserEndpoint(endpointIndex, options, info);
        }
        catch (final IOException e)
        {
            throw new DriverException(DriverError.SYSTEM, 0, "cannot open user-space endpoint " + endpointIndex +
                " on " + options.bindAddress().getHostAddress() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public EndpointAddress address()
    {
        return address;
    }

    @Override
    public DriverInfo info()
    {
        return info;
    }

    @Override
    public int acquirePeer(final BoardAddress board)
    {
        checkOpen("acquirePeer");
        if (board == null)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "acquirePeer: board address is null");
        }
        final UdpPeer peer = peers.acquire(board);
        if (peer == null)
        {
            throw new DriverException(DriverError.NO_RESOURCES, "acquirePeer " + board + " on endpoint " + address +
                ": " + peers.describeFull());
        }
        return peer.index();
    }

    @Override
    public void retainPeer(final int peerIndex)
    {
        checkOpen("retainPeer");
        if (peers.retain(peerIndex) == null)
        {
            throw unknownPeer("retainPeer", peerIndex);
        }
    }

    @Override
    public void releasePeer(final int peerIndex)
    {
        checkOpen("releasePeer");
        peers.release(peerIndex, address);
    }

    @Override
    public BoardAddress peer(final int peerIndex)
    {
        checkOpen("peer");
        return peer("peer", peerIndex).board();
    }

    @Override
    public int declareRegion(final MemorySegment[] segments, final int count, final int accessFlags)
    {
        checkOpen("declareRegion");
        ContractChecks.declare(segments, count, RegionTable.MAX_SEGMENTS, accessFlags);
        final int id;
        synchronized (regionLock)
        {
            id = regions.declare(segments, count, accessFlags);
        }
        if (id == 0)
        {
            throw new DriverException(DriverError.NO_RESOURCES, "declareRegion: all " + regions.maxRegions() +
                " regions of endpoint " + address + " are declared");
        }
        return id;
    }

    @Override
    public void destroyRegion(final int regionId)
    {
        checkOpen("destroyRegion");
        final boolean destroyed;
        synchronized (regionLock)
        {
            destroyed = regions.destroy(regionId);
        }
        if (!destroyed)
        {
            throw new DriverException(DriverError.UNKNOWN_REGION, "destroyRegion: " +
                RegionTable.describe(regionId) + " is not declared on endpoint " + address);
        }
    }

    @Override
    public void send(final int peerIndex, final MemorySegment frameHeader, final MemorySegment payload)
    {
        checkOpen("send");
        final UdpPeer peer = peer("send", peerIndex);
        final FrameKind kind = ContractChecks.send(peerIndex, frameHeader, payload, maxFrameBytes, frameLimitText);
        final MemorySegment body = payload == null ? MemorySegment.NULL : payload;
        final int dstEndpoint = frameHeader.get(ValueLayout.JAVA_BYTE, FrameFlyweight.DST_ENDPOINT_OFFSET) & 0xFF;
        final EndpointFile peerFile = options.sameHost() ? peerFile(peer, dstEndpoint,
            frameHeader.get(U32, FrameFlyweight.DST_SESSION_OFFSET)) : null;
        if (peerFile != null)
        {
            sendShm(peerFile, peer, dstEndpoint, frameHeader, body);
        }
        else
        {
            try
            {
                final int status = udp.send(frameHeader, body, peer.socketAddress(dstEndpoint));
                if (status == UdpTransport.LOSS_INJECTED)
                {
                    counters.increment(Counter.DROPPED_LOSS_INJECTED_TX);
                }
                else if (status == UdpTransport.SEND_BUFFER_FULL)
                {
                    throw new DriverException(DriverError.NO_RESOURCES, "send " + kind + " to peer " + peerIndex +
                        " (" + peer.board() + " endpoint " + dstEndpoint +
                        "): the UDP socket's send buffer stayed full");
                }
            }
            catch (final IOException e)
            {
                throw new DriverException(DriverError.SYSTEM, 0, "send " + kind + " to peer " + peerIndex + " (" +
                    peer.board() + " endpoint " + dstEndpoint + "): " + e.getMessage(), e);
            }
        }
        counters.increment(Counter.sent(kind));
    }

    @Override
    public void startPull(final PullSpec spec)
    {
        checkOpen("startPull");
        ContractChecks.pull(spec);
        final UdpPeer peer = peers.hold(spec.peerIndex());
        if (peer == null)
        {
            throw unknownPeer("startPull", spec.peerIndex());
        }
        try
        {
            checkLocalRegion(spec);
            pulls.submit(spec, peer);
        }
        catch (final RuntimeException e)
        {
            peers.releaseHold(peer);
            throw e;
        }
        if (agentParked)
        {
            udp.wakeup();
        }
    }

    private void checkLocalRegion(final PullSpec spec)
    {
        final int code = regions.check(spec.localRegionId(), RegionTable.ACCESS_WRITE, spec.localOffset(), spec.length());
        if (code == RegionTable.UNKNOWN_REGION)
        {
            throw new DriverException(DriverError.UNKNOWN_REGION, "startPull " + spec + ": local " +
                RegionTable.describe(spec.localRegionId()) + " is not declared");
        }
        if (code == RegionTable.OUT_OF_RANGE)
        {
            throw new DriverException(DriverError.OUT_OF_RANGE, "startPull " + spec + ": local offset " +
                spec.localOffset() + " + length " + spec.length() + " reaches past the end of " +
                RegionTable.describe(spec.localRegionId()) + " (" + regions.regionBytes(spec.localRegionId()) + " bytes)");
        }
        if (code == RegionTable.ACCESS_DENIED)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "startPull " + spec + ": local " +
                RegionTable.describe(spec.localRegionId()) + " was not declared WRITE");
        }
    }

    @Override
    public int poll(final EventHandler handler, final int limit)
    {
        checkOpen("poll");
        ContractChecks.poll(handler, limit);
        runAgentIfIdle();
        pollLock.lock();
        try
        {
            checkOpen("poll");
            return events.poll(handler, limit);
        }
        finally
        {
            pollLock.unlock();
        }
    }

    @Override
    public boolean await(final long timeoutNs)
    {
        checkOpen("await");
        return awaitLoop.await(timeoutNs);
    }

    /** Await: ready when an event is queued; without a progress thread the caller runs the agent first. */
    private boolean eventReady()
    {
        runAgentIfIdle();
        if (!events.isEmpty())
        {
            return true;
        }
        checkOpen("await");
        return false;
    }

    /** Await, after spinning and yielding: run the agent parked in the selector, or park until it unparks us. */
    private void blockAwaiting(final long leftNs)
    {
        if (progressThread == null)
        {
            agentLock.lock();
            try
            {
                publishCountersIfDue();
                park(leftNs);
            }
            finally
            {
                agentLock.unlock();
            }
        }
        else
        {
            waiter = Thread.currentThread();
            if (events.isEmpty())
            {
                LockSupport.parkNanos(this, Math.min(leftNs, AWAIT_PARK_SLICE_NS));
            }
            waiter = null;
        }
    }

    /** Without a progress thread, poll and await run the agent, unless another caller is running it. */
    private void runAgentIfIdle()
    {
        if (progressThread == null && agentLock.tryLock())
        {
            try
            {
                doWork();
            }
            finally
            {
                agentLock.unlock();
            }
        }
    }

    @Override
    public DriverCounters counters()
    {
        return counters;
    }

    @Override
    public void close()
    {
        // this object's monitor only makes close run once
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
        }
        if (progressThread != null)
        {
            udp.wakeup();
            try
            {
                progressThread.join(TimeUnit.SECONDS.toMillis(10));
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        agentLock.lock();
        try
        {
            pulls.abandonAll();
            if (null != counterPublisher)
            {
                counterPublisher.close();
            }
            synchronized (regionLock)
            {
                final int[] ids = new int[regions.maxRegions()];
                final int n = regions.declaredIds(ids);
                for (int i = 0; i < n; i++)
                {
                    regions.destroy(ids[i]);
                }
            }
            if (peerFiles != null)
            {
                peerFiles.close();
            }
            if (file != null)
            {
                file.close();
            }
            try
            {
                udp.close();
            }
            catch (final IOException ignored)
            {
                // Closing a datagram channel only fails if it is already closed.
            }
        }
        finally
        {
            agentLock.unlock();
        }
        pollLock.lock();
        try
        {
            arena.close();
        }
        finally
        {
            pollLock.unlock();
        }
        final Thread blocked = waiter;
        if (blocked != null)
        {
            LockSupport.unpark(blocked);
        }
    }

    @Override
    public String toString()
    {
        return "UserEndpoint{" + address + ", progress=" + (progressThread != null ? "thread" : "poll") + "}";
    }

    /** Agent: one duty cycle. @return work done (0 = idle). */
    int doWork()
    {
        int work = pulls.startSubmitted();
        work += receiveUdp();
        if (file != null)
        {
            final int fit = Math.min(RECEIVE_BATCH, events.framesThatFit(maxFrameBytes));
            if (fit > 0)
            {
                work += file.ring().drain(shmConsumer, fit);
            }
        }
        if (pulls.hasActivePulls())
        {
            final long nowNs = System.nanoTime();
            if (nowNs - nextTimerCheckNs >= 0)
            {
                nextTimerCheckNs = nowNs + TIMER_CHECK_INTERVAL_NS;
                work += pulls.checkTimers(nowNs);
            }
        }
        if (work > 0)
        {
            final Thread blocked = waiter;
            if (blocked != null && !events.isEmpty())
            {
                LockSupport.unpark(blocked);
            }
        }
        return work;
    }

    private void runProgress()
    {
        try
        {
            progressLoop();
        }
        catch (final Throwable t)
        {
            progressFailure = t;
            final Thread blocked = waiter;
            if (blocked != null)
            {
                LockSupport.unpark(blocked);
            }
        }
    }

    private void progressLoop()
    {
        final BackoffThenBlockIdleStrategy idle = new BackoffThenBlockIdleStrategy(BackoffThenBlockIdleStrategy.SPINS,
            BackoffThenBlockIdleStrategy.YIELDS, true, () ->
            {
                publishCountersIfDue();
                park(PARK_MAX_NS);
            });
        while (!closed)
        {
            idle.idle(doWork());
        }
    }

    /** Agent, idle: the publisher bounds the rate, so the idle path can ask every time. */
    private void publishCountersIfDue()
    {
        if (null != counterPublisher)
        {
            counterPublisher.publishIfDue(System.nanoTime());
        }
    }

    /**
     * @return the name this endpoint publishes its counters under, or null when it does not publish.
     */
    public String publishedCountersName()
    {
        return null == counterPublisher ? null : counterPublisher.name();
    }

    /** Agent: block in the selector until a datagram, a doorbell, a wake-up or the next timer. */
    private void park(final long maxNs)
    {
        final long timeoutNs = pulls.hasActivePulls() ?
            Math.min(maxNs, options.pullResendTimeoutNs() / 2) : Math.min(maxNs, PARK_MAX_NS);
        agentParked = true;
        if (file != null)
        {
            file.ring().setConsumerParked(true);
        }
        try
        {
            if (!closed && !pulls.hasSubmissions() && (file == null || file.ring().isEmpty()))
            {
                udp.awaitReadable(timeoutNs);
            }
        }
        catch (final IOException | RuntimeException e)
        {
            if (!closed)
            {
                throw new IllegalStateException("progress agent of " + address + " cannot wait for input", e);
            }
        }
        finally
        {
            if (file != null)
            {
                file.ring().setConsumerParked(false);
            }
            agentParked = false;
        }
    }

    private int receiveUdp()
    {
        int received = 0;
        try
        {
            final int fit = Math.min(RECEIVE_BATCH, events.framesThatFit(maxFrameBytes));
            while (received < fit)
            {
                final InetSocketAddress source = udp.receive();
                if (source == null)
                {
                    break;
                }
                received++;
                if (udp.receivedBytes() == 0)
                {
                    continue;
                }
                if (udp.dropReceived())
                {
                    counters.increment(Counter.DROPPED_LOSS_INJECTED_RX);
                    continue;
                }
                onFrame(udp.receivedBuffer(), 0, udp.receivedBytes(), source);
            }
        }
        catch (final IOException e)
        {
            // An ICMP error queued on the socket by an earlier send: nothing was received, keep going.
            received++;
        }
        return received;
    }

    private void onShmFrame(
        final MemorySegment buffer, final long frameOffset, final int frameLength, final int senderPort,
        final long addressOffset, final int addressLength)
    {
        counters.increment(Counter.SHM_FRAMES_RECEIVED);
        if (frameLength > maxFrameBytes)
        {
            counters.increment(Counter.DROPPED_BAD_LENGTH);
            return;
        }
        final InetSocketAddress source = shmSender(senderPort & 0xFFFF, buffer, addressOffset, addressLength);
        if (source != null)
        {
            onFrame(buffer, frameOffset, frameLength, source);
        }
        else
        {
            counters.increment(Counter.DROPPED_BAD_FIELD);
        }
    }

    /** The sender of a ring record as a socket address, cached per port so steady traffic allocates nothing. */
    private InetSocketAddress shmSender(
        final int port, final MemorySegment buffer, final long addressOffset, final int addressLength)
    {
        final byte[] cachedBytes = shmSenderBytes[port];
        if (cachedBytes != null && sameBytes(cachedBytes, buffer, addressOffset, addressLength))
        {
            return shmSenderAddress[port];
        }
        try
        {
            final byte[] bytes = new byte[addressLength];
            MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, addressOffset, bytes, 0, addressLength);
            final InetSocketAddress source = new InetSocketAddress(InetAddress.getByAddress(bytes), port);
            shmSenderAddress[port] = source;
            shmSenderBytes[port] = bytes;
            return source;
        }
        catch (final UnknownHostException e)
        {
            return null;
        }
    }

    private static boolean sameBytes(final byte[] bytes, final MemorySegment buffer, final long offset, final int length)
    {
        if (bytes.length != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (bytes[i] != buffer.get(ValueLayout.JAVA_BYTE, offset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Agent: check a received frame and dispatch it. Only a frame that becomes an event takes a peer-table entry
     * (held until poll delivers it): a misaddressed frame is answered at its source address, PULLs are served there,
     * and PULL_REPLYs are matched against the pull's own peer, so strangers cost no lasting state.
     */
    private void onFrame(final MemorySegment frame, final long offset, final int length, final InetSocketAddress source)
    {
        final DropReason invalid = FrameReader.check(frame, offset, length);
        if (invalid != DropReason.NONE)
        {
            counters.increment(Counter.dropped(invalid));
            return;
        }
        header.wrap(frame, offset);
        final FrameKind kind = header.kind();
        final int basePort = source.getPort() - header.srcEndpoint();
        if (basePort < 1)
        {
            counters.increment(Counter.DROPPED_BAD_FIELD);
            return;
        }
        final DropReason misaddressed = FrameReader.checkAddressedTo(frame, offset, endpointIndex, sessionId);
        if (misaddressed != DropReason.NONE)
        {
            counters.increment(Counter.dropped(misaddressed));
            if (kind != FrameKind.NACK)
            {
                pulls.sendNack(frame, offset, source, misaddressed == DropReason.WRONG_ENDPOINT ?
                    NackReason.BAD_ENDPOINT : NackReason.BAD_SESSION, 0, 0, 0, 0);
            }
            return;
        }
        counters.increment(Counter.received(kind));
        switch (kind)
        {
            case PULL -> pulls.serve(frame, offset, source);
            case PULL_REPLY -> pulls.onReply(frame, offset, source.getAddress(), basePort);
            case NACK ->
            {
                if (nack.wrap(frame, offset).refusedKind() == FrameKind.PULL)
                {
                    pulls.onNack(frame, offset);
                }
                else
                {
                    queueReceived(EventType.RECV_NACK, frame, offset, source.getAddress(), basePort);
                }
            }
            default -> queueReceived(EventType.received(kind), frame, offset, source.getAddress(), basePort);
        }
    }

    private void queueReceived(
        final EventType type, final MemorySegment frame, final long offset, final InetAddress host, final int basePort)
    {
        final UdpPeer peer = peers.holdSource(host, basePort);
        if (peer == null)
        {
            counters.increment(Counter.DROPPED_PEER_TABLE_FULL);
            return;
        }
        if (!events.offerReceived(type, peer.index(), frame, offset, header.frameLength()))
        {
            peers.releaseHold(peer);
        }
    }

    private void sendShm(
        final EndpointFile peerFile, final UdpPeer peer, final int dstEndpoint, final MemorySegment frameHeader,
        final MemorySegment payload)
    {
        final ShmFrameRing ring = peerFile.ring();
        if (!ring.offer(frameHeader, payload, udp.port(), hostBytes))
        {
            counters.increment(Counter.SHM_RING_FULL_WAITS);
            final long deadlineNs = System.nanoTime() + SHM_FULL_TIMEOUT_NS;
            final BackoffThenBlockIdleStrategy idle =
                new BackoffThenBlockIdleStrategy(BackoffThenBlockIdleStrategy.SPINS, 0, false, Thread::yield);
            while (!ring.offer(frameHeader, payload, udp.port(), hostBytes))
            {
                if (!peerFile.isLive() || !peerFile.ownerAlive() || System.nanoTime() - deadlineNs > 0)
                {
                    throw new DriverException(DriverError.PEER_UNREACHABLE, "send to peer " + peer.index() + " (" +
                        peer.board() + " endpoint " + dstEndpoint + "): its shared-memory ring " +
                        (!peerFile.isLive() ? "was closed" : !peerFile.ownerAlive() ?
                            "belongs to process " + peerFile.pid() + ", which is gone" : "stayed full for 1 s"));
                }
                idle.idle();
            }
        }
        counters.increment(Counter.SHM_FRAMES_SENT);
        if (ring.claimWakeUp())
        {
            try
            {
                udp.sendDoorbell(peer.socketAddress(dstEndpoint));
                counters.increment(Counter.DOORBELLS_SENT);
            }
            catch (final IOException e)
            {
                throw new DriverException(DriverError.SYSTEM, 0, "doorbell to peer " + peer.index() + " endpoint " +
                    dstEndpoint + ": " + e.getMessage(), e);
            }
        }
    }

    /** The mapped endpoint file of a same-host peer endpoint, or null (then UDP is used). */
    private EndpointFile peerFile(final UdpPeer peer, final int dstEndpoint, final int dstSession)
    {
        return peer.isSameHost() && peerFiles != null ? peerFiles.find(peer.basePort() + dstEndpoint, dstSession) : null;
    }

    private UdpPeer peer(final String operation, final int peerIndex)
    {
        final UdpPeer peer = peers.entry(peerIndex);
        if (peer == null)
        {
            throw unknownPeer(operation, peerIndex);
        }
        return peer;
    }

    private DriverException unknownPeer(final String operation, final int peerIndex)
    {
        return new DriverException(DriverError.UNKNOWN_PEER, operation + ": peer index " + peerIndex +
            " is not in the peer table of endpoint " + address + peers.describeIndex(peerIndex));
    }

    /** @return entries in the peer table (referenced, held or reclaimable), for tests. */
    int peerTableSize()
    {
        return peers.size();
    }

    private void checkOpen(final String operation)
    {
        if (closed)
        {
            throw new DriverException(DriverError.ENDPOINT_CLOSED, operation + ": endpoint " + address + " is closed");
        }
        final Throwable failure = progressFailure;
        if (failure != null)
        {
            throw new DriverException(DriverError.SYSTEM, 0, operation + ": the progress thread of endpoint " + address +
                " died: " + failure, failure);
        }
    }
}
