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
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UDP relay between two endpoints on loopback, a real socket in the middle (as {@link CorruptingRelay}): each sees
 * the other at the relay's port. Every {@code duplicateEvery}-th datagram is sent on and sent again later, after
 * {@code lateBy} more datagrams crossed (or {@link #FLUSH_MS} of quiet); every {@code holdEvery}-th one is held back and
 * sent after the next one, so the two arrive swapped.
 */
final class DisorderingRelay implements AutoCloseable
{
    private static final long FLUSH_MS = 2;

    private record Late(ByteBuffer datagram, InetSocketAddress to, long releaseAt)
    {
    }

    private final DatagramChannel channel;
    private final Selector selector;
    private final InetSocketAddress a;
    private final InetSocketAddress b;
    private final int duplicateEvery;
    private final int lateBy;
    private final int holdEvery;
    private final ArrayDeque<Late> late = new ArrayDeque<>();
    private final AtomicLong relayed = new AtomicLong();
    private final AtomicLong duplicated = new AtomicLong();
    private final AtomicLong swapped = new AtomicLong();
    private final Thread thread;
    private Late held;

    DisorderingRelay(final InetSocketAddress a, final InetSocketAddress b, final int duplicateEvery, final int lateBy,
        final int holdEvery) throws IOException
    {
        this.a = a;
        this.b = b;
        this.duplicateEvery = duplicateEvery;
        this.lateBy = lateBy;
        this.holdEvery = holdEvery;
        channel = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        channel.configureBlocking(false);
        selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
        thread = Thread.ofPlatform().daemon().name("disordering-relay").start(this::run);
    }

    /** Where each endpoint sends to reach the other. */
    int port()
    {
        return channel.socket().getLocalPort();
    }

    long relayed()
    {
        return relayed.get();
    }

    long duplicated()
    {
        return duplicated.get();
    }

    long swapped()
    {
        return swapped.get();
    }

    private void run()
    {
        final ByteBuffer datagram = ByteBuffer.allocateDirect(64 * 1024);
        try
        {
            while (true)
            {
                selector.select(FLUSH_MS);
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
                        relay(copy(datagram), to);
                    }
                }
                if (received == 0)
                {
                    flushQuiet();
                }
            }
        }
        catch (final ClosedChannelException | ClosedSelectorException e)
        {
            // closed by the test: the relay ends
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("relay between " + a + " and " + b + ": " + e.getMessage(), e);
        }
    }

    private void relay(final ByteBuffer datagram, final InetSocketAddress to) throws IOException
    {
        final long n = relayed.incrementAndGet();
        if (held == null && n % holdEvery == 0)
        {
            held = new Late(datagram, to, System.currentTimeMillis() + FLUSH_MS);
            return;
        }
        channel.send(datagram.duplicate(), to);
        if (held != null)
        {
            channel.send(held.datagram().duplicate(), held.to());
            held = null;
            swapped.incrementAndGet();
        }
        if (n % duplicateEvery == 0)
        {
            late.addLast(new Late(datagram, to, n + lateBy));
            duplicated.incrementAndGet();
        }
        while (!late.isEmpty() && late.peekFirst().releaseAt() <= n)
        {
            final Late again = late.pollFirst();
            channel.send(again.datagram().duplicate(), again.to());
        }
    }

    /** Nothing crossed for {@link #FLUSH_MS}: what waits goes now, so no datagram waits for traffic that never comes. */
    private void flushQuiet() throws IOException
    {
        if (held != null && System.currentTimeMillis() >= held.releaseAt())
        {
            channel.send(held.datagram().duplicate(), held.to());
            held = null;
        }
        while (!late.isEmpty())
        {
            final Late again = late.pollFirst();
            channel.send(again.datagram().duplicate(), again.to());
        }
    }

    private static ByteBuffer copy(final ByteBuffer datagram)
    {
        final ByteBuffer copy = ByteBuffer.allocate(datagram.remaining());
        copy.put(datagram).flip();
        return copy;
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
        selector.close();
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
