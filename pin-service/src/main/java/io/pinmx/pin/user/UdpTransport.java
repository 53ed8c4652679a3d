package io.pinmx.pin.user;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One endpoint's UDP socket: the datagram payload is exactly one MXoE frame. Non-blocking, with a selector so an
 * idle progress agent can block until a datagram (or a same-host doorbell, a zero-length datagram) arrives or
 * another thread wakes it. Send and receive buffers are direct and reused; sends from several threads are
 * serialised by a lock because they share the staging buffer.
 */
final class UdpTransport implements AutoCloseable
{
    private static final int SOCKET_BUFFER_BYTES = 8 << 20;
    static final int SENT = 0;
    static final int LOSS_INJECTED = 1;
    static final int SEND_BUFFER_FULL = 2;

    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);
    /** A full socket send buffer drains in microseconds on a live link; after this many yields the frame is lost. */
    private static final int SEND_FULL_SPINS = 1_000;

    private final DatagramChannel channel;
    private final Selector selector;
    private final ReentrantLock sendLock = new ReentrantLock();
    private final ByteBuffer sendBuffer;
    private final MemorySegment sendSegment;
    private final ByteBuffer receiveBuffer;
    private final MemorySegment receiveSegment;
    private final LossInjector txLoss;
    private final LossInjector rxLoss;
    private final int port;

    private UdpTransport(
        final DatagramChannel channel, final Selector selector, final int maxFrameBytes, final LossInjector txLoss,
        final LossInjector rxLoss)
    {
        this.channel = channel;
        this.selector = selector;
        this.sendBuffer = ByteBuffer.allocateDirect(maxFrameBytes);
        this.sendSegment = MemorySegment.ofBuffer(sendBuffer);
        this.receiveBuffer = ByteBuffer.allocateDirect(maxFrameBytes + 1);
        this.receiveSegment = MemorySegment.ofBuffer(receiveBuffer);
        this.txLoss = txLoss;
        this.rxLoss = rxLoss;
        this.port = channel.socket().getLocalPort();
    }

    /** Bind to {@code address:port} (port 0: kernel's choice). */
    static UdpTransport open(
        final InetAddress address, final int port, final int maxFrameBytes, final LossInjector txLoss,
        final LossInjector rxLoss) throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open();
        try
        {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            channel.bind(new InetSocketAddress(address, port));
            channel.configureBlocking(false);
            final Selector selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
            return new UdpTransport(channel, selector, maxFrameBytes, txLoss, rxLoss);
        }
        catch (final IOException | RuntimeException e)
        {
            channel.close();
            throw e;
        }
    }

    int port()
    {
        return port;
    }

    /**
     * Send header + payload as one datagram.
     *
     * @return {@link #SENT}, {@link #LOSS_INJECTED} or {@link #SEND_BUFFER_FULL}.
     */
    int send(final MemorySegment header, final MemorySegment payload, final SocketAddress to) throws IOException
    {
        return send(header, payload, 0, payload.byteSize(), to);
    }

    /** Send header + {@code payloadBytes} of {@code payload} from {@code payloadOffset} as one datagram. */
    int send(
        final MemorySegment header, final MemorySegment payload, final long payloadOffset, final long payloadBytes,
        final SocketAddress to) throws IOException
    {
        final long headerBytes = header.byteSize();
        if (headerBytes + payloadBytes > sendBuffer.capacity())
        {
            throw new IllegalArgumentException("frame of " + (headerBytes + payloadBytes) +
                " bytes exceeds the UDP frame maximum of " + sendBuffer.capacity());
        }
        sendLock.lock();
        try
        {
            if (txLoss.drop())
            {
                return LOSS_INJECTED;
            }
            MemorySegment.copy(header, 0, sendSegment, 0, headerBytes);
            if (payloadBytes > 0)
            {
                MemorySegment.copy(payload, payloadOffset, sendSegment, headerBytes, payloadBytes);
            }
            sendBuffer.clear().limit((int)(headerBytes + payloadBytes));
            int spins = 0;
            while (channel.send(sendBuffer, to) == 0)
            {
                if (++spins > SEND_FULL_SPINS)
                {
                    return SEND_BUFFER_FULL;
                }
                Thread.yield();
            }
            return SENT;
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /** Wake a same-host receiver parked in {@link #awaitReadable}: a zero-length datagram, never dropped. */
    void sendDoorbell(final SocketAddress to) throws IOException
    {
        sendLock.lock();
        try
        {
            channel.send(EMPTY.clear(), to);
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /**
     * Receive one datagram into the receive buffer, agent thread only.
     *
     * @return the source, or null if none is waiting.
     */
    InetSocketAddress receive() throws IOException
    {
        receiveBuffer.clear();
        return (InetSocketAddress)channel.receive(receiveBuffer);
    }

    /** Bytes of the datagram last received. */
    int receivedBytes()
    {
        return receiveBuffer.position();
    }

    /** The buffer holding the datagram last received (from offset 0), valid until the next receive. */
    MemorySegment receivedBuffer()
    {
        return receiveSegment;
    }

    /** True if the last received datagram is to be dropped by loss injection. */
    boolean dropReceived()
    {
        return rxLoss.drop();
    }

    /** Block until a datagram is readable, {@link #wakeup} is called, or the timeout passes. */
    void awaitReadable(final long timeoutNs) throws IOException
    {
        final long timeoutMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs));
        if (selector.select(timeoutMs) > 0)
        {
            selector.selectedKeys().clear();
        }
    }

    void wakeup()
    {
        selector.wakeup();
    }

    @Override
    public void close() throws IOException
    {
        try
        {
            selector.close();
        }
        finally
        {
            channel.close();
        }
    }
}
