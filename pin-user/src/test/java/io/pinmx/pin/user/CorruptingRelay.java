package io.pinmx.pin.user;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link UdpRelay} that flips one bit, at a random place, in every {@code damageEvery}-th datagram. */
final class CorruptingRelay extends UdpRelay
{
    private final int damageEvery;
    private final SplittableRandom random = new SplittableRandom(40);
    private final AtomicLong damaged = new AtomicLong();

    CorruptingRelay(final InetSocketAddress a, final InetSocketAddress b, final int damageEvery) throws IOException
    {
        super(a, b, "corrupting-relay");
        this.damageEvery = damageEvery;
        start();
    }

    long damaged()
    {
        return damaged.get();
    }

    @Override
    protected void relay(final ByteBuffer datagram, final InetSocketAddress to, final long n) throws IOException
    {
        if (n % damageEvery == 0)
        {
            final int at = random.nextInt(datagram.limit());
            datagram.put(at, (byte)(datagram.get(at) ^ (1 << random.nextInt(8))));
            damaged.incrementAndGet();
        }
        send(datagram, to);
    }
}
