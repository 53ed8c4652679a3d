package io.pinmx.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The control plane of a job: rank 0 listens at the bootstrap address, every other rank connects to it,
 * and these connections then carry the all-gather of transport addresses, barriers and the gathering of
 * timings to rank 0. None of it is on a timed path.
 */
public final class Job implements AutoCloseable
{
    public static final String TIMEOUT_VARIABLE = "PINMX_BOOTSTRAP_TIMEOUT_MS";
    private static final long DEFAULT_TIMEOUT_MS = 30_000;
    private static final int HELLO_MAGIC = 0x706d7862;
    private static final long CONNECT_RETRY_MS = 10;
    /** Power of two: runs of the progress hook between two yields of the core while a control message is awaited. */
    private static final int HOOK_RUNS_PER_YIELD = 64;

    private final JobRank rank;
    private final ServerSocket listener;
    private final Socket[] sockets;
    private final DataInputStream[] in;
    private final DataOutputStream[] out;
    private Runnable progressHook;

    private Job(final JobRank rank, final ServerSocket listener, final Socket[] sockets) throws IOException
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
     * Joins the job described by the environment (rank, size, PINMX_BOOTSTRAP, PINMX_BOOTSTRAP_TIMEOUT_MS).
     *
     * @throws IllegalStateException naming the ranks or address involved if the rendezvous does not complete
     *                               within the timeout.
     */
    public static Job join(final Map<String, String> env)
    {
        final JobRank rank = JobRank.fromEnvironment(env);
        final long timeoutMs = timeoutMs(env);
        if (1 == rank.size())
        {
            try
            {
                return new Job(rank, null, new Socket[1]);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        final BootstrapAddress address = BootstrapAddress.fromEnvironment(env);
        try
        {
            return 0 == rank.rank() ? listen(rank, address, timeoutMs) : connect(rank, address, timeoutMs);
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

    private static long timeoutMs(final Map<String, String> env)
    {
        final String value = env.get(TIMEOUT_VARIABLE);
        if (null == value)
        {
            return DEFAULT_TIMEOUT_MS;
        }
        try
        {
            final long ms = Long.parseLong(value.trim());
            if (ms > 0)
            {
                return ms;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below with the valid range
        }
        throw new IllegalArgumentException(TIMEOUT_VARIABLE + "=" + value + " is not a positive number of milliseconds");
    }

    private static Job listen(final JobRank rank, final BootstrapAddress address, final long timeoutMs) throws IOException
    {
        final ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(address.bindAddress());
        address.publish((InetSocketAddress)listener.getLocalSocketAddress());
        final Socket[] sockets = new Socket[rank.size()];
        final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        int joined = 0;
        try
        {
            while (joined < rank.size() - 1)
            {
                final long remainingMs = (deadlineNs - System.nanoTime()) / 1_000_000L;
                if (remainingMs <= 0)
                {
                    throw new SocketTimeoutException();
                }
                listener.setSoTimeout((int)Math.min(Integer.MAX_VALUE, remainingMs));
                final Socket socket = listener.accept();
                socket.setSoTimeout((int)Math.max(1, remainingMs));
                final DataInputStream hello = new DataInputStream(socket.getInputStream());
                final int magic = hello.readInt();
                final int peer = hello.readInt();
                final int peerSize = hello.readInt();
                if (HELLO_MAGIC != magic)
                {
                    socket.close();
                    continue;
                }
                if (peerSize != rank.size() || peer <= 0 || peer >= rank.size() || null != sockets[peer])
                {
                    socket.close();
                    throw new IllegalStateException("bootstrap: rank 0 got a hello from rank " + peer + " of size " +
                        peerSize + ", but the job has size " + rank.size() +
                        (peer > 0 && peer < rank.size() && null != sockets[peer] ? " and rank " + peer + " joined already" : ""));
                }
                socket.setSoTimeout(0);
                socket.setTcpNoDelay(true);
                sockets[peer] = socket;
                joined++;
            }
        }
        catch (final SocketTimeoutException ex)
        {
            final TreeSet<Integer> missing = new TreeSet<>();
            for (int r = 1; r < rank.size(); r++)
            {
                if (null == sockets[r])
                {
                    missing.add(r);
                }
            }
            closeAll(sockets);
            listener.close();
            throw new IllegalStateException("bootstrap: rank 0 listening at " + listener.getLocalSocketAddress() +
                " heard from " + joined + " of " + (rank.size() - 1) + " other ranks within " + timeoutMs +
                " ms; missing ranks " + missing + " (" + TIMEOUT_VARIABLE + ")");
        }
        return new Job(rank, listener, sockets);
    }

    private static Job connect(final JobRank rank, final BootstrapAddress address, final long timeoutMs)
        throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        final InetSocketAddress rankZero = address.awaitRankZero(deadlineNs);
        if (null == rankZero)
        {
            throw new IllegalStateException("bootstrap: rank " + rank.rank() + " found no address of rank 0 in " +
                address + " within " + timeoutMs + " ms (" + TIMEOUT_VARIABLE + ")");
        }
        while (true)
        {
            final long remainingMs = (deadlineNs - System.nanoTime()) / 1_000_000L;
            if (remainingMs <= 0)
            {
                throw new IllegalStateException("bootstrap: rank " + rank.rank() + " could not reach rank 0 at " +
                    rankZero + " within " + timeoutMs + " ms (" + TIMEOUT_VARIABLE + ")");
            }
            final Socket socket = new Socket();
            try
            {
                socket.connect(rankZero, (int)Math.min(Integer.MAX_VALUE, remainingMs));
            }
            catch (final ConnectException | SocketTimeoutException ex)
            {
                socket.close();
                Thread.sleep(CONNECT_RETRY_MS);
                continue;
            }
            socket.setTcpNoDelay(true);
            final DataOutputStream hello = new DataOutputStream(socket.getOutputStream());
            hello.writeInt(HELLO_MAGIC);
            hello.writeInt(rank.rank());
            hello.writeInt(rank.size());
            hello.flush();
            final Socket[] sockets = new Socket[rank.size()];
            sockets[0] = socket;
            return new Job(rank, null, sockets);
        }
    }

    public int rank()
    {
        return rank.rank();
    }

    public int size()
    {
        return rank.size();
    }

    /**
     * Every rank contributes bytes; every rank gets all contributions indexed by rank.
     */
    public List<byte[]> allGather(final byte[] mine)
    {
        final List<byte[]> all = new ArrayList<>(size());
        try
        {
            if (0 == rank())
            {
                all.add(mine);
                for (int r = 1; r < size(); r++)
                {
                    awaitReadable(r);
                    final byte[] theirs = new byte[in[r].readInt()];
                    in[r].readFully(theirs);
                    all.add(theirs);
                }
                for (int r = 1; r < size(); r++)
                {
                    out[r].writeInt(size());
                    for (final byte[] b : all)
                    {
                        out[r].writeInt(b.length);
                        out[r].write(b);
                    }
                    out[r].flush();
                }
            }
            else
            {
                out[0].writeInt(mine.length);
                out[0].write(mine);
                out[0].flush();
                awaitReadable(0);
                final int n = in[0].readInt();
                for (int r = 0; r < n; r++)
                {
                    final byte[] b = new byte[in[0].readInt()];
                    in[0].readFully(b);
                    all.add(b);
                }
            }
        }
        catch (final EOFException ex)
        {
            throw new IllegalStateException("job: rank " + rank() + " lost a peer's control connection (did a rank die?)", ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("job: rank " + rank() + " control connection failed: " + ex.getMessage(), ex);
        }
        return all;
    }

    /**
     * Sets what to run, over and over, while this rank waits for a peer's control message (null: block in the
     * read). A transport whose progress is driven by its caller supplies one, so that a rank waiting here still
     * answers its peers (acks), and so that the wait spins instead of sleeping.
     */
    public void progressHook(final Runnable hook)
    {
        progressHook = hook;
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
        int polls = 0;
        while (0 == in[r].available())
        {
            if (sockets[r].isClosed())
            {
                return;
            }
            hook.run();
            // Hand the core to any other runnable thread now and then (see PinmxTransport.poll).
            if (0 == (++polls & (HOOK_RUNS_PER_YIELD - 1)))
            {
                Thread.yield();
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    public void barrier()
    {
        allGather(new byte[0]);
    }

    /**
     * @return every rank's value indexed by rank on rank 0, an empty array elsewhere.
     */
    public double[] gather(final double mine)
    {
        try
        {
            if (0 != rank())
            {
                out[0].writeDouble(mine);
                out[0].flush();
                return new double[0];
            }
            final double[] all = new double[size()];
            all[0] = mine;
            for (int r = 1; r < size(); r++)
            {
                awaitReadable(r);
                all[r] = in[r].readDouble();
            }
            return all;
        }
        catch (final EOFException ex)
        {
            throw new IllegalStateException("job: rank " + rank() + " lost a peer's control connection (did a rank die?)", ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("job: rank " + rank() + " control connection failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    public void close()
    {
        closeAll(sockets);
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

    private static void closeAll(final Socket[] sockets)
    {
        for (final Socket s : sockets)
        {
            if (null != s)
            {
                try
                {
                    s.close();
                }
                catch (final IOException ignored)
                {
                    // closing on the way out: nothing left to tell
                }
            }
        }
    }
}
