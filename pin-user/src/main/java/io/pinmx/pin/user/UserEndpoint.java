package io.pinmx.pin.user;

import io.pinmx.pin.provider.AwaitLoop;
import io.pinmx.pin.provider.ContractChecks;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.PeerLiveness;
import io.pinmx.pin.spi.ProviderOptions;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RegionAccess;
import io.pinmx.pin.spi.RemoteRegion;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;

/**
 * One open endpoint of the user-space driver: the {@link DriverEndpoint} operations application threads call, over
 * the pieces it owns and wires together: the UDP socket and shared-memory file, the region table, the peer table,
 * the event ring, the {@link FrameTransmitter} (send), the {@link Puller} and {@link PullServer} (both sides of the
 * pull protocol), the {@link RemoteWriter} and {@link RemoteWriteServer} (both sides of puts and atomics), the {@link FrameDispatcher} (receive) and the {@link EndpointAgent} (who runs progress, and how it
 * waits).
 * <p>
 * Locks, each with one purpose:
 * <ul>
 * <li>this object's monitor: close runs once;</li>
 * <li>{@code regionLock}: one writer of the region table at a time (readers go by its seqlock);</li>
 * <li>the agent's {@code ownerLock}: without a progress thread, who runs the duty cycle; in both modes, the event
 * ring's consumer against close (poll tries it and never waits without a progress thread);</li>
 * <li>the pull slots' lock: their free list, submitted queue and cancels, between application threads and the
 * agent;</li>
 * <li>the remote ops' monitor: their free list and submitted queue (an idle cycle reads a volatile flag instead);</li>
 * <li>the transmitter's {@code runLock}: its iovecs for a run of frames sent by UDP ({@code sendRun}, any thread);</li>
 * <li>the UDP transport's {@code sendLock}: its send buffers (header, iovecs, staging), shared by every sending
 * thread, and its close;</li>
 * <li>the liveness probes' monitor: what each remote endpoint last answered, between the agent and
 * {@code checkLiveness} callers;</li>
 * <li>the peer registry's and the peer-file cache's monitors: changes to their tables (cached lookups go without);</li>
 * <li>{@code CounterPublisher}'s store table monitor: the counters stores this JVM has open, at open and close.</li>
 * </ul>
 * Order: ownerLock is the outermost; under it the duty cycle and close's teardown take the others one at a time.
 * sendLock is the innermost: a send takes it alone or under ownerLock, runLock or the liveness probes' monitor (a
 * probe sent during a check), and takes nothing under it. A caller-driven poll takes ownerLock and nothing else
 * unless the cycle has work.
 */
final class UserEndpoint implements DriverEndpoint
{
    private static final int MAX_KIND_PART_BYTES = 64;
    private static final SecureRandom SESSION_IDS = new SecureRandom();
    private static final SecureRandom REGION_KEYS = new SecureRandom();

    private final DriverInfo info;
    private final ProviderOptions providerOptions;
    private final EndpointAddress address;
    private final Arena arena;
    private final UdpTransport udp;
    private final EndpointFile file;
    private final RegionTable regions;
    private final DriverCounters counters = new DriverCounters();
    private final PeerRegistry<UdpPeer> peers = new PeerRegistry<>(counters);
    private final EventRing events;
    private final Puller puller;
    private final RemoteWriter writer;
    private final RemoteWriteServer writeServer;
    private final FrameTransmitter transmitter;
    private final EndpointAgent agent;
    private final LivenessProbes liveness;
    private final HugePageAdvice hugePages;
    private final int maxFrameBytes;

    /** Null without the same-host path. */
    private final PeerFileCache peerFiles;
    /**
     * Serialises writers of the region table (declareRegion, destroyRegion and close, from application threads);
     * readers (the agent serving pulls, same-host pullers in other processes) go by the table's seqlock instead.
     */
    private final Object regionLock = new Object();
    /** Built once, so a poll allocates nothing. */
    private final Runnable pollOpenCheck = () -> checkOpen("poll");
    private final AwaitLoop awaitLoop;
    /** The send limit as a message names it, built once so a send allocates nothing. */
    private final String frameLimitText;
    /** Null when counters are not published; the agent publishes them while idle. */
    private final CounterPublisher counterPublisher;
    private volatile boolean closed;

