package io.pinmx.bench;

import io.pinmx.job.Job;
import io.pinmx.job.RankBinding;
import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The TCP baselines: plain Java TCP, one {@link SocketChannel} with TCP_NODELAY per pair of ranks, in one of two
 * {@link Progress} modes. Each message is a {@link TcpMessage}: a 4-byte length header and the payload.
 * Blocking ("tcp"): blocking reads and writes, the thread left unbound. Posted operations switch their channels
 * to non-blocking mode and poll them until all are done, so that traffic in both directions cannot deadlock on
 * full socket buffers; a round in which nothing moved yields the core to the peer that has to move it (2 cores,
 * several ranks). Busy-polling ("tcp-busy"): the channels stay non-blocking, every wait polls them with the same
 * idle strategy and CPU binding as the pinmx transport's, so the two are compared in the same progress mode.
 */
public final class TcpTransport implements Transport
{
    /** How a rank waits for its socket. */
    public enum Progress
    {
        /** Blocking reads and writes; unbound: a blocked receiver is best woken on its sender's core. */
        BLOCKING("tcp"),
        /** Non-blocking channels polled busily, bound to a CPU per rank as pinmx is. */
        BUSY_POLL("tcp-busy");

        private final String transportName;

        Progress(final String transportName)
        {
            this.transportName = transportName;
        }

        String transportName()
        {
            return transportName;
        }
    }

    private static final int MAX_POSTED = 256;
    private static final int BLOCKING_SLOT = 0;

    private final int rank;
    private final Progress progress;
    private final SocketChannel[] channels;
    private final RankBinding binding;
    /** Blocking calls: a partial write or read is retried at once; busy polling: the pinmx transport's strategy. */
    private final IdleStrategy blockingIdle;
    private final IdleStrategy postedIdle;
    private final SegmentViews views = new SegmentViews(MAX_POSTED + 1);
    private final TcpMessage blocking = new TcpMessage(views, BLOCKING_SLOT);
    private final TcpMessage[] postedMessages = new TcpMessage[MAX_POSTED];
    private final int[] postedPeer = new int[MAX_POSTED];
    private final boolean[] postedIsSend = new boolean[MAX_POSTED];
    private final boolean[] postedDone = new boolean[MAX_POSTED];
    private final boolean[] sendBusy;
    private final boolean[] recvBusy;
    private int postedCount;

    private TcpTransport(
        final int rank, final Progress progress, final SocketChannel[] channels, final RankBinding binding)
    {
        this.rank = rank;
        this.progress = progress;
        this.channels = channels;
        this.binding = binding;
        if (Progress.BLOCKING == progress)
        {
            blockingIdle = BackoffThenBlockIdleStrategy.busySpin();
            postedIdle = BackoffThenBlockIdleStrategy.yielding();
        }
        else
        {
            blockingIdle = BackoffThenBlockIdleStrategy.busyPolling();
            postedIdle = blockingIdle;
        }
        sendBusy = new boolean[channels.length];
        recvBusy = new boolean[channels.length];
    }

    /**
     * Opens the blocking baseline.
     *
     * @see #open(Job, String, Progress, Map)
     */
    public static TcpTransport open(final Job job, final String host)
    {
        return open(job, host, Progress.BLOCKING, Map.of());
    }

    /**
     * Connects every pair of ranks: each rank listens on an ephemeral port of {@code host} (where its peers reach
     * it: {@link io.pinmx.job.RankAddress}), the addresses are all-gathered, and each rank connects to the lower
     * ranks. Busy polling binds the calling thread as
     * {@link RankBinding} says (PINMX_BIND in {@code env}).
     */
    public static TcpTransport open(final Job job, final String host, final Progress progress, final Map<String, String> env)
    {
        final SocketChannel[] channels = connect(job, host);
        if (Progress.BLOCKING == progress)
        {
            return new TcpTransport(job.rank(), progress, channels, null);
        }
        try
        {
            for (final SocketChannel channel : channels)
            {
                if (null != channel)
                {
                    channel.configureBlocking(false);
                }
            }
            return new TcpTransport(job.rank(), progress, channels, RankBinding.bind(job, env));
        }
        catch (final IOException | RuntimeException ex)
        {
            closeAll(channels);
            throw ex instanceof IOException io ?
                new UncheckedIOException("tcp transport: rank " + job.rank() + ": " + io.getMessage(), io) :
                (RuntimeException)ex;
        }
    }

