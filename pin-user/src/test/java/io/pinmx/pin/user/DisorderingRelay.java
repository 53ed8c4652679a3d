package io.pinmx.pin.user;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link UdpRelay} that disorders: every {@code duplicateEvery}-th datagram is sent on and sent again later, after
 * {@code lateBy} more datagrams crossed (or once the relay is quiet); every {@code holdEvery}-th one is held back and
 * sent after the next one, so the two arrive swapped.
 */
final class DisorderingRelay extends UdpRelay
{
    private record Late(ByteBuffer datagram, InetSocketAddress to, long releaseAt)
    {
    }

    private final int duplicateEvery;
    private final int lateBy;
    private final int holdEvery;
    private final ArrayDeque<Late> late = new ArrayDeque<>();
    private final AtomicLong duplicated = new AtomicLong();
    private final AtomicLong swapped = new AtomicLong();
    private Late held;

    DisorderingRelay(final InetSocketAddress a, final InetSocketAddress b, final int duplicateEvery, final int lateBy,
        final int holdEvery) throws IOException
    {
        super(a, b, "disordering-relay");
        this.duplicateEvery = duplicateEvery;
        this.lateBy = lateBy;
        this.holdEvery = holdEvery;
        start();
    }

    long duplicated()
    {
        return duplicated.get();
    }

    long swapped()
    {
        return swapped.get();
    }

    @Override
    protected void relay(final ByteBuffer datagram, final InetSocketAddress to, final long n) throws IOException
    {
        if (held == null && n % holdEvery == 0)
        {
            held = new Late(datagram, to, System.currentTimeMillis() + QUIET_MS);
            return;
        }
        send(datagram, to);
        if (held != null)
        {
            send(held.datagram(), held.to());
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
            send(again.datagram(), again.to());
        }
    }

    @Override
    protected void quiet() throws IOException
    {
        if (held != null && System.currentTimeMillis() >= held.releaseAt())
        {
            send(held.datagram(), held.to());
            held = null;
        }
        while (!late.isEmpty())
        {
            final Late again = late.pollFirst();
            send(again.datagram(), again.to());
        }
    }
}
