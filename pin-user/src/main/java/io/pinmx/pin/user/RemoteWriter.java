package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.EventType;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.wire.AtomicFrame;
import io.pinmx.pin.wire.AtomicReplyFrame;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.PutAckFrame;
import io.pinmx.pin.wire.PutFrame;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The origin side of one-sided writes: this endpoint's puts and atomics into peers' exposed regions. Everything but
 * the submits runs on the agent.
 * <p>
 * A put to a same-host peer whose endpoint file is mapped is written by this agent itself, piece by piece with
 * process_vm_writev into the segments the peer's region table names, after the checks the peer's agent would make
 * (session, key, every piece within the region) so a refused put writes nothing. Otherwise (and where the kernel
 * refuses cross-process access) it goes as PUT frames, each within one piece, at most {@link RemoteOp#WINDOW_FRAMES}
 * not acknowledged at once: each ack of the oldest frames sends as many new ones, and when the answers stop for the
 * resend timeout the frames not acknowledged are sent again. Puts are numbered; every frame carries its put's number and the oldest running put's, so the target
 * drops late duplicates of ended puts. Atomics always go to the target's agent as ATOMIC frames (only it can apply
 * them atomically against its own CPU), through its shared-memory ring when it is on this host and its file is
 * mapped, else by UDP; numbered by request seq, resent until answered (the ring loses nothing, but a target agent
 * that is slow to answer gets the request again); the target answers a resent request from its record without
 * applying it twice.
 */
