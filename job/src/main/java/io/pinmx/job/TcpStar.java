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
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The job's control plane without a PMIx server: a star of TCP connections through rank 0, joined by the bootstrap
 * {@link Rendezvous} (rank 0 listens, every other rank connects to it). Every collective is a round through rank 0:
 * it receives every contribution and sends every rank what it gets. A progress hook runs while a rank waits for a
 * peer, so a caller-driven endpoint keeps answering; such a wait also asks the connection every
 * {@link #END_CHECK_INTERVAL_NS} whether the peer closed it, since a spinning wait never reads the end of the stream.
 * When rank 0 loses a rank inside a collective it tells every other rank why before it gives up, so that the ranks
 * waiting on it name the rank that died rather than rank 0.
 */
final class TcpStar implements ControlPlane
{
    /** How often a wait running the progress hook checks whether its peer closed the connection. */
    private static final long END_CHECK_INTERVAL_NS = 100_000_000L;
    /** How long that check's read waits for a byte when the peer sent nothing and did not close. */
    private static final int END_CHECK_READ_MS = 1;
    /** Sent by rank 0 in place of a length or count: the collective failed, a UTF string says why. */
    private static final int ABORTED = -1;
    private static final int MAX_ABORT_REASON_CHARS = 4_000;

    private final JobRank rank;
    private final ServerSocket listener;
    private final Socket[] sockets;
    private final long[] pids;
    private final DataInputStream[] in;
    private final DataOutputStream[] out;
    private final BackoffThenBlockIdleStrategy idle = BackoffThenBlockIdleStrategy.busyPolling();
    /** Set from any thread (an endpoint opened on demand installs it): read at each wait. */
    private volatile Runnable progressHook;

    private TcpStar(final JobRank rank, final ServerSocket listener, final Rendezvous.Joined joined) throws IOException
    {
        this.rank = rank;
        this.listener = listener;
        this.sockets = joined.sockets();
        this.pids = joined.pids();
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
                return new TcpStar(rank, null, new Rendezvous.Joined(new Socket[1], new long[1]));
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
        try
        {
            final List<byte[]> all = gatherAtZero(mine);
            for (int r = 1; r < size(); r++)
            {
                sendAll(r, all);
            }
            return all;
        }
        catch (final RuntimeException ex)
        {
            throw abortOthers(ex);
        }
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
        try
        {
            final byte[] value = 0 == root ? bytes : receive(root);
            for (int r = 1; r < size(); r++)
            {
                send(r, value);
            }
            return value;
        }
        catch (final RuntimeException ex)
        {
            throw abortOthers(ex);
        }
    }

    @Override
    public List<byte[]> gather(final int root, final byte[] mine)
    {
        if (0 != rank())
        {
            send(0, mine);
            return rank() == root ? receiveAll(0) : List.of();
        }
        try
        {
            final List<byte[]> all = gatherAtZero(mine);
            if (0 == root)
            {
                return all;
            }
            sendAll(root, all);
            return List.of();
        }
        catch (final RuntimeException ex)
        {
            throw abortOthers(ex);
        }
    }

    /**
     * Rank 0: a collective failed; every other rank still waiting on rank 0 is told why (at best effort: a connection
     * that is gone takes nothing), so that its collective fails with the cause instead of the news that rank 0 left.
     *
     * @return the failure, to throw.
     */
    private RuntimeException abortOthers(final RuntimeException failure)
    {
        final String why = String.valueOf(failure.getMessage());
        final String reason = why.length() > MAX_ABORT_REASON_CHARS ? why.substring(0, MAX_ABORT_REASON_CHARS) : why;
        for (int r = 1; r < size(); r++)
        {
            try
            {
                out[r].writeInt(ABORTED);
                out[r].writeUTF(reason);
                out[r].flush();
            }
            catch (final IOException gone)
            {
                // that rank's connection is lost too: it learns so from its end
            }
        }
        return failure;
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
            if (ABORTED == count)
            {
                throw aborted(r);
            }
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
        if (ABORTED == length)
        {
            throw aborted(r);
        }
        if (length < 0 || length > Job.MAX_PAYLOAD_BYTES)
        {
            throw new IllegalStateException("job: rank " + rank() + " got a control message of " + length +
                " bytes from rank " + r + " (not a pinmx job's control connection?)");
        }
        final byte[] bytes = new byte[length];
        in[r].readFully(bytes);
        return bytes;
    }

    /** Rank 0 gave the collective up and said why (a spoke's read found {@link #ABORTED}). */
    private IllegalStateException aborted(final int r) throws IOException
    {
        return new IllegalStateException("job: rank " + rank() + ": rank " + r + " gave the collective up: " +
            in[r].readUTF());
    }

    /**
     * Before a blocking read from rank {@code r}: with a progress hook, run it until bytes, or the end of the
     * stream, are there to read (the read that follows reports the end).
     */
    private void awaitReadable(final int r) throws IOException
    {
        final Runnable hook = progressHook;
        if (null == hook)
        {
            return;
        }
        idle.reset();
        long nextEndCheckNs = System.nanoTime() + END_CHECK_INTERVAL_NS;
        while (0 == in[r].available())
        {
            if (sockets[r].isClosed())
            {
                return;
            }
            hook.run();
            idle.idle();
            final long nowNs = System.nanoTime();
            if (nowNs - nextEndCheckNs >= 0)
            {
                if (sentOrEnded(r))
                {
                    return;
                }
                nextEndCheckNs = nowNs + END_CHECK_INTERVAL_NS;
            }
        }
    }

    /**
     * Whether a read from rank {@code r} would return now: a short timed read, whose byte (if any) is put back.
     * {@code available()} stays 0 at the end of the stream, so a wait that only asks it never sees a peer that died.
     */
    private boolean sentOrEnded(final int r) throws IOException
    {
        final DataInputStream stream = in[r];
        sockets[r].setSoTimeout(END_CHECK_READ_MS);
        stream.mark(1);
        try
        {
            stream.read();
            stream.reset();
            return true;
        }
        catch (final SocketTimeoutException nothingYet)
        {
            return false;
        }
        finally
        {
            sockets[r].setSoTimeout(0);
        }
    }

    private RuntimeException lost(final int r, final IOException ex)
    {
        final String peer = "rank " + r + " (host " + sockets[r].getInetAddress().getHostAddress() + ", pid " + pids[r];
        if (ex instanceof EOFException)
        {
            return new IllegalStateException("job: rank " + rank() + " lost its control connection to " + peer +
                "; did it die?)", ex);
        }
        return new UncheckedIOException("job: rank " + rank() + " control connection to " + peer + ") failed: " +
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
