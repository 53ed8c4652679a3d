package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.PullFrame;
import io.pinmx.pin.wire.PullReplyFrame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

/**
 * The serving side of the pull protocol, and the endpoint's refusals: a PULL from a peer is checked (region id,
 * range, READ access) and its block answered with PULL_REPLY frames; a bad PULL, or any frame not addressed to this
 * endpoint, is answered with a NACK. Runs on the agent only; keeps no state between requests.
 * <p>
 * The replies go out in as few sends as UDP segmentation offload allows, each send gathering the frames' headers
 * from a staging buffer and their payloads straight from our declared region ({@link FrameIovecs}): the block is
 * copied once, by the kernel into its socket buffers, and an unmapped page is the send's EFAULT, not a crash. Then
 * the block is read with process_vm_readv into the payload slots of the staging buffer (where each header is
 * followed by its payload's room), which names the segment and address for the NACK, or, if the page is mapped
 * again, serves the block from there.
 */
final class PullServer
{
    /** Most PULL_REPLY frames of one served block (the most pullBlockFrames allows). */
    static final int STAGING_FRAMES = 64;
    /** errno a refusal of a region not declared READ carries in its NACK. */
    static final int EACCES = 13;

    private final AgentFrameSender sender;
    private final RegionTable regions;
    private final DriverCounters counters;
    private final VmCopier copier;
    private final int endpointIndex;
    private final int sessionId;
    private final int framePayloadBytes;
    private final MemorySegment frame;
    private final MemorySegment nackHeader;
    private final MemorySegment staging;
    private final FrameIovecs iovecs;
    private final int replyHeaderBytes = FrameKind.PULL_REPLY.headerBytes();
    private final PullFrame pull = new PullFrame();
    private final PullReplyFrame reply = new PullReplyFrame();
    private final NackFrame nack = new NackFrame();

    PullServer(
        final Arena arena,
        final AgentFrameSender sender,
        final RegionTable regions,
        final DriverCounters counters,
        final int framePayloadBytes,
        final int endpointIndex,
        final int sessionId)
    {
        this.sender = sender;
        this.regions = regions;
        this.counters = counters;
        this.copier = new VmCopier(arena);
        this.endpointIndex = endpointIndex;
        this.sessionId = sessionId;
        this.framePayloadBytes = framePayloadBytes;
        this.frame = arena.allocate(FrameFlyweight.HEADER_BYTES + 64, 8);
        this.nackHeader = frame.asSlice(0, FrameKind.NACK.headerBytes());
        this.staging = arena.allocate((long)STAGING_FRAMES * (replyHeaderBytes + framePayloadBytes), 64);
        this.iovecs = new FrameIovecs(arena);
    }

    /** Serve a PULL (already checked by FrameReader and addressed to us). */
    void serve(final MemorySegment buffer, final long frameOffset, final InetSocketAddress replyTo)
    {
        pull.wrap(buffer, frameOffset);
        final int regionId = pull.regionId();
        final long regionOffset = pull.regionOffset();
        final long blockBytes = pull.blockLength();
        final long replyBytes = pull.replyPayloadBytes();
        if (replyBytes > framePayloadBytes || pull.frameCount() > STAGING_FRAMES)
        {
            // answered, not only dropped: the puller would resend the same request until its retries ran out
            counters.increment(Counter.DROPPED_BAD_FIELD);
            sendNack(buffer, frameOffset, replyTo, NackReason.BAD_FIELD, regionId, 0, framePayloadBytes, 0);
            return;
        }
        if (regions.checkReadKey(regionId, pull.payloadLength() == PullFrame.KEY_PAYLOAD_BYTES ? pull.key() : 0) != 0)
        {
            counters.increment(Counter.REMOTE_BAD_KEY);
            sendNack(buffer, frameOffset, replyTo, NackReason.BAD_KEY, regionId, 0, regionOffset, 0);
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
        final int frames = pull.frameCount();
        final int segmentBytes = replyHeaderBytes + (int)replyBytes;
        final int firstFrame = pull.firstFrameIndex();
        final long pullOffset = pull.pullOffset();
        final int pullerHandle = pull.pullHandle();
        final int pullerEndpoint = pull.srcEndpoint();
        final int pullerSession = pull.srcSession();
        int lastSegmentBytes = segmentBytes;
        for (int k = 0; k < frames; k++)
        {
            final long at = k * replyBytes;
            final int bytes = (int)Math.min(replyBytes, blockBytes - at);
            reply.wrap(staging, (long)k * segmentBytes).encodeHeader(FrameKind.PULL_REPLY, pullerEndpoint,
                endpointIndex, pullerSession, sessionId, 0, bytes);
            reply.encode(pullerHandle, firstFrame + k, pullOffset + at);
            lastSegmentBytes = replyHeaderBytes + bytes;
        }
        if (sender.sendReplies(iovecs.gathered(staging.address(), segmentBytes, replyHeaderBytes,
            copier.remoteIovecs(), count, replyBytes, blockBytes), segmentBytes, replyTo))
        {
            counters.increment(Counter.PULLS_SERVED);
            return;
        }
        // a page of the block is not mapped: the checked copy names it, or serves the block if it is mapped again
        copier.localFrames(staging.address() + replyHeaderBytes, segmentBytes, replyBytes, blockBytes);
        if (!copier.transfer(Libc.pid(), false, blockBytes))
        {
            sendNack(buffer, frameOffset, replyTo, NackReason.SEGMENT_FAULT, regionId, copier.remoteFaultSegment(),
                copier.remoteFaultAddress(), copier.errno());
            return;
        }
        counters.increment(Counter.PULLS_SERVED);
        sender.sendReplies(iovecs.backToBack(staging.address(), frames, segmentBytes, lastSegmentBytes), segmentBytes,
            replyTo);
    }

    /** NACK a frame that is not for us (wrong endpoint or session), or a PULL, PUT or ATOMIC we refuse. */
    void sendNack(
        final MemorySegment refused, final long frameOffset, final InetSocketAddress replyTo, final NackReason reason,
        final int regionId, final int segmentIndex, final long address, final int errno)
    {
        final FrameFlyweight header = pull.wrap(refused, frameOffset);
        final FrameKind refusedKind = header.kind();
        // a PULL's pull handle, a PUT's put handle and an ATOMIC's request seq share the kind part's first word
        final int refusedHandle =
            refusedKind == FrameKind.PULL || refusedKind == FrameKind.PUT || refusedKind == FrameKind.ATOMIC ?
                pull.pullHandle() : 0;
        final int dstEndpoint = header.srcEndpoint();
        final int dstSession = header.srcSession();
        final int refusedSeq = header.seq();
        nack.wrap(frame, 0).encodeHeader(FrameKind.NACK, dstEndpoint, endpointIndex, dstSession, sessionId, 0, 0);
        nack.encode(reason, refusedKind, refusedSeq, refusedHandle, regionId, segmentIndex, address, errno);
        if (sender.send(nackHeader, MemorySegment.NULL, 0, 0, replyTo, FrameKind.NACK))
        {
            counters.increment(Counter.NACKS_SENT);
        }
    }
}
