package io.pinmx.pin.user;

import io.pinmx.pin.provider.BackoffThenBlockIdleStrategy;
import io.pinmx.pin.provider.ContractChecks;
import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.wire.FrameKind;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The contract's {@code send} once its arguments are checked: an application frame goes into a same-host peer
 * endpoint's shared-memory ring (ringing its doorbell, a zero-length datagram, when its agent is parked), or as a
 * UDP datagram. Failures the caller must see are exceptions naming the peer; a loss injected for tests is counted.
 * Called from application threads; holds no state of its own beyond the peer-file cache it reads and the iovecs of
 * the run being sent.
 */
final class FrameTransmitter
{
    /**
     * How long a send waits for room in a peer's full ring before it gives up with NO_RESOURCES (transient: the
     * library sends it again). Short, because the caller holds its library's lock meanwhile: the endpoint's own
     * ring is drained ({@link OwnRing}), but its frames wait for the library.
     */
    private static final long SHM_FULL_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(2);

    /**
     * What a send that finds a same-host peer's ring full does for this endpoint's own ring while it waits: a peer
     * may be waiting for room in ours at the same time, each endpoint's only progress its sending thread.
     */
    interface OwnRing
    {
        /**
         * Drains the endpoint's own ring once, or leaves it to its progress thread.
         *
         * @return false when this thread cannot drain it (it is delivering the endpoint's frames, inside poll) and
         *         nothing else does: then the send gives up at once rather than wait out a peer that waits on us.
         */
        boolean drainWhileSendWaits();
    }

    private final UdpTransport udp;
    private final DriverCounters counters;
    /** Null without the same-host path. */
    private final PeerFileCache peerFiles;
    private final byte[] hostBytes;
    private final OwnRing ownRing;
    /** Guards {@link #runIovecs}: runs may come from several threads; taken before the transport's send lock. */
    private final ReentrantLock runLock = new ReentrantLock();
    private final FrameIovecs runIovecs = new FrameIovecs(Arena.ofAuto());

    FrameTransmitter(
        final UdpTransport udp, final DriverCounters counters, final PeerFileCache peerFiles, final byte[] hostBytes,
        final OwnRing ownRing)
    {
        this.udp = udp;
        this.counters = counters;
        this.peerFiles = peerFiles;
        this.hostBytes = hostBytes;
        this.ownRing = ownRing;
    }

    /** @return true when the frame went into the peer's shared-memory ring, false when it went by UDP. */
    boolean send(
        final UdpPeer peer, final int dstEndpoint, final int dstSession, final FrameKind kind,
        final MemorySegment frameHeader, final MemorySegment body)
    {
        final EndpointFile peerFile = peerFile(peer, dstEndpoint, dstSession);
        if (peerFile != null)
        {
            sendShm(peerFile, peer, dstEndpoint, frameHeader, body);
        }
        else
        {
            sendUdp(peer, dstEndpoint, kind, frameHeader, body);
        }
        counters.increment(Counter.sent(kind));
        return peerFile != null;
    }

    /**
     * A run of frames to one endpoint ({@code DriverEndpoint.sendRun}, checked): into the peer's ring frame by frame,
     * or over UDP where frames of one size go as one send with segmentation offload.
     *
     * @return true when the frames went into the peer's shared-memory ring, false when they went by UDP.
     */
    boolean sendRun(
        final UdpPeer peer, final int dstEndpoint, final int dstSession, final MemorySegment[] headers,
        final MemorySegment[] payloads, final int frames)
    {
        final EndpointFile peerFile = peerFile(peer, dstEndpoint, dstSession);
        if (peerFile != null)
        {
            for (int k = 0; k < frames; k++)
            {
                sendShm(peerFile, peer, dstEndpoint, headers[k], payload(payloads, k));
                counters.increment(Counter.sent(ContractChecks.kind(headers[k])));
            }
            return true;
        }
        runLock.lock();
        try
        {
            int k = 0;
            while (k < frames)
            {
                k = sendUdpGroup(peer, dstEndpoint, headers, payloads, k, frames);
            }
        }
        finally
        {
            runLock.unlock();
        }
        return false;
    }