    private static SocketChannel[] connect(final Job job, final String host)
    {
        final SocketChannel[] channels = new SocketChannel[job.size()];
        try (ServerSocketChannel listener = ServerSocketChannel.open())
        {
            listener.bind(new InetSocketAddress(host, 0), job.size());
            final InetSocketAddress local = (InetSocketAddress)listener.getLocalAddress();
            final List<byte[]> addresses = job.allGather(
                (local.getHostString() + ":" + local.getPort()).getBytes(StandardCharsets.US_ASCII));
            final ByteBuffer hello = ByteBuffer.allocate(4);
            for (int peer = 0; peer < job.rank(); peer++)
            {
                final String address = new String(addresses.get(peer), StandardCharsets.US_ASCII);
                final int colon = address.lastIndexOf(':');
                final SocketChannel channel = SocketChannel.open(
                    new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))));
                hello.clear();
                hello.putInt(job.rank()).flip();
                writeFully(channel, hello);
                channels[peer] = channel;
            }
            for (int accepted = job.rank() + 1; accepted < job.size(); accepted++)
            {
                final SocketChannel channel = listener.accept();
                hello.clear();
                while (hello.hasRemaining())
                {
                    if (channel.read(hello) < 0)
                    {
                        throw new IOException("a rank closed its connection before saying which it was");
                    }
                }
                final int peer = hello.flip().getInt();
                if (peer <= job.rank() || peer >= job.size() || null != channels[peer])
                {
                    throw new IOException("unexpected hello from rank " + peer);
                }
                channels[peer] = channel;
            }
            for (final SocketChannel channel : channels)
            {
                if (null != channel)
                {
                    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                }
            }
            job.barrier();
            return channels;
        }
        catch (final IOException ex)
        {
            closeAll(channels);
            throw new UncheckedIOException("tcp transport: rank " + job.rank() + " could not connect: " + ex.getMessage(), ex);
        }
    }

    @Override
    public String name()
    {
        return progress.transportName();
    }

    @Override
    public String progress()
    {
        return Progress.BLOCKING == progress ?
            "tcp: blocking SocketChannel reads and writes (TCP_NODELAY), 1 thread per process, not bound to a CPU; " +
                "posted batches poll non-blocking channels, yielding when idle" :
            "tcp-busy: non-blocking SocketChannels (TCP_NODELAY) polled busily by the benchmark thread, 1 thread per " +
                "process, never parking, yielding the core every " + BackoffThenBlockIdleStrategy.POLLS_PER_YIELD +
                " empty polls (as pinmx); " + binding.description();
    }

    @Override
    public void send(final int peer, final MemorySegment buffer, final int bytes)
    {
        final SocketChannel channel = channel(peer);
        blocking.beginSend(buffer, bytes);
        try
        {
            blockingIdle.reset();
            while (!blocking.advanceSend(channel))
            {
                blockingIdle.idle();
            }
        }
        catch (final IOException ex)
        {
            throw failed("send of " + bytes + " B to", peer, ex);
        }
    }

    @Override
    public void recv(final int peer, final MemorySegment buffer, final int bytes)
    {
        final SocketChannel channel = channel(peer);
        blocking.beginReceive(buffer, bytes);
        try
        {
            blockingIdle.reset();
            while (!blocking.advanceReceive(channel, peer, rank))
            {
                blockingIdle.idle();
            }
        }
        catch (final IOException ex)
        {
            throw failed("receive of " + bytes + " B from", peer, ex);
        }
    }

    @Override
    public void postSend(final int peer, final MemorySegment buffer, final int bytes)
    {
        post(peer, true).beginSend(buffer, bytes);
    }

    @Override
    public void postRecv(final int peer, final MemorySegment buffer, final int bytes)
    {
        post(peer, false).beginReceive(buffer, bytes);
    }

    private TcpMessage post(final int peer, final boolean isSend)
    {
        channel(peer);
        if (postedCount == MAX_POSTED)
        {
            throw new IllegalStateException("more than " + MAX_POSTED + " operations posted at once");
        }
        final int i = postedCount++;
        postedPeer[i] = peer;
        postedIsSend[i] = isSend;
        postedDone[i] = false;
        TcpMessage message = postedMessages[i];
        if (null == message)
        {
            message = new TcpMessage(views, BLOCKING_SLOT + 1 + i);
            postedMessages[i] = message;
        }
        return message;
    }

    @Override
    public void awaitPosted()
    {
        try
        {
            setBlocking(false);
            postedIdle.reset();
            int remaining = postedCount;
            while (remaining > 0)
            {
                final int before = remaining;
                Arrays.fill(sendBusy, false);
                Arrays.fill(recvBusy, false);
                for (int i = 0; i < postedCount; i++)
                {
                    if (postedDone[i])
                    {
                        continue;
                    }
                    final int peer = postedPeer[i];
                    final boolean[] busy = postedIsSend[i] ? sendBusy : recvBusy;
                    if (busy[peer])
                    {
                        continue;
                    }
                    final boolean done = postedIsSend[i] ?
                        postedMessages[i].advanceSend(channels[peer]) :
                        postedMessages[i].advanceReceive(channels[peer], peer, rank);
                    if (done)
                    {
                        postedDone[i] = true;
                        remaining--;
                    }
                    else
                    {
                        busy[peer] = true;
                    }
                }
                postedIdle.idle(before - remaining);
            }
            setBlocking(true);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("tcp transport: rank " + rank + " posted operations failed: " + ex.getMessage(), ex);
        }
        finally
        {
            postedCount = 0;
        }
    }

    private void setBlocking(final boolean blocking) throws IOException
    {
        if (Progress.BUSY_POLL == progress)
        {
            return;
        }
        for (final SocketChannel channel : channels)
        {
            if (null != channel)
            {
                channel.configureBlocking(blocking);
            }
        }
    }

    private SocketChannel channel(final int peer)
    {
        if (peer < 0 || peer >= channels.length || null == channels[peer])
        {
            throw new IllegalArgumentException("peer " + peer + " is not another rank of this job of " + channels.length);
        }
        return channels[peer];
    }

    private UncheckedIOException failed(final String what, final int peer, final IOException ex)
    {
        return new UncheckedIOException("tcp transport: rank " + rank + " " + what + " rank " + peer + " failed: " +
            ex.getMessage(), ex);
    }

    private static void writeFully(final SocketChannel channel, final ByteBuffer buffer) throws IOException
    {
        while (buffer.hasRemaining())
        {
            channel.write(buffer);
        }
    }

    @Override
    public void close()
    {
        try
        {
            closeAll(channels);
        }
        finally
        {
            if (null != binding)
            {
                binding.close();
            }
        }
    }

    private static void closeAll(final SocketChannel[] channels)
    {
        for (final SocketChannel channel : channels)
        {
            if (null != channel)
            {
                try
                {
                    channel.close();
                }
                catch (final IOException ignored)
                {
                    // closing on the way out: nothing left to tell
                }
            }
        }
    }
}
