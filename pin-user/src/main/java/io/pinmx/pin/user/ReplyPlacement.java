package io.pinmx.pin.user;

import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.PullFrame;
import io.pinmx.pin.wire.PullReplyFrame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Lets a received run of PULL_REPLY frames land where it belongs. Before the run is read its first header, seen with
 * MSG_PEEK, names the pull and offset; the frames of the run that fall in that pull's block, not yet received, are
 * read by the kernel with their payloads straight into the pull's local region (headers into the receive buffer,
 * where the dispatcher checks them) instead of into the receive buffer and then once more with process_vm_writev.
 * The rest of the run lands in the receive buffer as before.
 * <p>
 * A placed payload only ever goes to a place of its pull that no frame has filled yet, and it counts only if its
 * header then says it belongs there ({@link #landedRight}); one that does not (a run coalesced from two blocks)
 * leaves its place unfilled, and the frame it really was is lost and pulled again. A run that meets an unmapped page
 * is lost (recvmsg's EFAULT) and its pull is not placed again: the resent frames take the checked copy, which names
 * the fault. Agent only.
 */
final class ReplyPlacement
{
    private final PullSlots slots;
    private final RegionTable regions;
    private final VmCopier copier;
    private final int framePayloadBytes;
    private final int headerBytes = FrameKind.PULL_REPLY.headerBytes();
    private final PullReplyFrame reply = new PullReplyFrame();
    private final FrameIovecs iovecs;
    private PullSlot slot;
    private int wireHandle;
    private long firstOffset;
    private int frames;

    ReplyPlacement(final Arena arena, final PullSlots slots, final RegionTable regions, final int framePayloadBytes)
    {
        this.slots = slots;
        this.regions = regions;
        this.copier = new VmCopier(arena);
        this.iovecs = new FrameIovecs(arena);
        this.framePayloadBytes = framePayloadBytes;
    }

    /**
     * Plans where the run the transport peeked at goes.
     *
     * @param buffer       the receive buffer, holding the run's first bytes.
     * @param runBytes     the run's length.
     * @param segmentBytes where its frames start: every this many bytes.
     * @return how many frames from the first are placed (0: the run is read into the buffer as usual); then
     *         {@link #iovecs} lists where its bytes go: header k at {@code k * segmentBytes} of the buffer, its payload
     *         in the local region, then the buffer from the first frame not placed.
     */
    int plan(final MemorySegment buffer, final int runBytes, final int segmentBytes)
    {
        frames = 0;
        slot = null;
        if (runBytes < headerBytes || runBytes > buffer.byteSize() || segmentBytes < headerBytes ||
            (buffer.get(ValueLayout.JAVA_BYTE, FrameFlyweight.KIND_OFFSET) & 0xFF) != FrameKind.PULL_REPLY.code())
        {
            return 0;
        }
        reply.wrap(buffer, 0);
        final PullSlot s = slots.activeByWireHandle(reply.pullHandle());
        final long first = reply.pullOffset();
        final PullBlock block = null == s || !s.placeable ? null : s.blockOf(first);
        if (null == block || first % framePayloadBytes != 0)
        {
            return 0;
        }
        final int firstInBlock = (int)((first - block.pullOffset()) / framePayloadBytes);
        final int blockFrames = PullFrame.frameCount(block.length(), framePayloadBytes);
        int n = 0;
        long bytes = 0;
        for (long at = 0; at < runBytes && firstInBlock + n < blockFrames && n < FrameIovecs.MAX_FRAMES;
            at += segmentBytes, n++)
        {
            final long payload = Math.min(segmentBytes, runBytes - at) - headerBytes;
            final long expected = Math.min(framePayloadBytes, block.end() - (first + (long)n * framePayloadBytes));
            if (block.hasFrame(firstInBlock + n) || payload != expected)
            {
                break;
            }
            bytes += payload;
        }
        if (0 == n)
        {
            return 0;
        }
        final int pieces = copier.resolveRemote(regions, s.localRegion, RegionTable.ACCESS_WRITE, s.localOffset + first,
            bytes);
        if (pieces < 0)
        {
            return 0;
        }
        iovecs.gathered(buffer.address(), segmentBytes, headerBytes, copier.remoteIovecs(), pieces, framePayloadBytes,
            bytes).rest(buffer.address() + (long)n * segmentBytes, buffer.byteSize() - (long)n * segmentBytes);
        slot = s;
        wireHandle = s.wireHandle();
        firstOffset = first;
        frames = n;
        return n;
    }

    /** The last plan's iovecs. */
    FrameIovecs iovecs()
    {
        return iovecs;
    }

    /** @return whether frame {@code k} of the run just read was placed: its payload is not in the receive buffer. */
    boolean placed(final int k)
    {
        return k < frames;
    }

    /** @return whether placed frame {@code k}, a reply to {@code s} at {@code pullOffset}, is where the plan put it. */
    boolean landedRight(final int k, final PullSlot s, final long pullOffset)
    {
        return s == slot && s.wireHandle() == wireHandle && pullOffset == firstOffset + (long)k * framePayloadBytes;
    }

    /** The planned run was lost to an unmapped page in its pull's local region: that pull is placed no more. */
    void faulted()
    {
        if (null != slot && slot.wireHandle() == wireHandle)
        {
            slot.placeable = false;
        }
        forget();
    }

    /** The run was read without a plan (or its frames are done with). */
    void forget()
    {
        frames = 0;
        slot = null;
    }
}
