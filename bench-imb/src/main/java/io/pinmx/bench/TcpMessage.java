package io.pinmx.bench;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

/**
 * One message on a TCP stream: a 4-byte length header, then the payload. Payloads up to
 * {@link #STAGED_MAX_BYTES} travel through a private direct buffer together with their header (one write,
 * one read, one small copy); larger ones go straight from and to a view of the caller's segment after the
 * header. Only single-buffer channel calls are made: the JDK's vectored calls allocate a releaser per call
 * for buffers backed by a memory segment.
 */
final class TcpMessage
{
    static final int HEADER_BYTES = 4;
    static final int STAGED_MAX_BYTES = 8192;

    private final ByteBuffer staged = ByteBuffer.allocateDirect(HEADER_BYTES + STAGED_MAX_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment stagedSegment = MemorySegment.ofBuffer(staged);
    private final SegmentViews views;
    private final int slot;
    private ByteBuffer payload;
    private MemorySegment target;
    private int bytes;

    TcpMessage(final SegmentViews views, final int slot)
    {
        this.views = views;
        this.slot = slot;
    }

    void beginSend(final MemorySegment buffer, final int bytes)
    {
        this.bytes = bytes;
        staged.clear();
        staged.putInt(0, bytes);
        if (bytes <= STAGED_MAX_BYTES)
        {
            MemorySegment.copy(buffer, 0, stagedSegment, HEADER_BYTES, bytes);
            staged.limit(HEADER_BYTES + bytes);
            payload = null;
        }
        else
        {
            staged.limit(HEADER_BYTES);
            payload = views.view(buffer, slot, bytes);
        }
    }

    void beginReceive(final MemorySegment buffer, final int bytes)
    {
        this.bytes = bytes;
        staged.clear();
        if (bytes <= STAGED_MAX_BYTES)
        {
            staged.limit(HEADER_BYTES + bytes);
            payload = null;
            target = buffer;
        }
        else
        {
            staged.limit(HEADER_BYTES);
            payload = views.view(buffer, slot, bytes);
            target = null;
        }
    }

    /**
     * Writes what the channel takes now (all of it when the channel blocks).
     *
     * @return true once the whole message is written.
     */
    boolean advanceSend(final SocketChannel channel) throws IOException
    {
        if (staged.hasRemaining())
        {
            channel.write(staged);
            if (staged.hasRemaining())
            {
                return false;
            }
        }
        if (null != payload && payload.hasRemaining())
        {
            channel.write(payload);
            return !payload.hasRemaining();
        }
        return true;
    }

    /**
     * Reads what the channel has now (until something arrives when the channel blocks).
     *
     * @return true once the whole message is in the caller's buffer.
     * @throws IOException if the peer closed the connection.
     * @throws IllegalStateException naming both lengths as soon as the header shows another length.
     */
    boolean advanceReceive(final SocketChannel channel, final int peer, final int rank) throws IOException
    {
        if (staged.hasRemaining())
        {
            if (channel.read(staged) < 0)
            {
                throw new IOException("rank " + peer + " closed its connection");
            }
            if (staged.position() >= HEADER_BYTES && staged.getInt(0) != bytes)
            {
                throw new IllegalStateException("tcp transport: rank " + peer + " sent a message of " + staged.getInt(0) +
                    " B where rank " + rank + " expected " + bytes + " B");
            }
            if (staged.hasRemaining())
            {
                return false;
            }
            if (null == payload)
            {
                MemorySegment.copy(stagedSegment, HEADER_BYTES, target, 0, bytes);
                return true;
            }
        }
        if (payload.hasRemaining() && channel.read(payload) < 0)
        {
            throw new IOException("rank " + peer + " closed its connection");
        }
        return !payload.hasRemaining();
    }
}
