package io.pinmx.pin.user;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UDP relay between two endpoints on loopback, a real socket in the middle: each sees the other at the relay's
 * port. A subclass decides what happens to each datagram on the way ({@link #relay}); a subclass constructor ends by
 * calling {@link #start}, so the relay's thread never sees a half-built subclass.
 */
abstract class UdpRelay implements AutoCloseable
{
    /** How long nothing crossing counts as quiet ({@link #quiet}). */
    static final long QUIET_MS = 2;

    private final DatagramChannel channel;
    private final Selector selector;
    private final InetSocketAddress a;
    private final InetSocketAddress b;
    private final String name;
    private final AtomicLong relayed = new AtomicLong();
    private Thread thread;

    UdpRelay(final InetSocketAddress a, final InetSocketAddress b, final String name) throws IOException
    {
        this.a = a;
        this.b = b;
        this.name = name;
        channel = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        channel.configureBlocking(false);
        selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
    }

    /** Start relaying: the last call of a subclass constructor. */
    protected final void start()
    {
        thread = Thread.ofPlatform().daemon().name(name).start(this::run);
    }

    /** Where each endpoint sends to reach the other. */
    final int port()
    {
        return channel.socket().getLocalPort();
    }

    /** Datagrams that reached the relay from either endpoint. */
    final long relayed()
    {
        return relayed.get();
    }

    /**
     * One datagram on its way ({@code datagram} is the relay's own copy; the subclass may change it or keep it).
     *
     * @param n how many datagrams reached the relay, this one included.
     */
    protected abstract void relay(ByteBuffer datagram, InetSocketAddress to, long n) throws IOException;

    /** Nothing crossed for {@link #QUIET_MS}: a subclass sends what it holds back, so nothing waits for traffic. */
    protected void quiet() throws IOException
    {
    }

    /** Send {@code datagram} (from its position, which is left alone) to {@code to}. */
    protected final void send(final ByteBuffer datagram, final InetSocketAddress to) throws IOException
    {
        channel.send(datagram.duplicate(), to);
    }

    private void run()
    {
        final ByteBuffer datagram = ByteBuffer.allocateDirect(64 * 1024);
        try
        {
            while (true)
            {
                selector.select(QUIET_MS);
                selector.selectedKeys().clear();
                int received = 0;
                InetSocketAddress from;
                while ((from = (InetSocketAddress)channel.receive(datagram.clear())) != null)
                {
                    received++;
                    datagram.flip();
                    final InetSocketAddress to = from.equals(a) ? b : from.equals(b) ? a : null;
                    if (to != null && datagram.hasRemaining())
                    {
                        relay(ByteBuffer.allocate(datagram.remaining()).put(datagram).flip(), to,
                            relayed.incrementAndGet());
                    }
                }
                if (received == 0)
                {
                    quiet();
                }
            }
        }
        catch (final ClosedChannelException | ClosedSelectorException e)
        {
            // closed by the test: the relay ends
        }
        catch (final IOException e)
        {
            throw new IllegalStateException(name + " between " + a + " and " + b + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
        selector.close();
        if (thread == null)
        {
            return;
        }
        try
        {
            thread.join(10_000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
