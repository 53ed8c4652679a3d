package io.pinmx.pin.user;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The mapped endpoint files of same-host peer endpoints, by UDP port: what {@code send} and the pull engine use to
 * reach a peer through its shared-memory ring and region table.
 * <p>
 * Concurrency: looking a port up is lock-free (acquire reads of the port's file and last check time), since every
 * same-host send does it. Opening, replacing and closing files are serialised by this cache's lock, and publish
 * with release stores. A file whose owner has gone, or whose session is not the one addressed, is looked up again
 * (at most every {@link #RECHECK_NS}): the port may have a new owner. Replaced files stay mapped until
 * {@link #close}, since another thread may still be writing into their ring.
 * <p>
 * The endpoint's own port is answered with its own file: a frame it sends to itself goes into its own ring and a
 * pull from itself is one process_vm_readv, as for any same-host peer, instead of UDP datagrams and PULL_REPLY
 * frames through the loopback interface (an MPI rank sending to its own rank). The own file is the
 * endpoint's to close, not this cache's.
 */
final class PeerFileCache
{
    private static final long RECHECK_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int PORTS = 65536;
    private static final VarHandle FILE = MethodHandles.arrayElementVarHandle(EndpointFile[].class);
    private static final VarHandle CHECKED_NS = MethodHandles.arrayElementVarHandle(long[].class);

    private final Path directory;
    private final EndpointFile ownFile;
    private final int ownPort;
    private final Object lock = new Object();
    private final EndpointFile[] fileByPort = new EndpointFile[PORTS];
    /** When each port was last looked up in the directory (0 = never). */
    private final long[] checkedNs = new long[PORTS];
    /** Replaced files, closed with the cache (under the lock). */
    private final List<EndpointFile> retired = new ArrayList<>();
    /** Set under the lock: no file is opened after close. */
    private boolean closed;

    /**
     * @param directory where endpoint files live.
     * @param ownFile   this endpoint's own file, found for its own port without looking it up.
     * @param ownPort   this endpoint's port.
     */
    PeerFileCache(final Path directory, final EndpointFile ownFile, final int ownPort)
    {
        this.directory = directory;
        this.ownFile = ownFile;
        this.ownPort = ownPort;
    }

    /**
     * @return the live mapped file of the endpoint at {@code port} (this endpoint's own for its own port), looked up
     *         again when it is not of session {@code session}; or null (then the caller uses UDP). A file of another
     *         session may be returned: its owner refuses the frame, as it would a datagram.
     */
    EndpointFile find(final int port, final int session)
    {
        if (port == ownPort)
        {
            return ownFile.isLive() ? ownFile : null;
        }
        if (port > 65535)
        {
            return null;
        }
        final EndpointFile cached = (EndpointFile)FILE.getAcquire(fileByPort, port);
        if (cached != null && cached.isLive() && cached.sessionId() == session)
        {
            return cached;
        }
        final long nowNs = System.nanoTime();
        final long lastNs = (long)CHECKED_NS.getAcquire(checkedNs, port);
        if (lastNs != 0 && nowNs - lastNs < RECHECK_NS)
        {
            return cached != null && cached.isLive() ? cached : null;
        }
        synchronized (lock)
        {
            if (closed)
            {
                return null;
            }
            final EndpointFile current = fileByPort[port];
            CHECKED_NS.setRelease(checkedNs, port, nowNs == 0 ? 1 : nowNs);
            EndpointFile found = EndpointFile.openPeer(directory, port);
            if (current != null)
            {
                if (found != null && found.pid() == current.pid() && found.sessionId() == current.sessionId() &&
                    current.isLive())
                {
                    found.close();
                    found = current;
                }
                else
                {
                    retired.add(current);
                }
            }
            FILE.setRelease(fileByPort, port, found);
            return found;
        }
    }

    /** Close every mapped file; later lookups find none. */
    void close()
    {
        synchronized (lock)
        {
            closed = true;
            for (int port = 0; port < PORTS; port++)
            {
                final EndpointFile file = fileByPort[port];
                if (file != null)
                {
                    file.close();
                    FILE.setRelease(fileByPort, port, null);
                }
            }
            retired.forEach(EndpointFile::close);
            retired.clear();
        }
    }
}
