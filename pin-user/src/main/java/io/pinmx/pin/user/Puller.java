package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PullSpec;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.PullFrame;
import io.pinmx.pin.wire.PullReplyFrame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

/**
 * The pulling side of the pull protocol: our pulls of a peer's declared region into ours, each in a
 * {@link PullSlot} of a {@link PullSlots} pool. Everything but {@link #submit} runs on the agent.
 * <p>
 * To a same-host peer whose endpoint file is mapped a pull is ONE process_vm_readv from the peer's declared
 * segments into the local region (iovecs built from both region tables). Otherwise it is PULL requests of
 * {@code pullBlockFrames} PULL_REPLY frames, {@code pullBlocksInFlight} blocks outstanding ({@link PullBlock}; more
 * when replies are cut to fit the MTU, see {@link #blocksInFlight}). The bytes those blocks hold are what all of
 * the endpoint's pulls together may have requested and not yet received: the replies of every pull land in one
 * socket, and many large pulls each with their own blocks in flight would send more than the receive buffer holds,
 * losing reply frames and bringing a window's bandwidth below one pull's. A pull started while those bytes are
 * requested waits for a block to complete; small pulls (a strided get's rows) still go out together. A block whose
 * replies are late is requested again (missing frames only) up to {@code pullMaxRetries} times, then the
 * pull fails with TIMEOUT. The payloads of a received run go straight into the local region where
 * {@link ReplyPlacement} can place them (no copy after the receive), the others through one process_vm_writev per
 * run. The end of every pull is an event that carries the hold on its peer.
 */
final class Puller
{
    /** Where the puller finds a same-host peer endpoint's file, or null. */
    interface PeerFiles
    {
        EndpointFile find(UdpPeer peer, int endpointIndex, int sessionId);
    }

    private static final long MIN_HELPER_TIMEOUT_NS = 1_000_000_000L;

    private final UserDriverOptions options;
    private final AgentFrameSender sender;
    private final PeerRegistry<UdpPeer> peers;
    private final PeerFiles peerFiles;
    private final RegionTable regions;
    private final DriverCounters counters;
    private final EventRing events;
    private final VmCopier copier;
    /** Null when pulls are never shared (no same-host path, or the option is 0). */
    private final SharedPullCopy sharedCopy;
    private final ReplyCopyBatch batch;
    private final PullSlots slots;
    private final ReplyPlacement placement;
    private final int endpointIndex;
    private final int sessionId;
    /**
     * Payload of the PULL_REPLY frames we ask for: framePayloadBytes, or less so that a reply fits the bound
     * interface's MTU as one datagram (a block then goes out in offloaded runs instead of IP fragments).
     */
    private final int framePayloadBytes;
    private final long pullBlockBytes;
    /** Bytes the endpoint's pulls may have requested and not yet received whole, and how many they have. */
    private final long bytesInFlight;
    private long bytesRequested;
    private final MemorySegment frame;
    private final MemorySegment pullHeader;
    private final PullFrame pull = new PullFrame();
    private final PullReplyFrame reply = new PullReplyFrame();
    private final NackFrame nack = new NackFrame();
    private final int[] cancels = new int[PullSlots.MAX_PULLS];

    Puller(final EndpointParts parts, final EndpointFile ownFile, final int port)
    {
        final UserDriverOptions options = parts.options();
        final Arena arena = parts.arena();
        this.options = options;
        this.sender = parts.sender();
        this.peers = parts.peers();
        this.peerFiles = parts.peerFiles();
        this.regions = parts.regions();
        this.counters = parts.counters();
        this.events = parts.events();
        this.copier = new VmCopier(arena);
        this.sharedCopy = ownFile == null || options.sharedPullMinBytes() == 0 ? null : new SharedPullCopy(
            ownFile.sharedPulls(), copier, parts.sender(), counters, parts.sessionId(), port,
            options.bindAddress().getAddress(), helperTimeoutNs(options));
        this.batch = new ReplyCopyBatch(arena);
        this.endpointIndex = parts.endpointIndex();
        this.sessionId = parts.sessionId();
        this.framePayloadBytes = UdpTransport.payloadWithinMtu(options.framePayloadBytes(), FrameKind.PULL_REPLY,
            options.bindAddress());
        this.pullBlockBytes = (long)options.pullBlockFrames() * framePayloadBytes;
        final int blocks = blocksInFlight(options.pullBlocksInFlight(), options.framePayloadBytes(), framePayloadBytes);
        this.bytesInFlight = blocks * pullBlockBytes;
        this.slots = new PullSlots(blocks);
        this.placement = new ReplyPlacement(arena, slots, regions, framePayloadBytes);
        this.frame = arena.allocate(FrameFlyweight.HEADER_BYTES + 64, 8);
        this.pullHeader = frame.asSlice(0, FrameKind.PULL.headerBytes());
    }