final class RemoteWriter
{
    /**
     * The shortest time a put or atomic waits for its target's answers before it fails with TIMEOUT, whatever the
     * resend count: a target agent descheduled on a loaded host, or a JVM still starting, is waited for.
     */
    static final long MIN_ANSWER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);

    private final UserDriverOptions options;
    private final AgentFrameSender sender;
    private final PeerRegistry<UdpPeer> peers;
    private final Puller.PeerFiles peerFiles;
    private final RegionTable regions;
    private final DriverCounters counters;
    private final EventRing events;
    private final RemoteOps ops = new RemoteOps();
    private final VmCopier copier;
    private final int endpointIndex;
    private final int sessionId;
    private final int putPayloadBytes;
    private final MemorySegment frame;
    private final MemorySegment putHeader;
    private final MemorySegment atomicHeader;
    private final PutFrame put = new PutFrame();
    private final PutAckFrame putAck = new PutAckFrame();
    private final AtomicFrame atomic = new AtomicFrame();
    private final AtomicReplyFrame atomicReply = new AtomicReplyFrame();
    private final NackFrame nack = new NackFrame();
    private int nextPutNumber;
    private int nextRequestSeq;

    RemoteWriter(final EndpointParts parts)
    {
        final UserDriverOptions options = parts.options();
        this.options = options;
        this.sender = parts.sender();
        this.peers = parts.peers();
        this.peerFiles = parts.peerFiles();
        this.regions = parts.regions();
        this.counters = parts.counters();
        this.events = parts.events();
        this.copier = new VmCopier(parts.arena());
        this.endpointIndex = parts.endpointIndex();
        this.sessionId = parts.sessionId();
        this.putPayloadBytes = UdpTransport.payloadWithinMtu(options.framePayloadBytes(), FrameKind.PUT,
            options.bindAddress());
        final int frameBytes = Math.max(FrameKind.PUT.headerBytes() + putPayloadBytes,
            FrameKind.ATOMIC.headerBytes() + AtomicFrame.MAX_OPERAND_BYTES);
        this.frame = parts.arena().allocate(frameBytes, 8);
        this.putHeader = frame.asSlice(0, FrameKind.PUT.headerBytes());
        this.atomicHeader = frame.asSlice(0, FrameKind.ATOMIC.headerBytes());
    }

    /** Application thread: check a put's local side and queue it for the agent. */
    void submitPut(final PutSpec spec, final UdpPeer to)
    {
        final int pieces = spec.isVector() ? spec.pieceCount() : 1;
        long total = 0;
        for (int i = 0; i < pieces; i++)
        {
            final long remoteOffset = spec.isVector() ? spec.remoteOffsets()[i] : spec.remoteOffset();
            final long localOffset = spec.isVector() ? spec.localOffsets()[i] : spec.localOffset();
            final long length = spec.isVector() ? spec.lengths()[i] : spec.length();
            final String what = spec.isVector() ? "piece " + i + " length" : "length";
            if (length <= 0 || length > RemoteArguments.PUT_MAX_BYTES)
            {
                throw RemoteArguments.bad(spec, what + " " + length + " is not 1.." + RemoteArguments.PUT_MAX_BYTES +
                    " bytes");
            }
            if (remoteOffset < 0 || remoteOffset + length < 0)
            {
                throw RemoteArguments.bad(spec, "remote offset " + remoteOffset + " is negative or overflows with " +
                    what + " " + length);
            }
            final int code = regions.check(spec.localRegionId(), RegionTable.ACCESS_READ, localOffset, length);
            if (code == RegionTable.UNKNOWN_REGION)
            {
                throw new DriverException(DriverError.UNKNOWN_REGION, "startPut " + spec + ": local " +
                    RegionTable.describe(spec.localRegionId()) + " is not declared");
            }
            if (code == RegionTable.OUT_OF_RANGE)
            {
                throw new DriverException(DriverError.OUT_OF_RANGE, "startPut " + spec + ": local offset " +
                    localOffset + " + " + what + " " + length + " reaches past the end of " +
                    RegionTable.describe(spec.localRegionId()) + " (" + regions.regionBytes(spec.localRegionId()) +
                    " bytes)");
            }
            if (code == RegionTable.ACCESS_DENIED)
            {
                throw RemoteArguments.bad(spec, "local " + RegionTable.describe(spec.localRegionId()) +
                    " was not declared READ");
            }
            total += length;
        }
        if (total > RemoteArguments.PUT_MAX_BYTES)
        {
            throw RemoteArguments.bad(spec, "pieces total " + total + " bytes, above " + RemoteArguments.PUT_MAX_BYTES);
        }
        final RemoteOp op = ops.claim(spec);
        op.put(spec, to, putPayloadBytes);
        ops.submit(op);
        counters.increment(Counter.PUTS_STARTED);
    }

    /** Application thread: queue a checked atomic for the agent. */
    void submitAtomic(final AtomicSpec spec, final UdpPeer to)
    {
        final RemoteOp op = ops.claim(spec);
        op.atomic(spec, to);
        ops.submit(op);
        counters.increment(Counter.ATOMICS_STARTED);
    }

    boolean hasSubmissions()
    {
        return ops.hasSubmissions();
    }

    boolean hasActive()
    {
        return ops.activeCount() > 0;
    }

    /** Agent: start the submitted puts and atomics. @return work done. */
    int startSubmitted()
    {
        int started = 0;
        RemoteOp op;
        while ((op = ops.takeSubmitted()) != null)
        {
            started++;
            if (op.kind == RemoteOp.Kind.ATOMIC)
            {
                op.wireId = nextRequestSeq++;
                ops.activate(op);
                op.answeredNs = System.nanoTime();
                sendAtomic(op, op.answeredNs);
                continue;
            }
            final EndpointFile peerFile = options.sameHost() ?
                peerFiles.find(op.peer, op.remoteEndpoint, op.remoteSession) : null;
            if (peerFile != null && writeSameHost(op, peerFile))
            {
                continue;
            }
            op.wireId = RemoteOps.putWireId(op);
            op.putNumber = nextPutNumber++;
            ops.activate(op);
            op.fillWindow(putPayloadBytes);
            op.answeredNs = System.nanoTime();
            sendFrames(op, op.windowFirst, op.answeredNs);
        }
        return started;
    }

    /** @return false if the put must go as frames instead (the kernel refused cross-process access). */
    private boolean writeSameHost(final RemoteOp op, final EndpointFile peerFile)
    {
        if (peerFile.sessionId() != op.remoteSession)
        {
            fail(op, DriverError.PEER_UNREACHABLE, "endpoint " + op.remoteEndpoint + " of this host is gone (session " +
                Integer.toUnsignedString(op.remoteSession) + " now " + Integer.toUnsignedString(peerFile.sessionId()) +
                ")");
            return true;
        }
        final RegionTable target = peerFile.regions();
        final int key = target.checkKey(op.remoteRegion, op.key);
        if (key != 0)
        {
            failRefused(op, key, op.remoteOffsets[0]);
            return true;
        }
        for (int i = 0; i < op.pieces; i++)
        {
            final int code = target.check(op.remoteRegion, RegionTable.ACCESS_REMOTE, op.remoteOffsets[i], op.lengths[i]);
            if (code != 0)
            {
                failRefused(op, code, op.remoteOffsets[i]);
                return true;
            }
        }
        final int pid = peerFile.pid();
        for (int i = 0; i < op.pieces; i++)
        {
            copier.resolveRemote(target, op.remoteRegion, RegionTable.ACCESS_REMOTE, op.remoteOffsets[i], op.lengths[i]);
            if (copier.resolveLocal(regions, op.localRegion, RegionTable.ACCESS_READ, op.localOffsets[i],
                op.lengths[i]) < 0)
            {
                fail(op, DriverError.UNKNOWN_REGION, "local region " + op.localRegion + " is no longer declared");
                return true;
            }
            if (copier.transfer(pid, true, op.lengths[i]))
            {
                op.bytesAcked += op.lengths[i];
                continue;
            }
            final int errno = copier.errno();
            if (errno == Errno.EPERM && i == 0 && copier.faultPosition() == 0)
            {
                return false;
            }
            if (errno == Errno.ESRCH)
            {
                fail(op, DriverError.PEER_UNREACHABLE, "the process " + pid + " of endpoint " + op.remoteEndpoint +
                    " is gone: " + Errno.describe(errno));
            }
            else
            {
                fail(op, DriverError.SEGMENT_FAULT, "writing piece " + i + " at region offset " +
                    op.remoteOffsets[i] + " failed at byte " + copier.faultPosition() + " (local segment " +
                    copier.localFaultSegment() + ", remote segment " + copier.remoteFaultSegment() + "): " +
                    Errno.describe(errno));
            }
            return true;
        }
        complete(op, op.totalBytes, 0);
        return true;
    }

    /** Send the window's frames from {@code from} on that are not acknowledged yet. */
    private void sendFrames(final RemoteOp op, final int from, final long nowNs)
    {
        op.sentNs = nowNs;
        final int oldest = oldestRunningPut();
        for (int f = from; f != op.nextFrameIndex; f++)
        {
            if (op.acked(f))
            {
                continue;
            }
            final int k = RemoteOp.slot(f);
            final int bytes = op.frameBytes[k];
            copier.localBuffer(frame.address() + FrameKind.PUT.headerBytes(), bytes);
            if (copier.resolveRemote(regions, op.localRegion, RegionTable.ACCESS_READ, op.frameLocal[k], bytes) < 0)
            {
                fail(op, DriverError.UNKNOWN_REGION, "local region " + op.localRegion + " is no longer declared");
                return;
            }
            if (!copier.transfer(Libc.pid(), false, bytes))
            {
                fail(op, DriverError.SEGMENT_FAULT, "the source bytes at local offset " + op.frameLocal[k] +
                    " cannot be read (segment " + copier.remoteFaultSegment() + "): " + Errno.describe(copier.errno()));
                return;
            }
            put.wrap(frame, 0).encodeHeader(FrameKind.PUT, op.remoteEndpoint, endpointIndex, op.remoteSession,
                sessionId, op.putNumber, bytes);
            put.ackSeq(oldest);
            put.encode(op.wireId, op.remoteRegion, op.frameRemote[k], op.key, f, op.frameCount,
                op.framePutOffset[k]);
            sender.send(putHeader, frame, FrameKind.PUT.headerBytes(), bytes,
                op.peer.socketAddress(op.remoteEndpoint), FrameKind.PUT);
        }
    }

    /** The number of the oldest put still running (serial order), or the next put's when none runs. */
    private int oldestRunningPut()
    {
        int oldest = nextPutNumber;
        for (int i = 0; i < ops.activeCount(); i++)
        {
            final RemoteOp op = ops.active(i);
            if (op.kind == RemoteOp.Kind.PUT && op.putNumber - oldest < 0)
            {
                oldest = op.putNumber;
            }
        }
        return oldest;
    }

    private void sendAtomic(final RemoteOp op, final long nowNs)
    {
        op.sentNs = nowNs;
        atomic.wrap(frame, 0).encodeHeader(FrameKind.ATOMIC, op.remoteEndpoint, endpointIndex, op.remoteSession,
            sessionId, 0, op.operandCount * AtomicFrame.OPERAND_BYTES);
        atomic.encode(op.wireId, op.remoteRegion, op.remoteOffset, op.key, opCode(op.op), op.widthBytes, op.words);
        for (int i = 0; i < op.operandCount; i++)
        {
            atomic.operand(i, op.operands[i]);
        }
        final int operandBytes = op.operandCount * AtomicFrame.OPERAND_BYTES;
        final InetSocketAddress to = op.peer.socketAddress(op.remoteEndpoint);
        final EndpointFile peerFile = options.sameHost() ?
            peerFiles.find(op.peer, op.remoteEndpoint, op.remoteSession) : null;
        // a full ring is a loss, resent into the ring: the request keeps one path while the target's file is mapped
        if (peerFile == null || peerFile.sessionId() != op.remoteSession)
        {
            sender.send(atomicHeader, frame, FrameKind.ATOMIC.headerBytes(), operandBytes, to, FrameKind.ATOMIC);
        }
        else
        {
            sender.sendShm(peerFile, atomicHeader, frame, FrameKind.ATOMIC.headerBytes(), operandBytes, to,
                FrameKind.ATOMIC);
        }
    }

    static int opCode(final AtomicOp op)
    {
        return switch (op)
        {
            case FETCH_ADD -> AtomicFrame.OP_FETCH_ADD;
            case SWAP -> AtomicFrame.OP_SWAP;
            case COMPARE_AND_SWAP -> AtomicFrame.OP_CAS;
            case ACCUMULATE -> AtomicFrame.OP_ACCUMULATE;
        };
    }

    /** Agent: resend what is late, fail what is out of retries. @return work done. */
    int checkTimers(final long nowNs)
    {
        int work = 0;
        for (int i = ops.activeCount() - 1; i >= 0; i--)
        {
            final RemoteOp op = ops.active(i);
            if (nowNs - op.sentNs < options.pullResendTimeoutNs())
            {
                continue;
            }
            work++;
            if (op.retries >= options.pullMaxRetries() && nowNs - op.answeredNs >= MIN_ANSWER_TIMEOUT_NS)
            {
                fail(op, DriverError.TIMEOUT, "no answer from the target after " + (op.retries + 1) + " sends in " +
                    TimeUnit.NANOSECONDS.toMillis(nowNs - op.answeredNs) + " ms" + (op.heldAnswers == 0 ? "" :
                    " (before that it held region " + op.remoteRegion + " back: " + op.heldAnswers + " NACK HELD)"));
                continue;
            }
            op.retries++;
            counters.increment(Counter.REMOTE_WRITES_RESENT);
            if (op.kind == RemoteOp.Kind.PUT)
            {
                sendFrames(op, op.windowFirst, nowNs);
            }
            else
            {
                sendAtomic(op, nowNs);
            }
        }
        return work;
    }

    /** Agent: a PUT_ACK (checked and addressed to us). */
    void onPutAck(final MemorySegment buffer, final long frameOffset, final InetAddress host, final int basePort)
    {
        putAck.wrap(buffer, frameOffset);
        final RemoteOp op = ops.activePut(putAck.putHandle());
        if (op == null || !op.peer.is(host, basePort) || putAck.srcSession() != op.remoteSession)
        {
            return;
        }
        if (!op.ack(putAck.frameIndex()))
        {
            return;
        }
        op.retries = 0;
        op.heldAnswers = 0;
        op.answeredNs = System.nanoTime();
        if (op.windowFirst == op.frameCount)
        {
            complete(op, op.totalBytes, 0);
            return;
        }
        final int from = op.nextFrameIndex;
        op.fillWindow(putPayloadBytes);
        if (op.nextFrameIndex != from)
        {
            sendFrames(op, from, op.answeredNs);
        }
    }

    /** Agent: an ATOMIC_REPLY (checked and addressed to us). */
    void onAtomicReply(final MemorySegment buffer, final long frameOffset, final InetAddress host, final int basePort)
    {
        atomicReply.wrap(buffer, frameOffset);
        final RemoteOp op = ops.activeAtomic(atomicReply.requestSeq());
        if (op == null || !op.peer.is(host, basePort) || atomicReply.srcSession() != op.remoteSession)
        {
            return;
        }
        complete(op, 0, atomicReply.old());
    }

    /**
     * Agent: a NACK refusing one of our PUT or ATOMIC frames (from the op's peer; one from elsewhere is dropped). A NACK
     * HELD from the op's target (the wire protocol's answer of a target that holds the region back for an access epoch:
     * pinmx.ko's targets send it; this driver's targets hold nothing back) ends nothing: the op resends after the
     * resend timeout from now, its retry count and answer clock start again, so it waits for the hold's end however
     * long, and times out only if the target falls silent.
     */
    void onNack(final MemorySegment buffer, final long frameOffset, final InetAddress host, final int basePort)
    {
        nack.wrap(buffer, frameOffset);
        final RemoteOp op = nack.refusedKind() == FrameKind.PUT ? ops.activePut(nack.refusedHandle()) :
            ops.activeAtomic(nack.refusedHandle());
        if (op == null || !op.peer.is(host, basePort))
        {
            return;
        }
        final long offset = nack.address();
        switch (nack.reason())
        {
            case HELD -> held(op);
            case BAD_KEY -> failRefused(op, RegionTable.BAD_KEY, offset);
            case UNKNOWN_REGION -> failRefused(op, RegionTable.UNKNOWN_REGION, offset);
            case OUT_OF_RANGE -> failRefused(op, RegionTable.OUT_OF_RANGE, offset);
            case BAD_FIELD -> fail(op, DriverError.BAD_ARGUMENT, "the word at region offset " + offset +
                " is not naturally aligned in the target's memory");
            case SEGMENT_FAULT -> fail(op, DriverError.SEGMENT_FAULT, "the target's memory at region offset " + offset +
                " (segment " + nack.segmentIndex() + ") cannot be written: " + Errno.describe(nack.errno()));
            case BAD_ENDPOINT, BAD_SESSION -> fail(op, DriverError.PEER_UNREACHABLE, "the target refused it: " +
                nack.reason() + " (the endpoint is closed or another one holds its index)");
        }
    }

    private void held(final RemoteOp op)
    {
        if (nack.srcSession() != op.remoteSession)
        {
            return;
        }
        final long nowNs = System.nanoTime();
        op.retries = 0;
        op.heldAnswers++;
        op.answeredNs = nowNs;
        op.sentNs = nowNs;
    }

    private void failRefused(final RemoteOp op, final int code, final long regionOffset)
    {
        switch (code)
        {
            case RegionTable.UNKNOWN_REGION -> fail(op, DriverError.UNKNOWN_REGION, "the target has no region " +
                op.remoteRegion);
            case RegionTable.BAD_KEY, RegionTable.ACCESS_DENIED -> fail(op, DriverError.BAD_KEY, "the target refused " +
                "the key: region " + op.remoteRegion + " is not exposed for remote writes with it; nothing was written");
            default -> fail(op, DriverError.OUT_OF_RANGE, "region offset " + regionOffset + " reaches past the end of " +
                "the target's region " + op.remoteRegion + "; nothing was written there");
        }
    }

    /** Close: every put and atomic not ended is abandoned; no end event can be polled any more. */
    void abandonAll()
    {
        RemoteOp op;
        while ((op = ops.takeSubmitted()) != null)
        {
            peers.releaseHold(op.peer);
            ops.free(op);
        }
        for (int i = ops.activeCount() - 1; i >= 0; i--)
        {
            op = ops.active(i);
            peers.releaseHold(op.peer);
            ops.free(op);
        }
    }

    /** The op's hold on its peer passes to its end event; poll releases it after delivery. */
    private void complete(final RemoteOp op, final long bytes, final long oldValue)
    {
        final boolean isPut = op.kind == RemoteOp.Kind.PUT;
        counters.increment(isPut ? Counter.PUTS_DONE : Counter.ATOMICS_DONE);
        if (!events.offerCompletion(isPut ? EventType.PUT_DONE : EventType.ATOMIC_DONE, op.peer.index(), op.handle,
            isPut ? bytes : oldValue, null, null))
        {
            peers.releaseHold(op.peer);
        }
        ops.free(op);
    }

    private void fail(final RemoteOp op, final DriverError error, final String cause)
    {
        final boolean isPut = op.kind == RemoteOp.Kind.PUT;
        counters.increment(isPut ? Counter.PUTS_FAILED : Counter.ATOMICS_FAILED);
        if (!events.offerCompletion(isPut ? EventType.PUT_FAILED : EventType.ATOMIC_FAILED, op.peer.index(), op.handle,
            isPut ? op.bytesAcked : 0, error, op + ": " + cause))
        {
            peers.releaseHold(op.peer);
        }
        ops.free(op);
    }
}
