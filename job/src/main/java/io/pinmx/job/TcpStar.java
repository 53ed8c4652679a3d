package io.pinmx.job;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The job's control plane without a PMIx server: a star of TCP connections through rank 0, joined by the bootstrap
 * {@link Rendezvous} (rank 0 listens, every other rank connects to it). Every collective is a round through rank 0:
 * it receives every contribution and sends every rank what it gets. A progress hook runs while a rank waits for a
 * peer, so a caller-driven endpoint keeps answering.
 */
final class TcpStar implements ControlPlane
{
    private final JobRank rank;
    private final ServerSocket listener;
    private final Socket[] sockets;
    private final DataInputStream[] in;
    private final DataOutputStream[] out;
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.busyPolling();
    private Runnable progressHook;

    private TcpStar(final JobRank rank, final ServerSocket listener, final Socket[] sockets) throws IOException
    {
        this.rank = rank;
        this.listener = listener;
        this.sockets = sockets;
        in = new DataInputStream[sockets.length];
        out = new DataOutputStream[sockets.length];
        for (int i = 0; i < sockets.length; i++)
        {
            if (null != sockets[i])
            {
                in[i] = new DataInputStream(new BufferedInputStream(sockets[i].getInputStream()));
                out[i] = new DataOutputStream(new BufferedOutputStream(sockets[i].getOutputStream()));
            }
        }
    }

