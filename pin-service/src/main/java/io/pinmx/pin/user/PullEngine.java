package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.PullFrame;
import io.pinmx.pin.wire.PullReplyFrame;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Both sides of the pull protocol for one endpoint. Everything but {@link #submit} runs on the progress agent.
 * <p>
 * Puller: a pull occupies one of {@link #MAX_PULLS} slots, a state machine FREE -> SUBMITTED -> ACTIVE -> FREE.
 * To a same-host peer whose endpoint file is mapped it is ONE process_vm_readv from the peer's declared segments
 * into the local region (iovecs built from both region tables). Otherwise it is PULL requests of
 * {@code pullBlockFrames} PULL_REPLY frames, {@code pullBlocksInFlight} blocks outstanding, each block tracked by a
 * bit mask of received frames; a block whose replies are late is requested again (missing frames only) up to
 * {@code pullMaxRetries} times, then the pull fails with TIMEOUT. The wire pull handle is the slot plus a
 * generation, so late replies to a finished pull are recognised and dropped.
 * <p>
 * Server: a PULL is checked (session, region id, range, read access), the block is read from the declared region
 * with process_vm_readv on this process (an unmapped page is an EFAULT, answered by a NACK naming the segment, not
 * a crash), and answered with PULL_REPLY frames; bad requests are answered with a NACK.
 */
final class PullEngine
{
    static final int MAX_PULLS = 256;
    /** Most PULL_REPLY frames of one served block (the most pullBlockFrames allows). */
    private static final int STAGING_FRAMES = 64;
    /** errno a refusal of a region not declared READ carries in its NACK. */
    private static final int EACCES = 13;
    private static final int SLOT_BITS = 8;

    private static final int FREE = 0;
    private static final int SUBMITTED = 1;
    private static final int ACTIVE = 2;

    /** Where the engine finds a same-host peer endpoint's file, or null. */
    interface PeerFiles
    {
        EndpointFile find(UdpPeer peer, int endpointIndex, int sessionId);
    }

    private final UserDriverOptions options;
    private final UdpTransport udp;
    private final PeerTable peers;
    private final PeerFiles peerFiles;
    private final RegionTable regions;
    private final DriverCounters counters;
    private final EventRing events;
    private final VmCopier copier;
    private final int endpointIndex;
    private final int sessionId;
    private final int framePayloadBytes;
    private final int blocksInFlight;

    private final ReentrantLock submitLock = new ReentrantLock();
    private final int[] freeSlots = new int[MAX_PULLS];
    private int freeCount;
    private final int[] submitted = new int[MAX_PULLS];
    private int submittedCount;
    private volatile boolean hasSubmissions;

    private final int[] state = new int[MAX_PULLS];
    private final int[] generation = new int[MAX_PULLS];
    private final int[] handle = new int[MAX_PULLS];
    /** The peer each pull reaches, held from submit until its completion event has been delivered. */
    private final UdpPeer[] peer = new UdpPeer[MAX_PULLS];
    private final int[] remoteEndpoint = new int[MAX_PULLS];
    private final int[] remoteSession = new int[MAX_PULLS];
    private final int[] remoteRegion = new int[MAX_PULLS];
    private final long[] remoteOffset = new long[MAX_PULLS];
    private final int[] localRegion = new int[MAX_PULLS];
    private final long[] localOffset = new long[MAX_PULLS];
    private final long[] length = new long[MAX_PULLS];
    private final long[] nextRequestOffset = new long[MAX_PULLS];
    private final long[] bytesDone = new long[MAX_PULLS];
    private final int[] active = new int[MAX_PULLS];
    private int activeCount;

    /**
     * Per pull, per block in flight: pull offset of the block (-1 = unused), length, received-frame mask, time of
     * the last request or reply (a block still receiving replies is not late), requests resent.
     */
    private final long[][] blockOffset;
    private final int[][] blockLength;
    private final long[][] blockReceived;
    private final long[][] blockSentNs;
    private final int[][] blockRetries;

    private final MemorySegment frame;
    private final MemorySegment pullHeader;
    private final MemorySegment replyHeader;
    private final MemorySegment nackHeader;
    private final MemorySegment staging;
    private final PullFrame pull = new PullFrame();
    private final PullReplyFrame reply = new PullReplyFrame();
    private final NackFrame nack = new NackFrame();

    PullEngine(
        final Arena arena,
        final UserDriverOptions options,
        final UdpTransport udp,
        final PeerTable peers,
        final PeerFiles peerFiles,
        final RegionTable regions,
        final DriverCounters counters,
        final EventRing events,
        final int endpointIndex,
        final int sessionId)
    {
        this.options = options;
        this.udp = udp;
        this.peers = peers;
        this.peerFiles = peerFiles;
        this.regions = regions;
        this.counters = counters;
        this.events = events;
        this.copier = new VmCopier(arena);
        this.endpointIndex = endpointIndex;
        this.sessionId = sessionId;
        this.framePayloadBytes = options.framePayloadBytes();
        this.blocksInFlight = options.pullBlocksInFlight();
        this.frame = arena.allocate(FrameFlyweight.HEADER_BYTES + 64, 8);
        this.pullHeader = frame.asSlice(0, FrameKind.PULL.headerBytes());
        this.replyHeader = frame.asSlice(0, FrameKind.PULL_REPLY.headerBytes());
        this.nackHeader = frame.asSlice(0, FrameKind.NACK.headerBytes());
        this.staging = arena.allocate((long)STAGING_FRAMES * framePayloadBytes, 64);
        this.blockOffset = new long[MAX_PULLS][blocksInFlight];
        this.blockLength = new int[MAX_PULLS][blocksInFlight];
        this.blockReceived = new long[MAX_PULLS][blocksInFlight];
        this.blockSentNs = new long[MAX_PULLS][blocksInFlight];
        this.blockRetries = new int[MAX_PULLS][blocksInFlight];
        for (int i = 0; i < MAX_PULLS; i++)
        {
            freeSlots[i] = MAX_PULLS - 1 - i;
        }
        freeCount = MAX_PULLS;
    }

    /** Application thread: queue a validated pull for the agent. */
    void submit(final PullSpec spec, final UdpPeer from)
    {
        submitLock.lock();
        try
        {
            if (freeCount == 0)
            {
                throw new DriverException(DriverError.NO_RESOURCES,
                    "pull " + spec + ": " + MAX_PULLS + " pulls already in flight on this endpoint");
            }
            final int slot = freeSlots[--freeCount];
            generation[slot] = (generation[slot] + 1) & 0xFFFFFF;
            handle[slot] = spec.pullHandle();
            peer[slot] = from;
            remoteEndpoint[slot] = spec.remoteEndpointIndex();
            remoteSession[slot] = spec.remoteSessionId();
            remoteRegion[slot] = spec.remoteRegionId();
            remoteOffset[slot] = spec.remoteOffset();
            localRegion[slot] = spec.localRegionId();
            localOffset[slot] = spec.localOffset();
            length[slot] = spec.length();
            state[slot] = SUBMITTED;
            submitted[submittedCount++] = slot;
            hasSubmissions = true;
        }
        finally
        {
            submitLock.unlock();
        }
        counters.increment(Counter.PULLS_STARTED);
    }

    boolean hasSubmissions()
    {
        return hasSubmissions;
    }

    boolean hasActivePulls()
    {
        return activeCount > 0;
    }

    /** Agent: start submitted pulls. @return work done. */
    int startSubmitted()
    {
        if (!hasSubmissions)
        {
            return 0;
        }
        int started = 0;
        while (true)
        {
            final int slot;
            submitLock.lock();
            try
            {
                if (submittedCount == 0)
                {
                    hasSubmissions = false;
                    return started;
                }
                slot = submitted[0];
                System.arraycopy(submitted, 1, submitted, 0, --submittedCount);
            }
            finally
            {
                submitLock.unlock();
            }
            start(slot);
            started++;
        }
    }

    private void start(final int slot)
    {
        if (length[slot] == 0)
        {
            complete(slot);
            return;
        }
        final EndpointFile peerFile = options.sameHost() ? peerFiles.find(peer[slot], remoteEndpoint[slot], remoteSession[slot]) : null;
        if (peerFile != null && singleCopy(slot, peerFile))
        {
            return;
        }
        state[slot] = ACTIVE;
        active[activeCount++] = slot;
        nextRequestOffset[slot] = 0;
        bytesDone[slot] = 0;
        for (int b = 0; b < blocksInFlight; b++)
        {
            blockOffset[slot][b] = -1;
        }
        requestBlocks(slot, System.nanoTime());
    }

    /** @return false if the pull must go over UDP instead (the kernel refused cross-process access). */
    private boolean singleCopy(final int slot, final EndpointFile peerFile)
    {
        if (peerFile.sessionId() != remoteSession[slot])
        {
            fail(slot, DriverError.PEER_UNREACHABLE, "pull " + handle[slot] + " from " + describePeer(slot) +
                ": session " + Integer.toHexString(remoteSession[slot]) + " is not the endpoint's current session " +
                Integer.toHexString(peerFile.sessionId()));
            return true;
        }
        final int remoteCount = copier.resolveRemote(
            peerFile.regions(), remoteRegion[slot], RegionTable.ACCESS_READ, remoteOffset[slot], length[slot]);
        if (remoteCount < 0)
        {
            failOnRegion(slot, remoteCount, true);
            return true;
        }
        final int localCount = copier.resolveLocal(
            regions, localRegion[slot], RegionTable.ACCESS_WRITE, localOffset[slot], length[slot]);
        if (localCount < 0)
        {
            failOnRegion(slot, localCount, false);
            return true;
        }
        if (copier.transfer(peerFile.pid(), false, length[slot]))
        {
            counters.increment(Counter.PULL_SINGLE_COPY);
            counters.add(Counter.PULL_BYTES, length[slot]);
            complete(slot);
            return true;
        }
        final int errno = copier.errno();
        if (errno == Errno.EPERM && copier.faultPosition() == 0)
        {
            return false;
        }
        if (errno == Errno.ESRCH)
        {
            fail(slot, DriverError.PEER_UNREACHABLE, "pull " + handle[slot] + " from " + describePeer(slot) +
                ": process " + peerFile.pid() + " is gone (" + Errno.describe(errno) + ")");
            return true;
        }
        if (!copier.remoteReadable(peerFile.pid()))
        {
            fail(slot, DriverError.SEGMENT_FAULT, "pull " + handle[slot] + " from " + describePeer(slot) +
                ": remote " + RegionTable.describe(remoteRegion[slot]) + " segment " + copier.remoteFaultSegment() +
                " at 0x" + Long.toHexString(copier.remoteFaultAddress()) + ": not mapped (" +
                Errno.describe(errno) + ")");
        }
        else
        {
            fail(slot, DriverError.SEGMENT_FAULT, "pull " + handle[slot] + ": local " +
                RegionTable.describe(localRegion[slot]) + " segment " + copier.localFaultSegment() + " at 0x" +
                Long.toHexString(copier.localFaultAddress()) + ": not mapped (" + Errno.describe(errno) + ")");
        }
        return true;
    }

    private void requestBlocks(final int slot, final long nowNs)
    {
        final long blockBytes = options.pullBlockBytes();
        for (int b = 0; b < blocksInFlight && nextRequestOffset[slot] < length[slot]; b++)
        {
            if (blockOffset[slot][b] >= 0)
            {
                continue;
            }
            final long offset = nextRequestOffset[slot];
            final int bytes = (int)Math.min(blockBytes, length[slot] - offset);
            blockOffset[slot][b] = offset;
            blockLength[slot][b] = bytes;
            blockReceived[slot][b] = 0;
            blockRetries[slot][b] = 0;
            blockSentNs[slot][b] = nowNs;
            nextRequestOffset[slot] = offset + bytes;
            sendPull(slot, offset, bytes);
        }
    }

    private void sendPull(final int slot, final long pullOffset, final int bytes)
    {
        pull.wrap(frame, 0).encodeHeader(FrameKind.PULL, remoteEndpoint[slot], endpointIndex, remoteSession[slot],
            sessionId, 0, 0);
        pull.encode(wireHandle(slot), remoteRegion[slot], remoteOffset[slot] + pullOffset, pullOffset, bytes,
            (int)(pullOffset / framePayloadBytes), framePayloadBytes);
        sendFrame(pullHeader, MemorySegment.NULL, 0, 0,
            peer[slot].socketAddress(remoteEndpoint[slot]), FrameKind.PULL);
    }

    /** Agent: resend late blocks, fail pulls out of retries. @return work done. */
    int checkTimers(final long nowNs)
    {
        int work = 0;
        for (int i = activeCount - 1; i >= 0; i--)
        {
            final int slot = active[i];
            for (int b = 0; b < blocksInFlight; b++)
            {
                if (blockOffset[slot][b] < 0 ||
                    nowNs - blockSentNs[slot][b] < options.pullResendTimeoutNs() << Math.min(blockRetries[slot][b], 4))
                {
                    continue;
                }
                work++;
                if (blockRetries[slot][b] >= options.pullMaxRetries())
                {
                    fail(slot, DriverError.TIMEOUT, "pull " + handle[slot] + " from " + describePeer(slot) +
                        ": no complete reply to the PULL of block at offset " + blockOffset[slot][b] + " after " +
                        (blockRetries[slot][b] + 1) + " requests");
                    break;
                }
                blockRetries[slot][b]++;
                blockSentNs[slot][b] = nowNs;
                resendMissing(slot, b);
            }
        }
        return work;
    }

    private void resendMissing(final int slot, final int b)
    {
        final int frames = PullFrame.frameCount(blockLength[slot][b], framePayloadBytes);
        final long missing = ~blockReceived[slot][b] & (frames == 64 ? -1L : (1L << frames) - 1);
        final int first = Long.numberOfTrailingZeros(missing);
        final int last = 63 - Long.numberOfLeadingZeros(missing);
        final long from = blockOffset[slot][b] + (long)first * framePayloadBytes;
        final long to = Math.min(blockOffset[slot][b] + blockLength[slot][b],
            blockOffset[slot][b] + (long)(last + 1) * framePayloadBytes);
        counters.increment(Counter.PULL_REQUESTS_RESENT);
        sendPull(slot, from, (int)(to - from));
    }

    /** Agent: a PULL_REPLY arrived (already checked by FrameReader and addressed to us). */
    void onReply(final MemorySegment buffer, final long frameOffset, final InetAddress host, final int basePort)
    {
        reply.wrap(buffer, frameOffset);
        final int wire = reply.pullHandle();
        final int slot = wire & (MAX_PULLS - 1);
        if (state[slot] != ACTIVE || wire != wireHandle(slot) || !peer[slot].is(host, basePort) ||
            reply.srcSession() != remoteSession[slot])
        {
            counters.increment(Counter.PULL_DUPLICATE_FRAMES);
            return;
        }
        final long pullOffset = reply.pullOffset();
        final int payloadBytes = reply.payloadLength();
        final int b = blockOf(slot, pullOffset);
        if (b < 0 || pullOffset % framePayloadBytes != 0 ||
            reply.frameIndex() != (int)(pullOffset / framePayloadBytes) ||
            payloadBytes != Math.min(framePayloadBytes, blockOffset[slot][b] + blockLength[slot][b] - pullOffset))
        {
            counters.increment(b < 0 ? Counter.PULL_DUPLICATE_FRAMES : Counter.DROPPED_BAD_FIELD);
            return;
        }
        final int bit = (int)((pullOffset - blockOffset[slot][b]) / framePayloadBytes);
        if ((blockReceived[slot][b] & (1L << bit)) != 0)
        {
            counters.increment(Counter.PULL_DUPLICATE_FRAMES);
            return;
        }
        counters.increment(Counter.PULL_FRAMES_RECEIVED);
        final int localCount = copier.resolveRemote(
            regions, localRegion[slot], RegionTable.ACCESS_WRITE, localOffset[slot] + pullOffset, payloadBytes);
        if (localCount < 0)
        {
            failOnRegion(slot, localCount, false);
            return;
        }
        copier.localBuffer(buffer.address() + frameOffset + FrameKind.PULL_REPLY.headerBytes(), payloadBytes);
        if (!copier.transfer(Libc.pid(), true, payloadBytes))
        {
            fail(slot, DriverError.SEGMENT_FAULT, "pull " + handle[slot] + ": local " +
                RegionTable.describe(localRegion[slot]) + " segment " + copier.remoteFaultSegment() + " at 0x" +
                Long.toHexString(copier.remoteFaultAddress()) + ": not mapped (" +
                Errno.describe(copier.errno()) + ")");
            return;
        }
        blockReceived[slot][b] |= 1L << bit;
        blockSentNs[slot][b] = System.nanoTime();
        final int frames = PullFrame.frameCount(blockLength[slot][b], framePayloadBytes);
        if (Long.bitCount(blockReceived[slot][b]) == frames)
        {
            bytesDone[slot] += blockLength[slot][b];
            blockOffset[slot][b] = -1;
            if (bytesDone[slot] == length[slot])
            {
                counters.add(Counter.PULL_BYTES, length[slot]);
                complete(slot);
            }
            else
            {
                requestBlocks(slot, System.nanoTime());
            }
        }
    }

    /** Agent: a NACK refusing one of our PULLs. */
    void onNack(final MemorySegment buffer, final long frameOffset)
    {
        nack.wrap(buffer, frameOffset);
        final int wire = nack.refusedHandle();
        final int slot = wire & (MAX_PULLS - 1);
        if (state[slot] != ACTIVE || wire != wireHandle(slot))
        {
            return;
        }
        final NackReason reason = nack.reason();
        final String prefix = "pull " + handle[slot] + " from " + describePeer(slot) + ": ";
        switch (reason)
        {
            case UNKNOWN_REGION -> fail(slot, DriverError.UNKNOWN_REGION, prefix + "remote " +
                RegionTable.describe(nack.regionId()) + (nack.errno() == EACCES ? " was not declared READ" :
                " is not declared") + " (NACK UNKNOWN_REGION)");
            case OUT_OF_RANGE -> fail(slot, DriverError.OUT_OF_RANGE, prefix + "remote offset " +
                nack.address() + " + length reaches past the end of " + RegionTable.describe(nack.regionId()) +
                " (NACK OUT_OF_RANGE)");
            case SEGMENT_FAULT -> fail(slot, DriverError.SEGMENT_FAULT, prefix + "remote " +
                RegionTable.describe(nack.regionId()) + " segment " + nack.segmentIndex() + " at 0x" +
                Long.toHexString(nack.address()) + ": not mapped (" + Errno.describe(nack.errno()) + ")");
            case BAD_FIELD -> fail(slot, DriverError.BAD_ARGUMENT, prefix + "the peer refused a PULL for " +
                framePayloadBytes + "-byte replies in blocks of " + options.pullBlockBytes() + " bytes: its limit is " +
                nack.address() + "-byte replies, " + STAGING_FRAMES + " per block (NACK BAD_FIELD); " +
                "give both ends the same framePayloadBytes");
            case BAD_ENDPOINT, BAD_SESSION -> fail(slot, DriverError.PEER_UNREACHABLE, prefix +
                "the peer refused the request (NACK " + reason + ")");
        }
    }

    /** Agent: serve a PULL (already checked by FrameReader and addressed to us). */
    void serve(final MemorySegment buffer, final long frameOffset, final InetSocketAddress replyTo)
    {
        pull.wrap(buffer, frameOffset);
        final int regionId = pull.regionId();
        final long regionOffset = pull.regionOffset();
        final long blockBytes = pull.blockLength();
        final long replyBytes = pull.replyPayloadBytes();
        if (replyBytes > framePayloadBytes || blockBytes > staging.byteSize())
        {
            // answered, not only dropped: the puller would resend the same request until its retries ran out
            counters.increment(Counter.DROPPED_BAD_FIELD);
            sendNack(buffer, frameOffset, replyTo, NackReason.BAD_FIELD, regionId, 0, framePayloadBytes, 0);
            return;
        }
        final int count = copier.resolveRemote(regions, regionId, RegionTable.ACCESS_READ, regionOffset, blockBytes);
        if (count < 0)
        {
            final boolean outOfRange = count == RegionTable.OUT_OF_RANGE;
            counters.increment(outOfRange ? Counter.DROPPED_OUT_OF_RANGE : Counter.DROPPED_UNKNOWN_REGION);
            sendNack(buffer, frameOffset, replyTo, outOfRange ? NackReason.OUT_OF_RANGE : NackReason.UNKNOWN_REGION,
                regionId, 0, regionOffset, count == RegionTable.ACCESS_DENIED ? EACCES : 0);
            return;
        }
        copier.localBuffer(staging.address(), blockBytes);
        if (!copier.transfer(Libc.pid(), false, blockBytes))
        {
            sendNack(buffer, frameOffset, replyTo, NackReason.SEGMENT_FAULT, regionId, copier.remoteFaultSegment(),
                copier.remoteFaultAddress(), copier.errno());
            return;
        }
        counters.increment(Counter.PULLS_SERVED);
        final int frames = pull.frameCount();
        final int firstFrame = pull.firstFrameIndex();
        final long pullOffset = pull.pullOffset();
        final int pullerHandle = pull.pullHandle();
        final int pullerEndpoint = pull.srcEndpoint();
        final int pullerSession = pull.srcSession();
        for (int k = 0; k < frames; k++)
        {
            final long at = k * replyBytes;
            final int bytes = (int)Math.min(replyBytes, blockBytes - at);
            reply.wrap(frame, 0).encodeHeader(FrameKind.PULL_REPLY, pullerEndpoint, endpointIndex, pullerSession,
                sessionId, 0, bytes);
            reply.encode(pullerHandle, firstFrame + k, pullOffset + at);
            sendFrame(replyHeader, staging, at, bytes, replyTo, FrameKind.PULL_REPLY);
        }
    }

    /** Agent: NACK a frame that is not for us (wrong endpoint or session) or a PULL we refuse. */
    void sendNack(
        final MemorySegment refused, final long frameOffset, final InetSocketAddress replyTo, final NackReason reason,
        final int regionId, final int segmentIndex, final long address, final int errno)
    {
        final FrameFlyweight header = pull.wrap(refused, frameOffset);
        final FrameKind refusedKind = header.kind();
        final int refusedHandle = refusedKind == FrameKind.PULL ? pull.pullHandle() : 0;
        final int dstEndpoint = header.srcEndpoint();
        final int dstSession = header.srcSession();
        final int refusedSeq = header.seq();
        nack.wrap(frame, 0).encodeHeader(FrameKind.NACK, dstEndpoint, endpointIndex, dstSession, sessionId, 0, 0);
        nack.encode(reason, refusedKind, refusedSeq, refusedHandle, regionId, segmentIndex, address, errno);
        if (sendFrame(nackHeader, MemorySegment.NULL, 0, 0, replyTo, FrameKind.NACK))
        {
            counters.increment(Counter.NACKS_SENT);
        }
    }

    /** Close: every pull not yet complete is abandoned; no end event can be polled any more. */
    void abandonAll()
    {
        for (int i = activeCount - 1; i >= 0; i--)
        {
            abandon(active[i]);
        }
        submitLock.lock();
        try
        {
            while (submittedCount > 0)
            {
                abandon(submitted[--submittedCount]);
            }
            hasSubmissions = false;
        }
        finally
        {
            submitLock.unlock();
        }
    }

    private boolean sendFrame(
        final MemorySegment header, final MemorySegment payload, final long payloadOffset, final int payloadBytes,
        final InetSocketAddress to, final FrameKind kind)
    {
        try
        {
            final int status = udp.send(header, payload, payloadOffset, payloadBytes, to);
            if (status == UdpTransport.SENT)
            {
                counters.increment(Counter.sent(kind));
                if (kind == FrameKind.PULL_REPLY)
                {
                    counters.increment(Counter.PULL_REPLY_FRAMES_SENT);
                }
                return true;
            }
            if (status == UdpTransport.LOSS_INJECTED)
            {
                counters.increment(Counter.DROPPED_LOSS_INJECTED_TX);
            }
            return false;
        }
        catch (final IOException e)
        {
            // UDP send errors (ICMP unreachable reported late, buffer full) are losses: resend timers recover them.
            return false;
        }
    }

    private int blockOf(final int slot, final long pullOffset)
    {
        for (int b = 0; b < blocksInFlight; b++)
        {
            final long start = blockOffset[slot][b];
            if (start >= 0 && pullOffset >= start && pullOffset < start + blockLength[slot][b])
            {
                return b;
            }
        }
        return -1;
    }

    private void failOnRegion(final int slot, final int code, final boolean remote)
    {
        final int id = remote ? remoteRegion[slot] : localRegion[slot];
        final long offset = remote ? remoteOffset[slot] : localOffset[slot];
        final String side = remote ? "remote " : "local ";
        final String prefix = "pull " + handle[slot] + (remote ? " from " + describePeer(slot) : "") + ": " + side +
            RegionTable.describe(id);
        switch (code)
        {
            case RegionTable.UNKNOWN_REGION -> fail(slot, DriverError.UNKNOWN_REGION, prefix + " is not declared");
            case RegionTable.OUT_OF_RANGE -> fail(slot, DriverError.OUT_OF_RANGE, prefix + ": offset " + offset +
                " + length " + length[slot] + " reaches past its end");
            default -> fail(slot, remote ? DriverError.UNKNOWN_REGION : DriverError.BAD_ARGUMENT, prefix +
                " was not declared " + (remote ? "READ" : "WRITE"));
        }
    }

    /** The pull's hold on its peer passes to the completion event; poll releases it after delivery. */
    private void complete(final int slot)
    {
        counters.increment(Counter.PULLS_DONE);
        if (!events.offerCompletion(EventType.PULL_DONE, peer[slot].index(), handle[slot], length[slot], null, null))
        {
            peers.releaseHold(peer[slot]);
        }
        release(slot);
    }

    private void fail(final int slot, final DriverError error, final String message)
    {
        counters.increment(Counter.PULLS_FAILED);
        if (!events.offerCompletion(EventType.PULL_FAILED, peer[slot].index(), handle[slot], bytesDone[slot], error,
            message))
        {
            peers.releaseHold(peer[slot]);
        }
        release(slot);
    }

    private void abandon(final int slot)
    {
        counters.increment(Counter.PULLS_ABANDONED);
        peers.releaseHold(peer[slot]);
        release(slot);
    }

    private void release(final int slot)
    {
        if (state[slot] == ACTIVE)
        {
            for (int i = 0; i < activeCount; i++)
            {
                if (active[i] == slot)
                {
                    active[i] = active[--activeCount];
                    break;
                }
            }
        }
        state[slot] = FREE;
        peer[slot] = null;
        generation[slot] = (generation[slot] + 1) & 0xFFFFFF;
        submitLock.lock();
        try
        {
            freeSlots[freeCount++] = slot;
        }
        finally
        {
            submitLock.unlock();
        }
    }

    private int wireHandle(final int slot)
    {
        return generation[slot] << SLOT_BITS | slot;
    }

    private String describePeer(final int slot)
    {
        return "peer " + peer[slot].index() + " (" + peer[slot].board() + " endpoint " + remoteEndpoint[slot] + ")";
    }
}
