package io.pinmx.pin.wire;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Cost per frame of the receive-path check and of encoding, against a same-run baseline that
 * reads the six common-header fields a receiver needs with no validation at all.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameCodecBenchmark
{
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final int TINY_FRAME_BYTES = FrameKind.TINY.headerBytes() + 16;
    private static final int PULL_REPLY_OFFSET = 256;
    private static final int PULL_REPLY_FRAME_BYTES = FrameKind.PULL_REPLY.headerBytes() + 8192;

    private final EagerFrame eager = new EagerFrame();
    private Arena arena;
    private MemorySegment buffer;
    private int seq;

    @Setup
    public void setUp()
    {
        arena = Arena.ofShared();
        buffer = arena.allocate(16384);
        eager.wrap(buffer, 0).encodeHeader(FrameKind.TINY, 1, 2, 3, 4, 5, 16);
        eager.encode(42, 16);
        final PullReplyFrame reply = new PullReplyFrame().wrap(buffer, PULL_REPLY_OFFSET);
        reply.encodeHeader(FrameKind.PULL_REPLY, 1, 2, 3, 4, 0, 8192);
        reply.encode(7, 3, 3 * 8192L);
    }

    @TearDown
    public void tearDown()
    {
        arena.close();
    }

    @Benchmark
    public int baselineReadHeaderFields()
    {
        return (buffer.get(ValueLayout.JAVA_BYTE, 0) & 0xFF) + (buffer.get(ValueLayout.JAVA_BYTE, 1) & 0xFF) +
            (buffer.get(ValueLayout.JAVA_BYTE, 4) & 0xFF) + buffer.get(U32, 8) + buffer.get(U32, 16) +
            buffer.get(U32, 24);
    }

    @Benchmark
    public int checkTiny()
    {
        return FrameReader.check(buffer, 0, TINY_FRAME_BYTES).ordinal() +
            FrameReader.checkAddressedTo(buffer, 0, 1, 3).ordinal();
    }

    @Benchmark
    public int checkPullReply()
    {
        return FrameReader.check(buffer, PULL_REPLY_OFFSET, PULL_REPLY_FRAME_BYTES).ordinal() +
            FrameReader.checkAddressedTo(buffer, PULL_REPLY_OFFSET, 1, 3).ordinal();
    }

    @Benchmark
    public long encodeTiny()
    {
        eager.wrap(buffer, 0).encodeHeader(FrameKind.TINY, 1, 2, 3, 4, seq++, 16);
        eager.encode(seq, 16);
        return eager.matchInfo();
    }
}