    /**
     * Sends frames from {@code from} on while they have one size (the last may be shorter) and a native header and
     * payload: one offloaded send where the route allows; a frame with bytes on the Java heap goes alone.
     *
     * @return the first frame not sent yet.
     */
    private int sendUdpGroup(
        final UdpPeer peer, final int dstEndpoint, final MemorySegment[] headers, final MemorySegment[] payloads,
        final int from, final int frames)
    {
        if (!UdpTransport.addressable(headers[from], payload(payloads, from)))
        {
            sendUdp(peer, dstEndpoint, ContractChecks.kind(headers[from]), headers[from], payload(payloads, from));
            counters.increment(Counter.sent(ContractChecks.kind(headers[from])));
            return from + 1;
        }
        final long segmentBytes = headers[from].byteSize() + payload(payloads, from).byteSize();
        runIovecs.clear().add(headers[from], payload(payloads, from));
        int end = from + 1;
        long lastBytes = segmentBytes;
        while (end < frames && lastBytes == segmentBytes && end - from < FrameIovecs.MAX_FRAMES &&
            UdpTransport.addressable(headers[end], payload(payloads, end)))
        {
            final long bytes = headers[end].byteSize() + payload(payloads, end).byteSize();
            if (bytes > segmentBytes)
            {
                break;
            }
            runIovecs.add(headers[end], payload(payloads, end));
            lastBytes = bytes;
            end++;
        }
        final InetSocketAddress to = peer.socketAddress(dstEndpoint);
        final int sent;
        try
        {
            sent = udp.sendSegments(runIovecs, (int)segmentBytes, to);
        }
        catch (final IOException e)
        {
            throw new DriverException(DriverError.SYSTEM, 0, "send a run of " + (end - from) + " frames to peer " +
                peer.index() + " (" + peer.board() + " endpoint " + dstEndpoint + "): " + e.getMessage(), e);
        }
        counters.add(Counter.DROPPED_LOSS_INJECTED_TX, udp.injectedLosses());
        counters.add(Counter.OFFLOADED_SENDS, udp.offloadedSends());
        if (udp.faulted())
        {
            throw new DriverException(DriverError.SYSTEM, Errno.EFAULT, "send a run of " + (end - from) +
                " frames to peer " + peer.index() + " (" + peer.board() + " endpoint " + dstEndpoint + "): frame " +
                (from + sent + udp.injectedLosses()) + " or one after it has a header or payload that is not mapped",
                null);
        }
        if (sent + udp.injectedLosses() < end - from)
        {
            throw new DriverException(DriverError.NO_RESOURCES, "send a run of " + (end - from) + " frames to peer " +
                peer.index() + " (" + peer.board() + " endpoint " + dstEndpoint + "): the UDP socket's send buffer " +
                "stayed full after " + sent + " of them");
        }
        for (int k = from; k < end; k++)
        {
            counters.increment(Counter.sent(ContractChecks.kind(headers[k])));
        }
        return end;
    }

    private static MemorySegment payload(final MemorySegment[] payloads, final int k)
    {
        return null == payloads[k] ? MemorySegment.NULL : payloads[k];
    }

    /** {@code DriverEndpoint.receiveQueueWritten}: where the peer endpoint's ring ends now. */
    long receiveQueueWritten(final UdpPeer peer, final int dstEndpoint, final int dstSession)
    {
        final EndpointFile peerFile = peerFile(peer, dstEndpoint, dstSession);
        return null == peerFile ? DriverEndpoint.NO_RECEIVE_QUEUE : peerFile.ring().written();
    }

    /** {@code DriverEndpoint.receiveQueueRead}: how far the peer endpoint's library has taken frames from its ring. */
    long receiveQueueRead(final UdpPeer peer, final int dstEndpoint, final int dstSession)
    {
        final EndpointFile peerFile = peerFile(peer, dstEndpoint, dstSession);
        return null == peerFile ? DriverEndpoint.NO_RECEIVE_QUEUE : peerFile.ring().taken();
    }