    /**
     * Blocks kept in flight: the option's count, times the factor replies were cut by to fit the MTU (up to 64),
     * so a pull keeps as many bytes in flight as the options ask for: fewer round trips through both agents.
     */
    static int blocksInFlight(final int option, final int framePayloadBytes, final int replyPayloadBytes)
    {
        return Math.min(PullServer.STAGING_FRAMES, option * Math.max(1, framePayloadBytes / replyPayloadBytes));
    }

    /** Application thread: check the local side of a pull the contract's checks passed, and queue it for the agent. */
    void submit(final PullSpec spec, final UdpPeer from)
    {
        checkLocalRegion(spec);
        slots.claim(spec, from);
        counters.increment(Counter.PULLS_STARTED);
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

    boolean hasSubmissions()
    {
        return slots.hasSubmissions();
    }

    boolean hasActivePulls()
    {
        return slots.activeCount() > 0;
    }

    /** Application thread: queue a cancel of the pulls with this caller handle for the agent. */
    void requestCancel(final int pullHandle)
    {
        slots.requestCancel(pullHandle);
    }

    /** Agent: start submitted pulls, then apply the cancels asked for before them. @return work done. */
    int startSubmitted()
    {
        final int cancelCount = slots.takeCancels(cancels);
        int started = 0;
        PullSlot slot;
        while ((slot = slots.takeSubmitted()) != null)
        {
            start(slot);
            started++;
        }
        for (int i = 0; i < cancelCount; i++)
        {
            cancel(cancels[i]);
        }
        return started + cancelCount;
    }

    /**
     * Agent: end every active pull with this caller handle. Its slot goes back under a new generation, so replies
     * still on their way are dropped as duplicates; a same-host copy cannot be under way here, since it runs to its
     * end inside its start on this thread. Pulls that ended already have their own end event.
     */
    private void cancel(final int pullHandle)
    {
        PullSlot slot;
        while ((slot = slots.activeByHandle(pullHandle)) != null)
        {
            counters.increment(Counter.PULLS_CANCELLED);
            fail(slot, PullFailure.ofCancelled(slot));
        }
    }

    private void start(final PullSlot slot)
    {
        if (slot.length == 0)
        {
            complete(slot);
            return;
        }
        final EndpointFile peerFile = options.sameHost() ?
            peerFiles.find(slot.peer, slot.remoteEndpoint, slot.remoteSession) : null;
        if (peerFile != null && singleCopy(slot, peerFile))
        {
            return;
        }
        slots.activate(slot);
        requestBlocks(slot, System.nanoTime());
    }

    /** @return false if the pull must go over UDP instead (the kernel refused cross-process access). */
    private boolean singleCopy(final PullSlot slot, final EndpointFile peerFile)
    {
        if (peerFile.sessionId() != slot.remoteSession)
        {
            fail(slot, PullFailure.ofSessionChanged(slot, peerFile.sessionId()));
            return true;
        }
        if (peerFile.regions().checkReadKey(slot.remoteRegion, slot.remoteKey) != 0)
        {
            fail(slot, PullFailure.ofBadKey(slot));
            return true;
        }
        final int remoteCount = copier.resolveRemote(
            peerFile.regions(), slot.remoteRegion, RegionTable.ACCESS_READ, slot.remoteOffset, slot.length);
        if (remoteCount < 0)
        {
            fail(slot, PullFailure.ofRegion(slot, remoteCount, true));
            return true;
        }
        final int localCount = copier.resolveLocal(
            regions, slot.localRegion, RegionTable.ACCESS_WRITE, slot.localOffset, slot.length);
        if (localCount < 0)
        {
            fail(slot, PullFailure.ofRegion(slot, localCount, false));
            return true;
        }
        final SharedPullCopy.Outcome outcome = shares(slot, peerFile) ? sharedCopy.copy(slot, peerFile) :
            copier.transfer(peerFile.pid(), false, slot.length) ?
                SharedPullCopy.Outcome.COPIED : SharedPullCopy.Outcome.COPY_FAILED;
        if (outcome == SharedPullCopy.Outcome.COPIED)
        {
            counters.increment(Counter.PULL_SINGLE_COPY);
            counters.add(Counter.PULL_BYTES, slot.length);
            complete(slot);
            return true;
        }
        if (outcome == SharedPullCopy.Outcome.HELPER_STUCK)
        {
            fail(slot, PullFailure.ofHelperStuck(slot, peerFile.pid(), helperTimeoutNs(options)));
            return true;
        }
        final int errno = copier.errno();
        if (errno == Errno.EPERM && copier.faultPosition() == 0)
        {
            return false;
        }
        if (errno == Errno.ESRCH)
        {
            fail(slot, PullFailure.ofProcessGone(slot, peerFile.pid(), errno));
        }
        else if (!copier.remoteReadable(peerFile.pid()))
        {
            fail(slot, PullFailure.ofRemoteFault(slot, copier.remoteFaultSegment(), copier.remoteFaultAddress(),
                errno));
        }
        else
        {
            fail(slot, PullFailure.ofLocalFault(slot, copier.localFaultSegment(), copier.localFaultAddress(),
                errno));
        }
        return true;
    }

    private boolean shares(final PullSlot slot, final EndpointFile peerFile)
    {
        return sharedCopy != null && !peerFile.isOwn() && slot.length >= options.sharedPullMinBytes();
    }

    /**
     * How long a shared pull waits for the block its source's agent holds: as long as a UDP pull may take, and at
     * least {@link #MIN_HELPER_TIMEOUT_NS}, so that a source descheduled in the middle of its copy on a loaded host
     * (or a slow guest) is waited for rather than failed.
     */
    private static long helperTimeoutNs(final UserDriverOptions options)
    {
        return Math.max(MIN_HELPER_TIMEOUT_NS, options.pullResendTimeoutNs() * (options.pullMaxRetries() + 1L));
    }

    /** Requests blocks of the slot's pull, then of the other active pulls, while the endpoint has bytes to spare. */
    private void requestBlocks(final PullSlot first, final long nowNs)
    {
        requestBlocksOf(first, nowNs);
        requestQueuedBlocks(nowNs);
    }

    /** Blocks of any active pull, while the endpoint has bytes to spare. */
    private void requestQueuedBlocks(final long nowNs)
    {
        for (int i = slots.activeCount() - 1; i >= 0 && bytesRequested < bytesInFlight; i--)
        {
            requestBlocksOf(slots.active(i), nowNs);
        }
    }

    private void requestBlocksOf(final PullSlot slot, final long nowNs)
    {
        final long blockBytes = pullBlockBytes;
        for (final PullBlock block : slot.blocks())
        {
            if (slot.nextRequestOffset >= slot.length || bytesRequested >= bytesInFlight)
            {
                return;
            }
            if (block.inUse())
            {
                continue;
            }
            final long offset = slot.nextRequestOffset;
            final int bytes = (int)Math.min(blockBytes, slot.length - offset);
            block.request(offset, bytes, nowNs);
            bytesRequested += bytes;
            slot.nextRequestOffset = offset + bytes;
            sendPull(slot, offset, bytes);
        }
    }

    private void sendPull(final PullSlot slot, final long pullOffset, final int bytes)
    {
        final int keyBytes = slot.remoteKey == 0 ? 0 : PullFrame.KEY_PAYLOAD_BYTES;
        pull.wrap(frame, 0).encodeHeader(FrameKind.PULL, slot.remoteEndpoint, endpointIndex,
            slot.remoteSession, sessionId, 0, keyBytes);
        pull.encode(slot.wireHandle(), slot.remoteRegion, slot.remoteOffset + pullOffset, pullOffset, bytes,
            (int)(pullOffset / framePayloadBytes), framePayloadBytes);
        if (keyBytes > 0)
        {
            pull.key(slot.remoteKey);
        }
        sender.send(pullHeader, frame, FrameKind.PULL.headerBytes(), keyBytes,
            slot.peer.socketAddress(slot.remoteEndpoint), FrameKind.PULL);
    }

    /** Agent: resend late blocks, fail pulls out of retries. @return work done. */
    int checkTimers(final long nowNs)
    {
        int work = 0;
        for (int i = slots.activeCount() - 1; i >= 0; i--)
        {
            final PullSlot slot = slots.active(i);
            for (final PullBlock block : slot.blocks())
            {
                if (!block.isLate(nowNs, options.pullResendTimeoutNs()))
                {
                    continue;
                }
                work++;
                if (block.retries() >= options.pullMaxRetries())
                {
                    fail(slot, PullFailure.ofNoReply(slot, block.pullOffset(), block.retries() + 1));
                    break;
                }
                block.retried(nowNs);
                resendMissing(slot, block);
            }
        }
        return work;
    }

    private void resendMissing(final PullSlot slot, final PullBlock block)
    {
        final long missing = block.missingMask(PullFrame.frameCount(block.length(), framePayloadBytes));
        final int first = Long.numberOfTrailingZeros(missing);
        final int last = 63 - Long.numberOfLeadingZeros(missing);
        final long from = block.pullOffset() + (long)first * framePayloadBytes;
        final long to = Math.min(block.end(), block.pullOffset() + (long)(last + 1) * framePayloadBytes);
        counters.increment(Counter.PULL_REQUESTS_RESENT);
        sendPull(slot, from, (int)(to - from));
    }

    /** Where the replies of a run go before it is read, while pulls are active ({@link #hasActivePulls}). */
    ReplyPlacement placement()
    {
        return placement;
    }

    /**
     * Agent: a PULL_REPLY arrived (already checked by FrameReader and addressed to us).
     *
     * @param placed the frame's index in its run if {@link ReplyPlacement} read its payload into the local region
     *               already, else -1 (the payload follows the header in {@code buffer}).
     */
    void onReply(final MemorySegment buffer, final long frameOffset, final InetAddress host, final int basePort,
        final int placed)
    {
        reply.wrap(buffer, frameOffset);
        final PullSlot slot = slots.activeByWireHandle(reply.pullHandle());
        if (slot == null || !slot.peer.is(host, basePort) || reply.srcSession() != slot.remoteSession)
        {
            counters.increment(Counter.PULL_DUPLICATE_FRAMES);
            return;
        }
        final long pullOffset = reply.pullOffset();
        final int payloadBytes = reply.payloadLength();
        final PullBlock block = slot.blockOf(pullOffset);
        if (block == null || pullOffset % framePayloadBytes != 0 ||
            reply.frameIndex() != (int)(pullOffset / framePayloadBytes) ||
            payloadBytes != Math.min(framePayloadBytes, block.end() - pullOffset))
        {
            counters.increment(block == null ? Counter.PULL_DUPLICATE_FRAMES : Counter.DROPPED_BAD_FIELD);
            return;
        }
        final int frameInBlock = (int)((pullOffset - block.pullOffset()) / framePayloadBytes);
        if (block.hasFrame(frameInBlock))
        {
            counters.increment(Counter.PULL_DUPLICATE_FRAMES);
            return;
        }
        if (placed >= 0)
        {
            if (!placement.landedRight(placed, slot, pullOffset))
            {
                // its payload went to an empty place of the planned pull, not here: lost, and pulled again
                counters.increment(Counter.DROPPED_BAD_FIELD);
                return;
            }
            counters.increment(Counter.PULL_FRAMES_RECEIVED);
            counters.increment(Counter.PULL_FRAMES_PLACED);
            if (!batch.hasRoom(0))
            {
                flushReplies();
            }
            block.frameArrived(frameInBlock, System.nanoTime());
            batch.addPlaced(slot, block, pullOffset);
            return;
        }
        counters.increment(Counter.PULL_FRAMES_RECEIVED);
        final int localCount = copier.resolveRemote(
            regions, slot.localRegion, RegionTable.ACCESS_WRITE, slot.localOffset + pullOffset, payloadBytes);
        if (localCount < 0)
        {
            fail(slot, PullFailure.ofRegion(slot, localCount, false));
            return;
        }
        if (!batch.hasRoom(localCount))
        {
            flushReplies();
            copier.resolveRemote(
                regions, slot.localRegion, RegionTable.ACCESS_WRITE, slot.localOffset + pullOffset, payloadBytes);
        }
        // marked now, so a duplicate later in the same run is seen; the block completes once the bytes are written
        block.frameArrived(frameInBlock, System.nanoTime());
        batch.add(slot, block, pullOffset, buffer.address() + frameOffset + FrameKind.PULL_REPLY.headerBytes(),
            payloadBytes, copier.remoteIovecs(), localCount);
    }

    /**
     * Agent, after each received datagram (run of frames): write the payloads {@link #onReply} took into their
     * local regions with one process_vm_writev, then finish the blocks they completed. If that call falls short,
     * each payload is written on its own so a fault is pinned on its pull.
     */
    void flushReplies()
    {
        final int frames = batch.frames();
        if (frames == 0)
        {
            return;
        }
        final boolean written = batch.write();
        for (int i = 0; i < frames; i++)
        {
            final PullSlot slot = batch.slot(i);
            if (slots.activeByWireHandle(batch.wireHandle(i)) != slot)
            {
                continue;
            }
            if (!written && batch.bytes(i) > 0 && !writeOne(slot, batch.pullOffset(i), batch.address(i), batch.bytes(i)))
            {
                continue;
            }
            final PullBlock block = batch.block(i);
            if (block.inUse() && block.framesReceived() == PullFrame.frameCount(block.length(), framePayloadBytes))
            {
                slot.bytesDone += block.length();
                bytesRequested -= block.length();
                block.clear();
                if (slot.bytesDone == slot.length)
                {
                    counters.add(Counter.PULL_BYTES, slot.length);
                    complete(slot);
                    requestQueuedBlocks(System.nanoTime());
                }
                else
                {
                    requestBlocks(slot, System.nanoTime());
                }
            }
        }
        batch.clear();
    }

    /** @return false if the pull failed on a fault in its local region. */
    private boolean writeOne(final PullSlot slot, final long pullOffset, final long address, final int bytes)
    {
        final int count = copier.resolveRemote(
            regions, slot.localRegion, RegionTable.ACCESS_WRITE, slot.localOffset + pullOffset, bytes);
        if (count < 0)
        {
            fail(slot, PullFailure.ofRegion(slot, count, false));
            return false;
        }
        copier.localBuffer(address, bytes);
        if (!copier.transfer(Libc.pid(), true, bytes))
        {
            // our own region sits on the copier's remote side here (a copy into this process): its fault is ours
            fail(slot, PullFailure.ofLocalFault(
                slot, copier.remoteFaultSegment(), copier.remoteFaultAddress(), copier.errno()));
            return false;
        }
        return true;
    }

    /** Agent: a NACK refusing one of our PULLs. */
    void onNack(final MemorySegment buffer, final long frameOffset)
    {
        nack.wrap(buffer, frameOffset);
        final PullSlot slot = slots.activeByWireHandle(nack.refusedHandle());
        if (slot == null)
        {
            return;
        }
        fail(slot, PullFailure.ofNack(slot, nack, framePayloadBytes, pullBlockBytes));
    }

    /** Close: every pull not yet complete is abandoned; no end event can be polled any more. */
    void abandonAll()
    {
        for (int i = slots.activeCount() - 1; i >= 0; i--)
        {
            abandon(slots.active(i));
        }
        PullSlot slot;
        while ((slot = slots.takeSubmitted()) != null)
        {
            abandon(slot);
        }
    }

    /** The pull's hold on its peer passes to the completion event; poll releases it after delivery. */
    private void complete(final PullSlot slot)
    {
        counters.increment(Counter.PULLS_DONE);
        if (!events.offerCompletion(EventType.PULL_DONE, slot.peer.index(), slot.handle, slot.length, null, null))
        {
            peers.releaseHold(slot.peer);
        }
        free(slot);
    }

    private void fail(final PullSlot slot, final PullFailure failure)
    {
        counters.increment(Counter.PULLS_FAILED);
        if (!events.offerCompletion(EventType.PULL_FAILED, slot.peer.index(), slot.handle, slot.bytesDone,
            failure.error(), failure.message()))
        {
            peers.releaseHold(slot.peer);
        }
        if (free(slot))
        {
            requestQueuedBlocks(System.nanoTime());
        }
    }

    private void abandon(final PullSlot slot)
    {
        counters.increment(Counter.PULLS_ABANDONED);
        peers.releaseHold(slot.peer);
        free(slot);
    }

    /** @return whether the slot's pull still had blocks requested, whose bytes go back to the endpoint's to spare. */
    private boolean free(final PullSlot slot)
    {
        final long released = PullState.ACTIVE == slot.state() ? slot.releaseBlocks() : 0;
        bytesRequested -= released;
        slots.free(slot);
        return released > 0;
    }
}
