package io.pinmx.pin.user;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UDP relay between two endpoints on loopback, a real socket in the middle: each sees the other at the relay's
 * port, and every {@code damageEvery}-th datagram that crosses it has one bit flipped, at a random place, on the way.
 */
final class CorruptingRelay implements AutoCloseable
{
    private final DatagramChannel channel;
    private final InetSocketAddress a;
    private final InetSocketAddress b;
    private final int damageEvery;
    private final SplittableRandom random = new SplittableRandom(40);
    private final AtomicLong relayed = new AtomicLong();
    private final AtomicLong damaged = new AtomicLong();
    private final Thread thread;

    CorruptingRelay(final InetSocketAddress a, final InetSocketAddress b, final int damageEvery) throws IOException
    {
        this.a = a;
        this.b = b;
        this.damageEvery = damageEvery;
        channel = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        thread = Thread.ofPlatform().daemon().name("corrupting-relay").start(this::run);
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

    long damaged()
    {
        return damaged.get();
    }

    private void run()
    {
        final ByteBuffer datagram = ByteBuffer.allocateDirect(64 * 1024);
        try
        {
            while (true)
            {
                datagram.clear();
                final InetSocketAddress from = (InetSocketAddress)channel.receive(datagram);
                datagram.flip();
                final InetSocketAddress to = from.equals(a) ? b : from.equals(b) ? a : null;
                if (to == null || !datagram.hasRemaining())
                {
                    continue;
                }
                if (relayed.incrementAndGet() % damageEvery == 0)
                {
                    final int at = random.nextInt(datagram.limit());
                    datagram.put(at, (byte)(datagram.get(at) ^ (1 << random.nextInt(8))));
                    damaged.incrementAndGet();
                }
                channel.send(datagram, to);
            }
        }
        catch (final ClosedChannelException e)
        {
            // closed by the test: the relay ends
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("relay between " + a + " and " + b + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
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