    /**
     * Meets the other ranks at PINMX_BOOTSTRAP (not needed in a job of one).
     *
     * @throws IllegalArgumentException naming the variable that is missing or malformed.
     * @throws IllegalStateException    naming the ranks or address involved if the rendezvous does not complete
     *                                  within the timeout.
     */
    static TcpStar join(final JobRank rank, final Map<String, String> env, final long timeoutMs)
    {
        if (1 == rank.size())
        {
            try
            {
                return new TcpStar(rank, null, new Socket[1]);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        final BootstrapAddress address = BootstrapAddress.fromEnvironment(env);
        try
        {
            if (0 != rank.rank())
            {
                return new TcpStar(rank, null, Rendezvous.connect(rank, address, timeoutMs));
            }
            final ServerSocket listener = new ServerSocket();
            try
            {
                return new TcpStar(rank, listener, Rendezvous.listen(rank, address, timeoutMs, listener));
            }
            catch (final IOException | RuntimeException ex)
            {
                listener.close();
                throw ex;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("bootstrap: rank " + rank.rank() + " via " + address + ": " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("bootstrap: rank " + rank.rank() + " interrupted", ex);
        }
    }

    /** Rank 0: the address the other ranks reached it at; loopback in a job of one. */
    @Override
    public InetAddress controlAddress()
    {
        final Socket toRankZeroOrFromRankOne = sockets[0 == rank.rank() ? Math.min(1, sockets.length - 1) : 0];
        return null == toRankZeroOrFromRankOne ? InetAddress.getLoopbackAddress() : toRankZeroOrFromRankOne.getLocalAddress();
    }

    @Override
    public int[] nodeRanks()
    {
        return null;
    }

    @Override
    public void onRankDeath(final BiConsumer<Integer, String> listener)
    {
        // a dead rank shows as its lost connection
    }

    private int rank()
    {
        return rank.rank();
    }

    private int size()
    {
        return rank.size();
    }

    @Override
    public List<byte[]> allGather(final byte[] mine)
    {
        if (0 != rank())
        {
            send(0, mine);
            return receiveAll(0);
        }
        final List<byte[]> all = gatherAtZero(mine);
        for (int r = 1; r < size(); r++)
        {
            sendAll(r, all);
        }
        return all;
    }

    @Override
    public void barrier()
    {
        allGather(new byte[0]);
    }

    @Override
    public byte[] broadcast(final int root, final byte[] bytes)
    {
        if (0 != rank())
        {
            if (rank() == root)
            {
                send(0, bytes);
            }
            return receive(0);
        }
        final byte[] value = 0 == root ? bytes : receive(root);
        for (int r = 1; r < size(); r++)
        {
            send(r, value);
        }
        return value;
    }

    @Override
    public List<byte[]> gather(final int root, final byte[] mine)
    {
        if (0 != rank())
        {
            send(0, mine);
            return rank() == root ? receiveAll(0) : List.of();
        }
        final List<byte[]> all = gatherAtZero(mine);
        if (0 == root)
        {
            return all;
        }
        sendAll(root, all);
        return List.of();
    }

    /**
     * While a hook is set, a wait for a peer spins on it instead of blocking in the read (yielding the core every
     * {@link BackoffThenBlockIdleStrategy#POLLS_PER_YIELD} runs).
     */
    @Override
    public void progressHook(final Runnable hook)
    {
        progressHook = hook;
    }

    /** Rank 0: its own payload, then every other rank's, indexed by rank. */
    private List<byte[]> gatherAtZero(final byte[] mine)
    {
        final List<byte[]> all = new ArrayList<>(size());
        all.add(mine);
        for (int r = 1; r < size(); r++)
        {
            all.add(receive(r));
        }
        return all;
    }

    private void send(final int r, final byte[] bytes)
    {
        try
        {
            out[r].writeInt(bytes.length);
            out[r].write(bytes);
            out[r].flush();
        }
        catch (final IOException ex)
        {
            throw lost(r, ex);
        }
    }

    private void sendAll(final int r, final List<byte[]> all)
    {
        try
        {
            out[r].writeInt(all.size());
            for (final byte[] b : all)
            {
                out[r].writeInt(b.length);
                out[r].write(b);
            }
            out[r].flush();
        }
        catch (final IOException ex)
        {
            throw lost(r, ex);
        }
    }

    private byte[] receive(final int r)
    {
        try
        {
            awaitReadable(r);
            return read(r);
        }
        catch (final IOException ex)
        {
            throw lost(r, ex);
        }
    }

    private List<byte[]> receiveAll(final int r)
    {
        try
        {
            awaitReadable(r);
            final int count = in[r].readInt();
            if (count != size())
            {
                throw new IllegalStateException("job: rank " + rank() + " got " + count + " payloads from rank " + r +
                    " for a job of " + size());
            }
            final List<byte[]> all = new ArrayList<>(count);
            for (int i = 0; i < count; i++)
            {
                all.add(read(r));
            }
            return all;
        }
        catch (final IOException ex)
        {
            throw lost(r, ex);
        }
    }

    private byte[] read(final int r) throws IOException
    {
        final int length = in[r].readInt();
        if (length < 0 || length > Job.MAX_PAYLOAD_BYTES)
        {
            throw new IllegalStateException("job: rank " + rank() + " got a control message of " + length +
                " bytes from rank " + r + " (not a pinmx job's control connection?)");
        }
        final byte[] bytes = new byte[length];
        in[r].readFully(bytes);
        return bytes;
    }

    /**
     * Before a blocking read from rank {@code r}: with a progress hook, run it until bytes are there to read.
     */
    private void awaitReadable(final int r) throws IOException
    {
        final Runnable hook = progressHook;
        if (null == hook)
        {
            return;
        }
        idle.reset();
        while (0 == in[r].available())
        {
            if (sockets[r].isClosed())
            {
                return;
            }
            hook.run();
            idle.idle();
        }
    }

    private RuntimeException lost(final int r, final IOException ex)
    {
        if (ex instanceof EOFException)
        {
            return new IllegalStateException("job: rank " + rank() + " lost its control connection to rank " + r +
                " (did a rank die?)", ex);
        }
        return new UncheckedIOException("job: rank " + rank() + " control connection to rank " + r + " failed: " +
            ex.getMessage(), ex);
    }

    @Override
    public void close()
    {
        Rendezvous.closeAll(sockets);
        if (null != listener)
        {
            try
            {
                listener.close();
            }
            catch (final IOException ignored)
            {
                // closing on the way out: nothing left to tell
            }
        }
    }
}
