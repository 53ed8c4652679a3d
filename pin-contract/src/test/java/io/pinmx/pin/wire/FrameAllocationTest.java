package io.pinmx.pin.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.ThreadMXBean;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The receive-path check and the flyweights allocate nothing per frame once warm. A deoptimisation during a pass
 * re-materialises the few objects escape analysis had removed (tens of bytes, depending on which classes earlier
 * tests of the same JVM loaded), so a pass that allocated that little is followed by another, up to
 * {@value #MAX_PASSES}; a per-frame allocation shows in every pass.
 */
@Tag("allocation")
class FrameAllocationTest
{
    private static final int FRAMES = 200_000;
    private static final int MAX_PASSES = 5;

    private final EagerFrame eager = new EagerFrame();
    private final PullReplyFrame reply = new PullReplyFrame();
    private long sink;

    private void encodeCheckAndDecode(final MemorySegment buffer, final int frames)
    {
        for (int i = 0; i < frames; i++)
        {
            eager.wrap(buffer, 0).encodeHeader(FrameKind.TINY, 1, 2, 3, 4, i, 8);
            eager.encode(i, 8);
            sink += FrameReader.check(buffer, 0, FrameKind.TINY.headerBytes() + 8).ordinal();
            sink += FrameReader.checkAddressedTo(buffer, 0, 1, 3).ordinal();
            sink += eager.matchInfo() + eager.seq();

            reply.wrap(buffer, 256).encodeHeader(FrameKind.PULL_REPLY, 1, 2, 3, 4, 0, 1000);
            reply.encode(i, i, 1000L * i);
            sink += FrameReader.check(buffer, 256, FrameKind.PULL_REPLY.headerBytes() + 1000).ordinal();
            sink += reply.pullOffset() + reply.payloadLength();
            buffer.set(ValueLayout.JAVA_BYTE, 1, (byte)9);
            sink += FrameReader.check(buffer, 0, 64).ordinal();
        }
    }

    @Test
    void encodeCheckAndDecodeAllocateNothingOnceWarm()
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment buffer = arena.allocate(2048);
            encodeCheckAndDecode(buffer, FRAMES);
            final List<Long> allocated = new ArrayList<>();
            do
            {
                final long before = threads.getCurrentThreadAllocatedBytes();
                encodeCheckAndDecode(buffer, FRAMES);
                allocated.add(threads.getCurrentThreadAllocatedBytes() - before);
            }
            while (0 != allocated.getLast() && allocated.size() < MAX_PASSES);
            assertEquals(0, allocated.getLast(), "bytes allocated by each pass of " + FRAMES + " frames " + allocated +
                " (sink " + sink + ")");
        }
    }
}
