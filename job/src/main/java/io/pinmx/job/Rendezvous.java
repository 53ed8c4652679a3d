package io.pinmx.job;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.TreeSet;

/**
 * The bootstrap rendezvous: rank 0 listens at the {@link BootstrapAddress} until every other rank has connected
 * and said hello (its rank, the job's size and its pid), answering each with its own pid; every other rank connects
 * to rank 0. The result is one control connection per rank pair that includes rank 0, indexed by the peer's rank,
 * with the peer's pid, so that a lost connection can name the process. Owns nothing after it returns.
 */
final class Rendezvous
{
    private static final int HELLO_MAGIC = 0x706d7862;
    private static final long CONNECT_RETRY_MS = 10;

    private Rendezvous()
    {
    }

    /**
     * @param sockets the control connections indexed by the peer's rank (this rank's own index empty).
     * @param pids    the pid of the process at each connection's other end, indexed alike.
     */
    record Joined(Socket[] sockets, long[] pids)
    {
    }

    /**
     * Rank 0's side. The bootstrap file, if any, is removed once every rank has joined or the wait failed: nobody
     * needs it after that.
     *
     * @param listener an unbound server socket; bound here, left open for the caller to close.
     * @return the accepted sockets and their ranks' pids, indexed by rank (index 0 empty).
     * @throws IllegalStateException naming the missing ranks if they do not all come within the timeout.
     */
    static Joined listen(
        final JobRank rank, final BootstrapAddress address, final long timeoutMs, final ServerSocket listener)
        throws IOException
    {
        listener.setReuseAddress(true);
        listener.bind(address.bindAddress());
        address.publish((InetSocketAddress)listener.getLocalSocketAddress());
        final Socket[] sockets = new Socket[rank.size()];
        final long[] pids = new long[rank.size()];
        try
        {
            awaitEveryRank(rank, timeoutMs, listener, sockets, pids);
        }
        catch (final IOException | RuntimeException ex)
        {
            closeAll(sockets);
            try
            {
                address.withdraw();
            }
            catch (final RuntimeException withdrawFailed)
            {
                ex.addSuppressed(withdrawFailed);
            }
            throw ex;
        }
        address.withdraw();
        return new Joined(sockets, pids);
    }

    private static void awaitEveryRank(
        final JobRank rank, final long timeoutMs, final ServerSocket listener, final Socket[] sockets, final long[] pids)
        throws IOException
    {
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
                final long peerPid = hello.readLong();
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
                final DataOutputStream answer = new DataOutputStream(socket.getOutputStream());
                answer.writeLong(ProcessHandle.current().pid());
                answer.flush();
                sockets[peer] = socket;
                pids[peer] = peerPid;
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
            throw new IllegalStateException("bootstrap: rank 0 listening at " + listener.getLocalSocketAddress() +
                " heard from " + joined + " of " + (rank.size() - 1) + " other ranks within " + timeoutMs +
                " ms; missing ranks " + missing + " (" + Job.TIMEOUT_VARIABLE + ")");
        }
    }

    /**
     * Any other rank's side: waits for rank 0's address, connects (retrying while nobody listens yet) and says hello.
     *
     * @return the sockets indexed by rank, only rank 0's set, with rank 0's pid.
     * @throws IllegalStateException naming the address tried if rank 0 cannot be found or reached in time, or if it
     *                               closed the connection instead of answering the hello.
     */
    static Joined connect(final JobRank rank, final BootstrapAddress address, final long timeoutMs)
        throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        final InetSocketAddress rankZero = address.awaitRankZero(deadlineNs);
        if (null == rankZero)
        {
            throw new IllegalStateException("bootstrap: rank " + rank.rank() + " found no address of rank 0 in " +
                address + " within " + timeoutMs + " ms (" + Job.TIMEOUT_VARIABLE + ")");
        }
        while (true)
        {
            final long remainingMs = (deadlineNs - System.nanoTime()) / 1_000_000L;
            if (remainingMs <= 0)
            {
                throw new IllegalStateException("bootstrap: rank " + rank.rank() + " could not reach rank 0 at " +
                    rankZero + " within " + timeoutMs + " ms (" + Job.TIMEOUT_VARIABLE + ")");
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
            hello.writeLong(ProcessHandle.current().pid());
            hello.flush();
            final long[] pids = new long[rank.size()];
            pids[0] = awaitAnswer(rank, rankZero, socket, deadlineNs, timeoutMs);
            final Socket[] sockets = new Socket[rank.size()];
            sockets[0] = socket;
            return new Joined(sockets, pids);
        }
    }

    /** @return rank 0's pid, its answer to our hello. */
    private static long awaitAnswer(
        final JobRank rank, final InetSocketAddress rankZero, final Socket socket, final long deadlineNs,
        final long timeoutMs) throws IOException
    {
        try
        {
            socket.setSoTimeout((int)Math.max(1, (deadlineNs - System.nanoTime()) / 1_000_000L));
            final long pid = new DataInputStream(socket.getInputStream()).readLong();
            socket.setSoTimeout(0);
            return pid;
        }
        catch (final SocketTimeoutException | EOFException ex)
        {
            socket.close();
            throw new IllegalStateException("bootstrap: rank " + rank.rank() + " got no answer to its hello from " +
                "rank 0 at " + rankZero + " within " + timeoutMs + " ms (" + Job.TIMEOUT_VARIABLE + ")" +
                (ex instanceof EOFException ? ": rank 0 closed the connection (a job of another size?)" : ""));
        }
    }

    static void closeAll(final Socket[] sockets)
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
