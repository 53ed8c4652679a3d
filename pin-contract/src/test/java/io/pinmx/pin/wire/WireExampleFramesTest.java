package io.pinmx.pin.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The example frames in docs/wire-protocol.md are exactly what the codec writes, so another
 * implementation (the kernel module's parser and its tests) can be checked against them, and each
 * example passes {@link FrameReader#check}.
 */
class WireExampleFramesTest
{
    private static final Path DOC = Path.of("..", "docs", "wire-protocol.md");
    private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

    private final Arena arena = Arena.ofAuto();

    private MemorySegment frame(final FrameFlyweight flyweight, final FrameKind kind, final byte[] payload)
    {
        final MemorySegment buffer = arena.allocate(kind.headerBytes() + payload.length);
        flyweight.wrap(buffer, 0).encodeHeader(kind, 1, 2, 0x11223344, 0x55667788, 0x0A, payload.length);
        MemorySegment.copy(payload, 0, buffer, ValueLayout.JAVA_BYTE, kind.headerBytes(), payload.length);
        return buffer;
    }

    private Map<String, MemorySegment> examples()
    {
        final Map<String, MemorySegment> frames = new LinkedHashMap<>();
        final byte[] none = new byte[0];
        final ConnectFrame connect = new ConnectFrame();
        MemorySegment buffer = frame(connect, FrameKind.CONNECT_REQUEST, none);
        connect.dstSession(0);
        connect.seq(0);
        connect.encode(0xC0FFEE, 1, 100, ConnectStatus.OK);
        frames.put("CONNECT_REQUEST", buffer);
        buffer = frame(connect, FrameKind.CONNECT_REPLY, none);
        connect.seq(0);
        connect.encode(0xC0FFEE, 1, 200, ConnectStatus.BAD_KEY);
        frames.put("CONNECT_REPLY", buffer);
        final EagerFrame eager = new EagerFrame();
        buffer = frame(eager, FrameKind.TINY, new byte[]{ 'a', 'b', 'c' });
        eager.encode(0x0102030405060708L, 3);
        eager.ackSeq(7);
        frames.put("TINY", buffer);
        buffer = frame(eager, FrameKind.SMALL, new byte[]{ 1, 2, 3, 4, 5 });
        eager.encode(-1L, 5);
        frames.put("SMALL", buffer);
        final MediumFragFrame medium = new MediumFragFrame();
        buffer = frame(medium, FrameKind.MEDIUM_FRAG, new byte[]{ 9, 9, 9, 9 });
        medium.encode(42, 2000, 1444, 1, 2, 0x0A);
        frames.put("MEDIUM_FRAG", buffer);
        final RndvFrame rndv = new RndvFrame();
        buffer = frame(rndv, FrameKind.RNDV, none);
        rndv.encode(42, 64L << 20, 0x400, 0, 0xBEEF);
        frames.put("RNDV", buffer);
        final PullFrame pull = new PullFrame();
        buffer = frame(pull, FrameKind.PULL, none);
        pull.seq(0);
        pull.encode(0x21, 0x400, 0x10000, 0x10000, 32 * 1452, 0x2C, 1452);
        frames.put("PULL", buffer);
        final PullReplyFrame reply = new PullReplyFrame();
        buffer = frame(reply, FrameKind.PULL_REPLY, new byte[]{ 0x7F, 0x7F, 0x7F, 0x7F });
        reply.seq(0);
        reply.encode(0x21, 0x2D, 0x10000 + 1452);
        frames.put("PULL_REPLY", buffer);
        final NotifyFrame notify = new NotifyFrame();
        buffer = frame(notify, FrameKind.NOTIFY, none);
        notify.encode(0xBEEF, NotifyStatus.TRUNCATED, 16L << 20);
        frames.put("NOTIFY", buffer);
        final AckFrame ack = new AckFrame();
        buffer = frame(ack, FrameKind.ACK, none);
        ack.seq(0);
        ack.encode(0x0B);
        frames.put("ACK", buffer);
        final NackFrame nack = new NackFrame();
        buffer = frame(nack, FrameKind.NACK, none);
        nack.seq(0);
        nack.encode(NackReason.SEGMENT_FAULT, FrameKind.PULL, 0, 0x21, 0x400, 1, 0x7F0000001000L, 14);
        frames.put("NACK", buffer);
        return frames;
    }

    @Test
    void docExamplesAreWhatTheCodecWrites() throws Exception
    {
        final String doc = Files.readString(DOC);
        final StringBuilder expected = new StringBuilder();
        for (final Map.Entry<String, MemorySegment> example : examples().entrySet())
        {
            final MemorySegment frame = example.getValue();
            assertEquals(DropReason.NONE, FrameReader.check(frame, 0, (int)frame.byteSize()), example.getKey());
            final byte[] bytes = frame.toArray(ValueLayout.JAVA_BYTE);
            expected.append(example.getKey()).append(" (").append(bytes.length).append(" bytes)\n");
            for (int i = 0; i < bytes.length; i += 16)
            {
                expected.append(String.format("  %04x: ", i))
                    .append(HEX.formatHex(bytes, i, Math.min(bytes.length, i + 16))).append('\n');
            }
        }
        final int start = doc.indexOf("```text\nCONNECT_REQUEST");
        final int end = doc.indexOf("```", start + 7);
        final String inDoc = start < 0 ? "(no example block)" : doc.substring(start + "```text\n".length(), end);
        assertEquals(expected.toString(), inDoc);
    }
}