    /** The mapped endpoint file of a same-host peer endpoint, or null (then UDP is used). */
    EndpointFile peerFile(final UdpPeer peer, final int dstEndpoint, final int dstSession)
    {
        return peer.isSameHost() && peerFiles != null ? peerFiles.find(peer.basePort() + dstEndpoint, dstSession) : null;
    }

    private void sendUdp(
        final UdpPeer peer, final int dstEndpoint, final FrameKind kind, final MemorySegment frameHeader,
        final MemorySegment body)
    {
        try
        {
            final int status = udp.send(frameHeader, body, peer.socketAddress(dstEndpoint));
            if (status == UdpTransport.LOSS_INJECTED)
            {
                counters.increment(Counter.DROPPED_LOSS_INJECTED_TX);
            }
            else if (status == UdpTransport.SEND_BUFFER_FULL)
            {
                throw new DriverException(DriverError.NO_RESOURCES, "send " + kind + " to peer " + peer.index() +
                    " (" + peer.board() + " endpoint " + dstEndpoint + "): the UDP socket's send buffer stayed full");
            }
        }
        catch (final IOException e)
        {
            throw new DriverException(DriverError.SYSTEM, 0, "send " + kind + " to peer " + peer.index() + " (" +
                peer.board() + " endpoint " + dstEndpoint + "): " + e.getMessage(), e);
        }
    }

    private void sendShm(
        final EndpointFile peerFile, final UdpPeer peer, final int dstEndpoint, final MemorySegment frameHeader,
        final MemorySegment payload)
    {
        final ShmFrameRing ring = peerFile.ring();
        if (!ring.offer(frameHeader, payload, udp.port(), hostBytes))
        {
            if (peerFile.isOwn())
            {
                // Only this endpoint drains its own ring, under the lock the sending thread holds now: waiting is futile
                throw new DriverException(DriverError.NO_RESOURCES, "send to itself (endpoint " + dstEndpoint +
                    "): its own shared-memory ring is full until it polls");
            }
            if (!ownRing.drainWhileSendWaits())
            {
                throw new DriverException(DriverError.NO_RESOURCES, "send to peer " + peer.index() + " (" +
                    peer.board() + " endpoint " + dstEndpoint + "): its shared-memory ring is full, and this thread " +
                    "delivers its own endpoint's frames meanwhile");
            }
            counters.increment(Counter.SHM_RING_FULL_WAITS);
            final long deadlineNs = System.nanoTime() + SHM_FULL_WAIT_NS;
            final BackoffThenBlockIdleStrategy idle =
                BackoffThenBlockIdleStrategy.spinThenYield(BackoffThenBlockIdleStrategy.PROVIDER_SPINS);
            while (!ring.offer(frameHeader, payload, udp.port(), hostBytes))
            {
                if (!peerFile.isLive() || !peerFile.ownerAlive())
                {
                    throw new DriverException(DriverError.PEER_UNREACHABLE, "send to peer " + peer.index() + " (" +
                        peer.board() + " endpoint " + dstEndpoint + "): its shared-memory ring " +
                        (!peerFile.isLive() ? "was closed" : "belongs to process " + peerFile.pid() + ", which is gone"));
                }
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new DriverException(DriverError.NO_RESOURCES, "send to peer " + peer.index() + " (" +
                        peer.board() + " endpoint " + dstEndpoint + "): its shared-memory ring stayed full for " +
                        TimeUnit.NANOSECONDS.toMillis(SHM_FULL_WAIT_NS) + " ms");
                }
                ownRing.drainWhileSendWaits();
                idle.idle();
            }
        }
        counters.increment(Counter.SHM_FRAMES_SENT);
        if (ring.claimWakeUp())
        {
            try
            {
                udp.sendDoorbell(peer.socketAddress(dstEndpoint));
                counters.increment(Counter.DOORBELLS_SENT);
            }
            catch (final IOException e)
            {
                throw new DriverException(DriverError.SYSTEM, 0, "doorbell to peer " + peer.index() + " endpoint " +
                    dstEndpoint + ": " + e.getMessage(), e);
            }
        }
    }
}
