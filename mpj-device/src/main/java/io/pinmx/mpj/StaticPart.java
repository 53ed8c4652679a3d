package io.pinmx.mpj;

import mpjbuf.Buffer;
import mpjbuf.NIOBuffer;
import mpjbuf.RawBuffer;
import xdev.XDevException;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The static part of an MPJ buffer as the device reads it: MPJ's direct ByteBuffer, sent and received in place
 * through a memory segment over it, and the first section's type code and element count where mpjbuf.Buffer writes
 * them.
 */
final class StaticPart
{
    private StaticPart()
    {
    }

    /** Bytes of static buffer a receive into {@code buf} can take. */
    static int capacity(final Buffer buf)
    {
        return Math.max(0, Math.min(buf.getCapacity(), nio(buf).capacity()) - buf.offset());
    }

    /** The first {@code bytes} of the buffer's static part, over its direct ByteBuffer's memory (no copy). */
    static MemorySegment region(final Buffer buf, final int bytes)
    {
        final ByteBuffer b = nio(buf);
        return MemorySegment.ofBuffer(b.slice(0, b.capacity())).asSlice(buf.offset(), bytes);
    }

    /** The first section's type code, read where mpjbuf.Buffer writes it (or NO_TYPE). */
    static int typeCode(final Buffer buf, final int staticBytes)
    {
        return staticBytes < Buffer.SECTION_OVERHEAD ? MessageHeader.NO_TYPE :
            buf.getStaticBuffer().getByte(buf.offset());
    }

    /** The first section's element count, or 0 when there is no section. */
    static int elements(final Buffer buf, final int staticBytes)
    {
        return staticBytes < Buffer.SECTION_OVERHEAD ? 0 : buf.getStaticBuffer().getInt(buf.offset() + 4, false);
    }

    private static ByteBuffer nio(final Buffer buf)
    {
        final RawBuffer raw = buf.getStaticBuffer();
        if (raw instanceof NIOBuffer n)
        {
            return n.getBuffer();
        }
        throw new XDevException("mxdev (pinmx): static buffer " + raw + " is not an mpjbuf.NIOBuffer");
    }
}
