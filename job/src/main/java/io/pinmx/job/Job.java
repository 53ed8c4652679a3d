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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The control plane of a job of N ranks: joined through the bootstrap {@link Rendezvous} (rank 0 listens, every
 * other rank connects to it), its connections then carry small collectives routed through rank 0: all-gather,
 * barrier, broadcast and gather of byte payloads. Meant for set-up and bookkeeping (addresses, timings), not for
 * data: every call is a round through rank 0 over TCP. One thread per rank uses it; collectives must be called by
 * every rank in the same order.
 */
public final class Job implements AutoCloseable
{
    public static final String TIMEOUT_VARIABLE = "PINMX_BOOTSTRAP_TIMEOUT_MS";
    /** Largest payload one rank may contribute to one collective. */
    public static final int MAX_PAYLOAD_BYTES = 1 << 24;
    private static final long DEFAULT_TIMEOUT_MS = 30_000;

    private final JobRank rank;
    private final ServerSocket listener;
    private final Socket[] sockets;
    private final DataInputStream[] in;
    private final DataOutputStream[] out;
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.busyPolling();
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
     * Joins the job described by the environment (rank and size from the {@link Launcher}'s variables,
     * PINMX_BOOTSTRAP, PINMX_BOOTSTRAP_TIMEOUT_MS).
     *
     * @throws IllegalArgumentException naming the variable that is missing or malformed.
     * @throws IllegalStateException    naming the ranks or address involved if the rendezvous does not complete
     *                                  within the timeout.
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
            if (0 != rank.rank())
            {
                return new Job(rank, null, Rendezvous.connect(rank, address, timeoutMs));
            }
            final ServerSocket listener = new ServerSocket();
            try
            {
                return new Job(rank, listener, Rendezvous.listen(rank, address, timeoutMs, listener));
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

    /**
     * @return the local address of this rank's control connection to rank 0 (rank 0: the address the other ranks
     *         reached it at), so the route the job's traffic takes to rank 0; loopback in a job of one.
     */
    public InetAddress controlAddress()
    {
        final Socket toRankZeroOrFromRankOne = sockets[0 == rank.rank() ? Math.min(1, sockets.length - 1) : 0];
        return null == toRankZeroOrFromRankOne ? InetAddress.getLoopbackAddress() : toRankZeroOrFromRankOne.getLocalAddress();
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
     *
     * @throws IllegalArgumentException naming the size if {@code mine} is larger than {@link #MAX_PAYLOAD_BYTES}.
     * @throws IllegalStateException    naming the rank whose control connection was lost.
     */
    public List<byte[]> allGather(final byte[] mine)
    {
        checkPayload(mine);
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

    /**
     * Returns on every rank once every rank has called it.
     */
    public void barrier()
    {
        allGather(new byte[0]);
    }

    /**
     * @param root  the rank whose bytes every rank gets.
     * @param bytes the payload on {@code root}; ignored (may be null) elsewhere.
     * @return root's payload, on every rank.
     * @throws IllegalArgumentException naming root if it is not a rank of this job, or the size if root's payload
     *                                  is larger than {@link #MAX_PAYLOAD_BYTES}.
     */
    public byte[] broadcast(final int root, final byte[] bytes)
    {
        checkRoot(root);
        if (rank() == root)
        {
            checkPayload(bytes);
        }
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

    /**
     * @param root the rank that gets every contribution.
     * @return on {@code root}, every rank's bytes indexed by rank; elsewhere an empty list.
     * @throws IllegalArgumentException naming root if it is not a rank of this job, or the size if {@code mine} is
     *                                  larger than {@link #MAX_PAYLOAD_BYTES}.
     */
    public List<byte[]> gather(final int root, final byte[] mine)
    {
        checkRoot(root);
        checkPayload(mine);
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
     * @return every rank's value indexed by rank on rank 0, an empty array elsewhere.
     */
    public double[] gather(final double mine)
    {
        final List<byte[]> all = gather(0, ByteBuffer.allocate(Double.BYTES).putDouble(mine).array());
        final double[] values = new double[all.size()];
        for (int r = 0; r < values.length; r++)
        {
            values[r] = ByteBuffer.wrap(all.get(r)).getDouble();
        }
        return values;
    }

    /**
     * Sets what to run, over and over, while this rank waits for a peer's control message (null: block in the
     * read). An endpoint whose progress is driven by its caller supplies one, so that a rank waiting here still
     * answers its peers (acks), and so that the wait spins instead of sleeping (yielding the core every
     * {@link BackoffThenBlockIdleStrategy#POLLS_PER_YIELD} runs).
     */
    public void progressHook(final Runnable hook)
    {
        progressHook = hook;
    }

    private void checkRoot(final int root)
    {
        if (root < 0 || root >= size())
        {
            throw new IllegalArgumentException("root " + root + " is not a rank of this job of " + size());
        }
    }

    private static void checkPayload(final byte[] bytes)
    {
        if (bytes.length > MAX_PAYLOAD_BYTES)
        {
            throw new IllegalArgumentException("control payload of " + bytes.length + " bytes: at most " +
                MAX_PAYLOAD_BYTES + " (the job's control plane is for small messages)");
        }
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
        if (length < 0 || length > MAX_PAYLOAD_BYTES)
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
