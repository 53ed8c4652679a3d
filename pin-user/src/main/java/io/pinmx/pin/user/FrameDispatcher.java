package io.pinmx.pin.user;

import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EventHandler;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.wire.DropReason;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.FrameReader;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The agent's receive side: takes frames from the UDP socket and the endpoint's shared-memory ring (no more than
 * the event ring has room for), checks each (a UDP frame or probe first by its CRC32C, {@link FrameChecksum}: one
 * damaged in flight is dropped and counted; ring records are memory, not a wire, and carry none), and hands it on:
 * PULLs to the {@link PullServer}, PULL_REPLYs and NACKs of PULLs to the {@link Puller}, PUTs and ATOMICs to the
 * {@link RemoteWriteServer}, their answers and NACKs to the {@link RemoteWriter}, a same-host peer's invitation
 * to share its pull to the {@link PullHelper}, misaddressed frames answered with a NACK, liveness probes and answers to
 * {@link LivenessProbes}, everything else queued as an event. Owns the ring's senders ({@link RingSenders}: socket
 * address and peer entry by port) and when the socket is next polled. Runs on the agent only.
 * <p>
 * A UDP receive is a system call, several times the cost of looking at the ring, and same-host
 * traffic never comes by UDP (but for NACKs of one-sided frames, and PUT frames of a peer that the kernel keeps from
 * writing with process_vm_writev, and their answers; other hosts' one-sided frames always do). So with a ring the
 * socket is polled every cycle only while datagrams are flowing (one carried a frame within {@link #UDP_HOT_NS}),
 * while this endpoint's puts or atomics await answers, or while it exposes regions for remote writes, otherwise once
 * every {@link #COLD_UDP_POLL_CYCLES} cycles and on the first cycle after the agent was parked (a doorbell or a
 * datagram woke it).
 * <p>
 * When poll runs the duty cycle itself ({@link #receive(EventHandler, int)}) and no event is queued before them,
 * received frames go to poll's handler in place (in the ring record or the datagram buffer), not through the event
 * ring: one copy less per frame, and no event record written and read back.
 */
final class FrameDispatcher
{
    private static final int RECEIVE_BATCH = 64;
    static final int COLD_UDP_POLL_CYCLES = 64;
    private static final long UDP_HOT_NS = 1_000_000;

    private final UdpReceiver receiver;
    private final FrameChecksum checksum = new FrameChecksum();
    /** Null without the same-host path. */
    private final ShmFrameRing ring;
    /** Null without {@link #ring}. */
    private final RingTakenPosition ringTaken;
    /** The ring frame being dispatched went into the event queue (else the library needs nothing more of it). */
    private boolean ringFrameQueued;
    private final EventRing events;
    private final PeerRegistry<UdpPeer> peers;
    private final Puller puller;
    private final ReplyPlacement placement;
    private final PullServer server;
    private final RemoteWriter writer;
    private final RemoteWriteServer writeServer;
    private final PullHelper helper;
    private final LivenessProbes liveness;
    private final DriverCounters counters;
    private final int endpointIndex;
    private final int sessionId;
    private final int maxFrameBytes;
    private final FrameFlyweight header = new FrameFlyweight();
    private final NackFrame nack = new NackFrame();
    /** The source of the frame being dispatched, as the peer registry looks it up. */
    private final UdpPeer.Key sourceKey = new UdpPeer.Key();
    private final ShmFrameRing.FrameConsumer shmConsumer = new ShmFrameRing.FrameConsumer()
    {
        @Override
        public void onFrame(
            final MemorySegment buffer, final long frameOffset, final int frameLength, final int senderPort,
            final long addressOffset, final int addressLength)
        {
            onShmFrame(buffer, frameOffset, frameLength, senderPort, addressOffset, addressLength);
        }

        @Override
        public void onSharedPull(final int senderPort, final int pullerSession, final int slot, final int generation)
        {
            try
            {
                helper.onInvitation(senderPort, pullerSession, slot, generation);
            }
            finally
            {
                ringTaken.consumed(ring.deliveringEnd());
            }
        }
    };
    private final RingSenders ringSenders = new RingSenders();
    /** The sender of the ring record being dispatched (its frames are the lossless ones). */
    private RingSenders.Sender ringSender;
    /** Poll's handler while poll runs the duty cycle, else null. */
    private EventHandler directHandler;
    private int directLeft;
    private int directDelivered;
    private final DriverEvent directEvent = new DriverEvent();
    private boolean udpHot = true;
    private long udpHotUntilNs;
    private int cyclesSinceUdpPoll;

    FrameDispatcher(
        final UdpTransport udp,
        final ShmFrameRing ring,
        final RingTakenPosition ringTaken,
        final EventRing events,
        final PeerRegistry<UdpPeer> peers,
        final Puller puller,
        final PullServer server,
        final RemoteWriter writer,
        final RemoteWriteServer writeServer,
        final PullHelper helper,
        final LivenessProbes liveness,
        final DriverCounters counters,
        final int endpointIndex,
        final int sessionId,
        final int maxFrameBytes)
    {
        this.receiver = udp.receiver();
        this.ring = ring;
        this.ringTaken = ringTaken;
        this.events = events;
        this.peers = peers;
        this.puller = puller;
        this.placement = puller.placement();
        this.server = server;
        this.writer = writer;
        this.writeServer = writeServer;
        this.helper = helper;
        this.liveness = liveness;
        this.counters = counters;
        this.endpointIndex = endpointIndex;
        this.sessionId = sessionId;
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Receive, handing frames straight to poll's {@code handler} (up to {@code limit}) while no event is queued
     * before them; the rest are queued as events.
     *
     * @return events delivered to the handler.
     */
    int receive(final EventHandler handler, final int limit)
    {
        directHandler = handler;
        directLeft = limit;
        directDelivered = 0;
        try
        {
            receive();
            return directDelivered;
        }
        finally
        {
            directHandler = null;
        }
    }

    /** @return frames and datagrams taken from the socket and the ring. */
    int receive()
    {
        int work = 0;
        // one-sided frames, their answers and NACKs may come by UDP (from other hosts, or refused ones from this host)
        if (ring == null || udpHot || writer.hasActive() || writeServer.expectsFrames() ||
            ++cyclesSinceUdpPoll >= COLD_UDP_POLL_CYCLES)
        {
            cyclesSinceUdpPoll = 0;
            work = receiveUdp();
        }
        if (ring != null)
        {
            final int fit = Math.min(RECEIVE_BATCH, events.framesThatFit(maxFrameBytes));
            if (fit > 0)
            {
                work += ring.drain(shmConsumer, fit);
            }
        }
        return work;
    }

    /**
     * The responder's receive when the event queue has no room: datagrams are read anyway so that liveness probes
     * among them are answered; frames are dropped (counted), and their senders resend them.
     *
     * @return datagrams read.
     */
    int answerProbesDroppingFrames()
    {
        int received = 0;
        while (received < RECEIVE_BATCH && events.framesThatFit(UdpReceiver.RECEIVE_BUFFER_BYTES) == 0)
        {
            final InetSocketAddress source = receiver.receive();
            if (source == null)
            {
                break;
            }
            received++;
            final int bytes = receiver.receivedBytes();
            final int segmentBytes = receiver.receivedSegmentBytes();
            for (int offset = 0; offset < bytes; offset += segmentBytes)
            {
                final int length = Math.min(segmentBytes, bytes - offset);
                if (LivenessProbes.isProbeDatagram(receiver.receivedBuffer(), offset, length))
                {
                    onProbe(offset, length, source);
                }
                else
                {
                    counters.increment(Counter.DROPPED_EVENT_QUEUE_FULL);
                }
            }
        }
        return received;
    }

    private void onProbe(final int offset, final int length, final InetSocketAddress source)
    {
        if (checksum.trailerMatches(receiver.receivedBuffer().address() + offset, length))
        {
            liveness.onDatagram(receiver.receivedBuffer(), offset, source);
        }
        else
        {
            counters.increment(Counter.DROPPED_BAD_CRC);
        }
    }

    /** The agent was parked: poll the socket on the next cycle whatever the traffic was. */
    void pollUdpNext()
    {
        cyclesSinceUdpPoll = COLD_UDP_POLL_CYCLES;
    }

    private int receiveUdp()
    {
        int received = 0;
        int frames = 0;
        // A datagram may be a run of up to 64 KiB of frames (UDP_GRO): served PULL_REPLY blocks, which take no event,
        // and a library's send runs (MEDIUM_FRAG fragments), which take one each: room for a whole run is waited for.
        while (received < RECEIVE_BATCH && events.framesThatFit(UdpReceiver.RECEIVE_BUFFER_BYTES) > 0)
        {
            final InetSocketAddress source = receiveRun();
            if (source == null)
            {
                break;
            }
            received++;
            final int bytes = receiver.receivedBytes();
            final int segmentBytes = receiver.receivedSegmentBytes();
            for (int offset = 0; offset < bytes; offset += segmentBytes)
            {
                if (receiver.dropReceived())
                {
                    counters.increment(Counter.DROPPED_LOSS_INJECTED_RX);
                    continue;
                }
                final int length = Math.min(segmentBytes, bytes - offset);
                if (LivenessProbes.isProbeDatagram(receiver.receivedBuffer(), offset, length))
                {
                    onProbe(offset, length, source);
                    continue;
                }
                final int k = offset / segmentBytes;
                final boolean placed = placement.placed(k);
                if (!(placed ? checksum.matches(placement.iovecs(), k) :
                    checksum.matches(receiver.receivedBuffer().address() + offset, length)))
                {
                    // damaged in flight: a placed payload's place stays unfilled, and the sender's resend repairs it
                    counters.increment(Counter.DROPPED_BAD_CRC);
                    continue;
                }
                frames++;
                onFrame(receiver.receivedBuffer(), offset, length, source, false, placed ? k : -1);
            }
            placement.forget();
            puller.flushReplies();
            if (directHandler != null && directDelivered > 0)
            {
                // poll's caller may be waiting for just this: it looks before the next receive, which on a round
                // trip of single datagrams finds nothing and would add a system call to each side's exchange
                break;
            }
        }
        if (frames > 0)
        {
            udpHot = true;
            udpHotUntilNs = System.nanoTime() + UDP_HOT_NS;
        }
        else if (udpHot && System.nanoTime() - udpHotUntilNs > 0)
        {
            udpHot = false;
        }
        return received;
    }

    /**
     * The next datagram, its PULL_REPLY payloads read straight into their pull's local region where
     * {@link ReplyPlacement} can place them (only while pulls wait: the peek costs a system call).
     *
     * @return its source, or null if none is waiting.
     */
    private InetSocketAddress receiveRun()
    {
        if (!puller.hasActivePulls())
        {
            return receiver.receive();
        }
        final int runBytes = receiver.peek();
        if (runBytes < 0)
        {
            return null;
        }
        if (placement.plan(receiver.receivedBuffer(), runBytes, receiver.receivedSegmentBytes()) == 0)
        {
            return receiver.receive();
        }
        final InetSocketAddress source = receiver.receive(placement.iovecs());
        if (source == null)
        {
            if (receiver.receiveFaulted())
            {
                placement.faulted();
                return receiveRun();
            }
            placement.forget();
        }
        return source;
    }

    private void onShmFrame(
        final MemorySegment buffer, final long frameOffset, final int frameLength, final int senderPort,
        final long addressOffset, final int addressLength)
    {
        ringFrameQueued = false;
        try
        {
            dispatchShmFrame(buffer, frameOffset, frameLength, senderPort, addressOffset, addressLength);
        }
        finally
        {
            final long end = ring.deliveringEnd();
            if (ringFrameQueued)
            {
                ringTaken.queued(end);
            }
            else
            {
                ringTaken.consumed(end);
            }
        }
    }

    private void dispatchShmFrame(
        final MemorySegment buffer, final long frameOffset, final int frameLength, final int senderPort,
        final long addressOffset, final int addressLength)
    {
        counters.incrementOwned(Counter.SHM_FRAMES_RECEIVED);
        if (frameLength > maxFrameBytes)
        {
            counters.increment(Counter.DROPPED_BAD_LENGTH);
            return;
        }
        final RingSenders.Sender sender = ringSenders.sender(senderPort & 0xFFFF, buffer, addressOffset, addressLength);
        if (sender == null)
        {
            counters.increment(Counter.DROPPED_BAD_FIELD);
            return;
        }
        ringSender = sender;
        onFrame(buffer, frameOffset, frameLength, sender.address(), true, -1);
        // the ring's space is the producer's again once drained: a reply's payload is written out now
        puller.flushReplies();
    }

    /**
     * Check a received frame and dispatch it. Only a frame that becomes an event takes a peer-table entry (held
     * until poll delivers it): a misaddressed frame is answered at its source address, PULLs are served there, and
     * PULL_REPLYs are matched against the pull's own peer, so strangers cost no lasting state.
     *
     * @param lossless the frame came from the shared-memory ring, which cannot lose it.
     * @param placed     its index in the run if its payload was read into a pull's region ({@link ReplyPlacement}),
     *                   else -1.
     */
    private void onFrame(
        final MemorySegment frame, final long offset, final int length, final InetSocketAddress source,
        final boolean lossless, final int placed)
    {
        final DropReason invalid = FrameReader.check(frame, offset, length);
        if (invalid != DropReason.NONE)
        {
            counters.increment(Counter.dropped(invalid));
            return;
        }
        header.wrap(frame, offset);
        final FrameKind kind = header.kind();
        final int basePort = source.getPort() - header.srcEndpoint();
        if (basePort < 1)
        {
            counters.increment(Counter.DROPPED_BAD_FIELD);
            return;
        }
        final DropReason misaddressed = FrameReader.checkAddressedTo(frame, offset, endpointIndex, sessionId);
        if (misaddressed != DropReason.NONE)
        {
            counters.increment(Counter.dropped(misaddressed));
            if (kind != FrameKind.NACK)
            {
                server.sendNack(frame, offset, source, misaddressed == DropReason.WRONG_ENDPOINT ?
                    NackReason.BAD_ENDPOINT : NackReason.BAD_SESSION, 0, 0, 0, 0);
            }
            return;
        }
        counters.incrementOwned(Counter.received(kind));
        switch (kind)
        {
            case PULL -> server.serve(frame, offset, source);
            case PULL_REPLY -> puller.onReply(frame, offset, source.getAddress(), basePort, placed);
            case PUT -> writeServer.onPut(frame, offset, source);
            case ATOMIC -> writeServer.onAtomic(frame, offset, source, lossless);
            case PUT_ACK -> writer.onPutAck(frame, offset, source.getAddress(), basePort);
            case ATOMIC_REPLY -> writer.onAtomicReply(frame, offset, source.getAddress(), basePort);
            case NACK ->
            {
                final FrameKind refused = nack.wrap(frame, offset).refusedKind();
                if (refused == FrameKind.PULL)
                {
                    puller.onNack(frame, offset);
                }
                else if (refused == FrameKind.PUT || refused == FrameKind.ATOMIC)
                {
                    writer.onNack(frame, offset, source.getAddress(), basePort);
                }
                else
                {
                    queueReceived(EventType.RECV_NACK, frame, offset, source.getAddress(), basePort, lossless);
                }
            }
            default -> queueReceived(EventType.received(kind), frame, offset, source.getAddress(), basePort, lossless);
        }
    }

    private void queueReceived(
        final EventType type, final MemorySegment frame, final long offset, final InetAddress host, final int basePort,
        final boolean lossless)
    {
        final UdpPeer peer = lossless ? ringSender.holdPeer(basePort, peers, sourceKey) :
            peers.holdSource(sourceKey.set(host, basePort));
        if (peer == null)
        {
            counters.increment(Counter.DROPPED_PEER_TABLE_FULL);
            return;
        }
        if (directHandler != null && directLeft > 0 && events.isEmpty())
        {
            directLeft--;
            directDelivered++;
            try
            {
                directHandler.onEvent(directEvent.received(type, peer.index(), frame, offset, header.frameLength(),
                    lossless));
            }
            finally
            {
                peers.releaseHold(peer);
            }
            return;
        }
        if (events.offerReceived(type, peer.index(), frame, offset, header.frameLength(),
            lossless ? ring.deliveringEnd() : -1))
        {
            ringFrameQueued = lossless;
        }
        else
        {
            peers.releaseHold(peer);
        }
    }
}