    private UserEndpoint(final int endpointIndex, final UserDriverOptions options, final DriverInfo info)
        throws IOException
    {
        this.info = info;
        this.providerOptions = UserProviderOptions.describe(options);
        this.hugePages = HugePageAdvice.fromEnvironment(System.getenv());
        int session;
        do
        {
            session = SESSION_IDS.nextInt();
        }
        while (session == 0);
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
        final ShmFrameRing ring = file == null ? null : file.ring();
        final RingTakenPosition ringTaken = ring == null ? null : new RingTakenPosition(ring, !options.progressThread());
        this.events = new EventRing(arena, options.eventRingBytes(), peers, ringTaken);
        this.peerFiles = options.sameHost() ? new PeerFileCache(options.shmDirectory(), file, udp.port()) : null;
        this.transmitter = new FrameTransmitter(udp, counters, peerFiles, options.bindAddress().getAddress(),
            this::drainWhileSendWaits);
        final AgentFrameSender agentFrames = new AgentFrameSender(udp, counters,
            options.bindAddress().getAddress());
        final EndpointParts parts = new EndpointParts(arena, options, agentFrames, peers, transmitter::peerFile, regions,
            counters, events, endpointIndex, session);
        this.puller = new Puller(parts, file, udp.port());
        final PullServer server = new PullServer(arena, agentFrames, regions, counters, options.framePayloadBytes(),
            endpointIndex, session);
        this.writer = new RemoteWriter(parts);
        this.writeServer = new RemoteWriteServer(arena, agentFrames, server, regions, peerFiles, counters,
            endpointIndex, session);
        this.liveness = new LivenessProbes(arena, udp, counters, options.shmDirectory(), endpointIndex, session);
        final FrameDispatcher dispatcher = new FrameDispatcher(udp, ring, ringTaken, events, peers, puller, server, writer, writeServer,
            new PullHelper(arena, peerFiles, regions, counters), liveness, counters, endpointIndex, session,
            maxFrameBytes);
        this.counterPublisher = null == options.countersFile() ? null :
            CounterPublisher.open(options.countersFile(), address, counters);
        this.agent = new EndpointAgent(address, options.progressThread(), options.responder(),
            options.pullResendTimeoutNs(), options.progressSliceNs(), udp, ring, events, puller, writer, dispatcher,
            counterPublisher);
        this.awaitLoop = new AwaitLoop(this::eventReady, agent::blockAwaiting);
        agent.start();
    }

