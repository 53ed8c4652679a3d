package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.wire.AtomicFrame;
import io.pinmx.pin.wire.AtomicReplyFrame;
import io.pinmx.pin.wire.FrameFlyweight;
import io.pinmx.pin.wire.FrameKind;
import io.pinmx.pin.wire.NackReason;
import io.pinmx.pin.wire.PutAckFrame;
import io.pinmx.pin.wire.PutFrame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * The target side of one-sided writes: peers' PUT and ATOMIC frames into this endpoint's exposed regions, served on
 * the agent without the application. Each is checked as pinmx.ko checks it, in its order: region declared, exposed
 * and named with its key (else NACK UNKNOWN_REGION / BAD_KEY), within the region (NACK OUT_OF_RANGE naming the
 * region offset), every word naturally aligned in memory (NACK BAD_FIELD); a refused frame touches nothing and is
 * counted. A PUT's payload is written with process_vm_writev (an unmapped page is NACK SEGMENT_FAULT, not a crash)
 * and acknowledged; a PUT of a put that had ended is dropped ({@link OriginRecords}). An ATOMIC is applied by
 * {@link WordAtomics} once per request seq: a request seen again is answered from the record. An ATOMIC that came
 * through this endpoint's ring is answered through the origin's ring (by UDP when that is full or not mapped: the
 * origin takes the answer from either).
 * <p>
 * While a frame is served into a region, {@link #servingRegion} names it: {@code destroyRegion} waits until the agent
 * is out of a region it took out of the table ({@link #awaitNotServing}), so the application may free the memory as
 * soon as destroyRegion returns.
 */
final class RemoteWriteServer
{
    /** destroyRegion spins this often for the agent to leave its region, then yields. */
    private static final int SERVING_SPINS = 1000;

    private final AgentFrameSender sender;
    private final PullServer refusals;
    private final RegionTable regions;
    /** Null without the same-host path. */
    private final PeerFileCache peerFiles;
    private final DriverCounters counters;
    private final VmCopier copier;
    private final WordAtomics words;
    private final OriginRecords origins = new OriginRecords();
    private final int endpointIndex;
    private final int sessionId;
    private final MemorySegment frame;
    private final MemorySegment ackHeader;
    private final MemorySegment replyHeader;
    private final MemorySegment[] wordSegments = new MemorySegment[AtomicFrame.MAX_ACCUMULATE_WORDS];
    private final PutFrame put = new PutFrame();
    private final PutAckFrame putAck = new PutAckFrame();
    private final AtomicFrame atomic = new AtomicFrame();
    private final AtomicReplyFrame reply = new AtomicReplyFrame();
    /** The region the agent serves a PUT or ATOMIC into now, else 0. Written by the agent, read by destroyRegion. */
    private volatile int servingRegion;

    RemoteWriteServer(
        final Arena arena,
        final AgentFrameSender sender,
        final PullServer refusals,
        final RegionTable regions,
        final PeerFileCache peerFiles,
        final DriverCounters counters,
        final int endpointIndex,
        final int sessionId)
    {
        this.sender = sender;
        this.refusals = refusals;
        this.regions = regions;
        this.peerFiles = peerFiles;
        this.counters = counters;
        this.copier = new VmCopier(arena);
        this.words = new WordAtomics(arena);
        this.endpointIndex = endpointIndex;
        this.sessionId = sessionId;
        this.frame = arena.allocate(FrameFlyweight.HEADER_BYTES + 64, 8);
        this.ackHeader = frame.asSlice(0, FrameKind.PUT_ACK.headerBytes());
        this.replyHeader = frame.asSlice(0, FrameKind.ATOMIC_REPLY.headerBytes());
    }

    /** @return whether peers may send PUT and ATOMIC frames here: some region is exposed for remote writes. */
    boolean expectsFrames()
    {
        return regions.hasExposed();
    }

    /**
     * Application thread, holding the region table's writer lock, after {@code regionId} left the table: returns once
     * the agent serves no frame into it (it took the region before it left; the next frame finds it gone).
     */
    void awaitNotServing(final int regionId)
    {
        for (int spins = 0; servingRegion == regionId; spins++)
        {
            if (spins < SERVING_SPINS)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
        }
    }

    /** A PUT (checked by FrameReader and addressed to us). */
    void onPut(final MemorySegment buffer, final long frameOffset, final InetSocketAddress source)
    {
        put.wrap(buffer, frameOffset);
        // named before the table is read: a destroyRegion that the read misses waits for the write
        servingRegion = put.regionId();
        try
        {
            servePut(buffer, frameOffset, source);
        }
        finally
        {
            servingRegion = 0;
        }
    }

    private void servePut(final MemorySegment buffer, final long frameOffset, final InetSocketAddress source)
    {
        final int regionId = put.regionId();
        final long regionOffset = put.regionOffset();
        final int bytes = put.payloadLength();
        if (!keyAccepted(buffer, frameOffset, source, regionId, put.key(), regionOffset))
        {
            return;
        }
        final int count = copier.resolveRemote(regions, regionId, RegionTable.ACCESS_REMOTE, regionOffset, bytes);
        if (count < 0)
        {
            refuseRange(buffer, frameOffset, source, regionId, regionOffset);
            return;
        }
        if (!origins.of(source, put.srcSession()).admitPut(put.seq(), put.ackSeq()))
        {
            counters.increment(Counter.PUT_STALE);
            return;
        }
        copier.localBuffer(buffer.address() + frameOffset + FrameKind.PUT.headerBytes(), bytes);
        if (!copier.transfer(Libc.pid(), true, bytes))
        {
            refusals.sendNack(buffer, frameOffset, source, NackReason.SEGMENT_FAULT, regionId,
                copier.remoteFaultSegment(), regionOffset, copier.errno());
            return;
        }
        counters.add(Counter.PUT_BYTES_WRITTEN, bytes);
        final int handle = put.putHandle();
        final int frameIndex = put.frameIndex();
        final int originEndpoint = put.srcEndpoint();
        final int originSession = put.srcSession();
        putAck.wrap(frame, 0).encodeHeader(FrameKind.PUT_ACK, originEndpoint, endpointIndex, originSession, sessionId,
            0, 0);
        putAck.encode(handle, frameIndex);
        sender.send(ackHeader, MemorySegment.NULL, 0, 0, source, FrameKind.PUT_ACK);
    }

    /**
     * An ATOMIC (checked by FrameReader and addressed to us).
     *
     * @param fromRing it came through this endpoint's shared-memory ring.
     */
    void onAtomic(final MemorySegment buffer, final long frameOffset, final InetSocketAddress source,
        final boolean fromRing)
    {
        atomic.wrap(buffer, frameOffset);
        servingRegion = atomic.regionId();
        try
        {
            serveAtomic(buffer, frameOffset, source, fromRing);
        }
        finally
        {
            servingRegion = 0;
            // holds no arena's segment past the request
            Arrays.fill(wordSegments, 0, Math.min(atomic.count(), wordSegments.length), null);
        }
    }

    private void serveAtomic(
        final MemorySegment buffer, final long frameOffset, final InetSocketAddress source, final boolean fromRing)
    {
        final int regionId = atomic.regionId();
        final long regionOffset = atomic.regionOffset();
        if (!keyAccepted(buffer, frameOffset, source, regionId, atomic.key(), regionOffset))
        {
            return;
        }
        final OriginRecords.Origin origin = origins.of(source, atomic.srcSession());
        final int requestSeq = atomic.requestSeq();
        if (origin.answered(requestSeq))
        {
            counters.increment(Counter.ATOMIC_DUPLICATES);
            answer(atomic.srcEndpoint(), atomic.srcSession(), requestSeq, origin.answer(requestSeq), source, fromRing);
            return;
        }
        if (origin.tooOld(requestSeq))
        {
            counters.increment(Counter.ATOMIC_DUPLICATES);
            return;
        }
        final int width = atomic.widthBytes();
        final int count = atomic.count();
        if (regions.check(regionId, RegionTable.ACCESS_REMOTE, regionOffset, (long)count * width) != 0)
        {
            refuseRange(buffer, frameOffset, source, regionId, regionOffset);
            return;
        }
        for (int i = 0; i < count; i++)
        {
            final long wordOffset = regionOffset + (long)i * width;
            final boolean oneSegment = copier.resolveRemote(
                regions, regionId, RegionTable.ACCESS_REMOTE, wordOffset, width) == 1;
            final long address = copier.remoteIovecs().get(ValueLayout.JAVA_LONG, 0);
            if (!oneSegment || address % width != 0)
            {
                counters.increment(Counter.REMOTE_BAD_RANGE);
                refusals.sendNack(buffer, frameOffset, source, NackReason.BAD_FIELD, regionId, 0, wordOffset, 0);
                return;
            }
            final int segment = copier.remoteSegment(0);
            final MemorySegment declared = regions.declaredSegment(regionId, segment);
            if (declared == null)
            {
                counters.increment(Counter.DROPPED_UNKNOWN_REGION);
                refusals.sendNack(buffer, frameOffset, source, NackReason.UNKNOWN_REGION, regionId, 0, wordOffset, 0);
                return;
            }
            wordSegments[i] = WordAtomics.word(declared, address, width);
            if (wordSegments[i] == null || !words.writable(address, width))
            {
                refusals.sendNack(buffer, frameOffset, source, NackReason.SEGMENT_FAULT, regionId, segment, wordOffset,
                    Errno.EFAULT);
                return;
            }
        }
        final long old;
        try
        {
            old = apply(atomic.op(), width, count);
        }
        catch (final IllegalStateException closed)
        {
            // the memory's arena was closed under the request: FFM refused the access; the memory is freed
            refusals.sendNack(buffer, frameOffset, source, NackReason.SEGMENT_FAULT, regionId, 0, regionOffset,
                Errno.EFAULT);
            return;
        }
        origin.record(requestSeq, old);
        counters.increment(Counter.ATOMICS_APPLIED);
        answer(atomic.srcEndpoint(), atomic.srcSession(), requestSeq, old, source, fromRing);
    }

    /** Apply the checked request to {@link #wordSegments}. @return the old value (0 for an accumulate). */
    private long apply(final int op, final int width, final int count)
    {
        if (op == AtomicFrame.OP_ACCUMULATE)
        {
            for (int i = 0; i < count; i++)
            {
                WordAtomics.apply(wordSegments[i], width, op, atomic.operand(i), 0);
            }
            return 0;
        }
        if (op == AtomicFrame.OP_CAS)
        {
            return WordAtomics.apply(wordSegments[0], width, op, atomic.operand(1), atomic.operand(0));
        }
        return WordAtomics.apply(wordSegments[0], width, op, atomic.operand(0), 0);
    }

    private void answer(
        final int originEndpoint, final int originSession, final int requestSeq, final long old,
        final InetSocketAddress to, final boolean fromRing)
    {
        reply.wrap(frame, 0).encodeHeader(FrameKind.ATOMIC_REPLY, originEndpoint, endpointIndex, originSession,
            sessionId, 0, 0);
        reply.encode(requestSeq, old);
        final EndpointFile originFile = fromRing && peerFiles != null ? peerFiles.find(to.getPort(), originSession) : null;
        if (originFile == null || originFile.sessionId() != originSession ||
            !sender.sendShm(originFile, replyHeader, MemorySegment.NULL, 0, 0, to, FrameKind.ATOMIC_REPLY))
        {
            sender.send(replyHeader, MemorySegment.NULL, 0, 0, to, FrameKind.ATOMIC_REPLY);
        }
    }

    /** @return whether the region is exposed with this key; else the frame is refused. */
    private boolean keyAccepted(
        final MemorySegment buffer, final long frameOffset, final InetSocketAddress source, final int regionId,
        final long key, final long regionOffset)
    {
        final int code = regions.checkKey(regionId, key);
        if (code == 0)
        {
            return true;
        }
        final boolean unknown = code == RegionTable.UNKNOWN_REGION;
        counters.increment(unknown ? Counter.DROPPED_UNKNOWN_REGION : Counter.REMOTE_BAD_KEY);
        refusals.sendNack(buffer, frameOffset, source, unknown ? NackReason.UNKNOWN_REGION : NackReason.BAD_KEY,
            regionId, 0, regionOffset, 0);
        return false;
    }

    private void refuseRange(
        final MemorySegment buffer, final long frameOffset, final InetSocketAddress source, final int regionId,
        final long regionOffset)
    {
        counters.increment(Counter.REMOTE_BAD_RANGE);
        refusals.sendNack(buffer, frameOffset, source, NackReason.OUT_OF_RANGE, regionId, 0, regionOffset, 0);
    }
}