    /** {@link FrameTransmitter.OwnRing}: the agent, made after the transmitter, drains the endpoint's ring. */
    private boolean drainWhileSendWaits()
    {
        return agent.drainWhileSendWaits();
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
    public ProviderOptions providerOptions()
    {
        return providerOptions;
    }

    @Override
    public int acquirePeer(final BoardAddress board)
    {
        checkOpen("acquirePeer");
        if (board == null)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "acquirePeer: board address is null");
        }
        return peers.acquire(board, UdpPeer.Key.of(board), address).index();
    }

    @Override
    public PeerLiveness checkLiveness(
        final int peerIndex, final int endpointIndex, final int sessionId, final PeerLiveness out)
    {
        checkOpen("checkLiveness");
        return liveness.check(peers.entryOrThrow("checkLiveness", peerIndex, address), endpointIndex, sessionId, out);
    }

    @Override
    public void retainPeer(final int peerIndex)
    {
        checkOpen("retainPeer");
        peers.retainOrThrow(peerIndex, address);
    }

    @Override
    public void releasePeer(final int peerIndex)
    {
        checkOpen("releasePeer");
        peers.release(peerIndex, "releasePeer", address);
    }

    @Override
    public BoardAddress peer(final int peerIndex)
    {
        checkOpen("peer");
        return peers.entryOrThrow("peer", peerIndex, address).board();
    }

    @Override
    public int declareRegion(final MemorySegment[] segments, final int count, final int accessFlags)
    {
        checkOpen("declareRegion");
        ContractChecks.declare(segments, count, RegionTable.MAX_SEGMENTS, accessFlags);
        hugePages.advise(segments, count);
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
            if (destroyed)
            {
                // inside the lock: the slot is declared again only once the agent is out of this region
                writeServer.awaitNotServing(regionId);
            }
        }
        if (!destroyed)
        {
            throw new DriverException(DriverError.UNKNOWN_REGION, "destroyRegion: " +
                RegionTable.describe(regionId) + " is not declared on endpoint " + address);
        }
    }

    @Override
    public boolean send(final int peerIndex, final MemorySegment frameHeader, final MemorySegment payload)
    {
        checkOpen("send");
        final UdpPeer peer = peers.entryOrThrow("send", peerIndex, address);
        final FrameKind kind = ContractChecks.send(peerIndex, frameHeader, payload, maxFrameBytes, frameLimitText);
        return transmitter.send(peer, ContractChecks.destinationEndpoint(frameHeader),
            ContractChecks.destinationSession(frameHeader), kind, frameHeader, payload == null ? MemorySegment.NULL : payload);
    }

    @Override
    public boolean sendRun(
        final int peerIndex, final MemorySegment[] headers, final MemorySegment[] payloads, final int frames)
    {
        checkOpen("sendRun");
        final UdpPeer peer = peers.entryOrThrow("sendRun", peerIndex, address);
        ContractChecks.sendRun(peerIndex, headers, payloads, frames, maxFrameBytes, frameLimitText);
        return transmitter.sendRun(peer, ContractChecks.destinationEndpoint(headers[0]),
            ContractChecks.destinationSession(headers[0]), headers, payloads, frames);
    }

    @Override
    public long receiveQueueWritten(final int peerIndex, final int endpointIndex, final int sessionId)
    {
        checkOpen("receiveQueueWritten");
        return transmitter.receiveQueueWritten(
            peers.entryOrThrow("receiveQueueWritten", peerIndex, address), endpointIndex, sessionId);
    }

    @Override
    public long receiveQueueRead(final int peerIndex, final int endpointIndex, final int sessionId)
    {
        checkOpen("receiveQueueRead");
        return transmitter.receiveQueueRead(
            peers.entryOrThrow("receiveQueueRead", peerIndex, address), endpointIndex, sessionId);
    }

    @Override
    public void startPull(final PullSpec spec)
    {
        checkOpen("startPull");
        ContractChecks.pull(spec);
        final UdpPeer peer = peers.holdOrThrow("startPull", spec.peerIndex(), address);
        try
        {
            puller.submit(spec, peer);
        }
        catch (final RuntimeException e)
        {
            peers.releaseHold(peer);
            throw e;
        }
        agent.wakeIfParked();
    }

    @Override
    public RemoteRegion declareRemoteRegion(final MemorySegment[] segments, final int count)
    {
        checkOpen("declareRemoteRegion");
        final int access = RegionAccess.READ | RegionAccess.WRITE;
        ContractChecks.declare(segments, count, RegionTable.MAX_SEGMENTS, access);
        hugePages.advise(segments, count);
        long key;
        do
        {
            key = REGION_KEYS.nextLong();
        }
        while (key == 0);
        final int id;
        synchronized (regionLock)
        {
            id = regions.declare(segments, count, access | RegionTable.ACCESS_REMOTE, key);
        }
        if (id == 0)
        {
            throw new DriverException(DriverError.NO_RESOURCES, "declareRemoteRegion: all " + regions.maxRegions() +
                " regions of endpoint " + address + " are declared");
        }
        return new RemoteRegion(id, key);
    }

    @Override
    public void startPut(final PutSpec spec)
    {
        checkOpen("startPut");
        if (null == spec)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "startPut: spec is null");
        }
        RemoteArguments.checkPut(spec);
        final UdpPeer peer = peers.holdOrThrow("startPut", spec.target().peerIndex(), address);
        try
        {
            writer.submitPut(spec, peer);
        }
        catch (final RuntimeException e)
        {
            peers.releaseHold(peer);
            throw e;
        }
        agent.wakeIfParked();
    }

    @Override
    public void startAtomic(final AtomicSpec spec)
    {
        checkOpen("startAtomic");
        if (null == spec)
        {
            throw new DriverException(DriverError.BAD_ARGUMENT, "startAtomic: spec is null");
        }
        RemoteArguments.checkAtomic(spec);
        final UdpPeer peer = peers.holdOrThrow("startAtomic", spec.target().peerIndex(), address);
        try
        {
            writer.submitAtomic(spec, peer);
        }
        catch (final RuntimeException e)
        {
            peers.releaseHold(peer);
            throw e;
        }
        agent.wakeIfParked();
    }

    @Override
    public void cancelPull(final int pullHandle)
    {
        checkOpen("cancelPull");
        puller.requestCancel(pullHandle);
        agent.wakeIfParked();
    }

    @Override
    public int poll(final EventHandler handler, final int limit)
    {
        checkOpen("poll");
        ContractChecks.poll(handler, limit);
        return agent.poll(handler, limit, pollOpenCheck);
    }

    @Override
    public boolean await(final long timeoutNs)
    {
        checkOpen("await");
        return awaitLoop.await(timeoutNs);
    }

    /**
     * Await: ready when an event is queued; without a progress thread the caller runs the agent first, and a duty
     * cycle that served a peer's pull, put or atomic ends the wait too (no event: the caller polls, finds the peer
     * active and keeps polling instead of blocking, so the peer's next request does not wait for this thread's
     * wake-up).
     */
    private boolean eventReady()
    {
        final long served = servedForPeers();
        agent.runIfFree();
        if (!events.isEmpty() || servedForPeers() != served)
        {
            return true;
        }
        checkOpen("await");
        return false;
    }

    private long servedForPeers()
    {
        return counters.get(Counter.PULLS_SERVED) + counters.get(Counter.PUT_BYTES_WRITTEN) +
            counters.get(Counter.ATOMICS_APPLIED);
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
        agent.stop(this::tearDown);
        agent.unparkWaiter();
    }

    /** Close, inside the agent's owner lock: nothing runs the duty cycle or reads an event any more. */
    private void tearDown()
    {
        puller.abandonAll();
        writer.abandonAll();
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
        udp.close();
        arena.close();
    }

    @Override
    public String toString()
    {
        return "UserEndpoint{" + address + ", progress=" + (agent.hasProgressThread() ? "thread" : "poll") + "}";
    }

    /**
     * @return the name this endpoint publishes its counters under, or null when it does not publish.
     */
    public String publishedCountersName()
    {
        return null == counterPublisher ? null : counterPublisher.name();
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
        final Throwable failure = agent.failure();
        if (failure != null)
        {
            throw new DriverException(DriverError.SYSTEM, 0, operation + ": the progress thread of endpoint " + address +
                " died: " + failure, failure);
        }
    }
}
