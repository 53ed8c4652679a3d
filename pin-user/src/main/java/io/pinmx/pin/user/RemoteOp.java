package io.pinmx.pin.user;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.spi.RemoteTarget;
import io.pinmx.pin.wire.AtomicFrame;

import java.lang.foreign.ValueLayout;

/**
 * One put or atomic of this endpoint into a peer's exposed region, from {@code startPut}/{@code startAtomic} to its
 * end event: what the spec said (copied, so the caller may refill it at once) and, for a put over UDP, its sliding
 * window: the frames from the oldest one not acknowledged ({@link #windowFirst}) up to the next one to send
 * ({@link #nextFrameIndex}), {@link #WINDOW_FRAMES} at most, each in the slot of its frame index modulo the window. A
 * slot of {@link RemoteOps}; filled by the application thread that submits it, then owned by the agent.
 */
final class RemoteOp
{
    /** PUT frames sent without an ack at most: the bits of {@link #ackedMask}. */
    static final int WINDOW_FRAMES = 64;
    private static final int WINDOW_MASK = WINDOW_FRAMES - 1;

    /** What the slot carries. */
    enum Kind
    {
        PUT,
        ATOMIC
    }

    final int slotIndex;
    RemoteOpState state = RemoteOpState.FREE;
    int generation;
    Kind kind;
    UdpPeer peer;
    int remoteEndpoint;
    int remoteSession;
    int remoteRegion;
    long key;
    int handle;
    /** PUT: the put's handle on the wire (slot and generation); ATOMIC: its request seq. */
    int wireId;
    long sentNs;
    /** When the target last answered (a put's ack), or the op started. */
    long answeredNs;
    int retries;
    /** NACK HELDs since the target last let one of this op's frames in (its region is held back meanwhile). */
    int heldAnswers;

    int localRegion;
    long[] remoteOffsets = new long[1];
    long[] localOffsets = new long[1];
    long[] lengths = new long[1];
    int pieces;
    long totalBytes;
    int putNumber;
    int frameCount;
    int nextFrameIndex;
    int cursorPiece;
    long cursorInPiece;
    long cursorPutOffset;
    long bytesAcked;
    /** The oldest frame not acknowledged (frameCount once all are). */
    int windowFirst;
    /** Bit {@code f % WINDOW_FRAMES}: frame {@code f} of the window is acknowledged. */
    long ackedMask;
    final long[] frameRemote = new long[WINDOW_FRAMES];
    final long[] frameLocal = new long[WINDOW_FRAMES];
    final long[] framePutOffset = new long[WINDOW_FRAMES];
    final int[] frameBytes = new int[WINDOW_FRAMES];

    AtomicOp op;
    int widthBytes;
    long remoteOffset;
    int words;
    /** The operands as they go on the wire: FETCH_ADD/SWAP one, CAS expected then new, ACCUMULATE one per word. */
    final long[] operands = new long[AtomicFrame.MAX_ACCUMULATE_WORDS];
    int operandCount;

    RemoteOp(final int slotIndex)
    {
        this.slotIndex = slotIndex;
    }

    void target(final RemoteTarget target, final UdpPeer peer)
    {
        this.peer = peer;
        this.remoteEndpoint = target.endpointIndex();
        this.remoteSession = target.sessionId();
        this.remoteRegion = target.regionId();
        this.key = target.key();
        this.sentNs = 0;
        this.retries = 0;
        this.heldAnswers = 0;
    }

    /** Application thread: copy a put, one piece for a contiguous one. */
    void put(final PutSpec spec, final UdpPeer peer, final int framePayloadBytes)
    {
        kind = Kind.PUT;
        target(spec.target(), peer);
        handle = spec.handle();
        localRegion = spec.localRegionId();
        pieces = spec.isVector() ? spec.pieceCount() : 1;
        if (remoteOffsets.length < pieces)
        {
            remoteOffsets = new long[pieces];
            localOffsets = new long[pieces];
            lengths = new long[pieces];
        }
        if (spec.isVector())
        {
            System.arraycopy(spec.remoteOffsets(), 0, remoteOffsets, 0, pieces);
            System.arraycopy(spec.localOffsets(), 0, localOffsets, 0, pieces);
            System.arraycopy(spec.lengths(), 0, lengths, 0, pieces);
        }
        else
        {
            remoteOffsets[0] = spec.remoteOffset();
            localOffsets[0] = spec.localOffset();
            lengths[0] = spec.length();
        }
        long total = 0;
        long frames = 0;
        for (int i = 0; i < pieces; i++)
        {
            total += lengths[i];
            frames += (lengths[i] + framePayloadBytes - 1) / framePayloadBytes;
        }
        totalBytes = total;
        frameCount = (int)frames;
        nextFrameIndex = 0;
        cursorPiece = 0;
        cursorInPiece = 0;
        cursorPutOffset = 0;
        bytesAcked = 0;
        windowFirst = 0;
        ackedMask = 0;
    }

    /** Application thread: copy an atomic, its operands as the wire carries them. */
    void atomic(final AtomicSpec spec, final UdpPeer peer)
    {
        kind = Kind.ATOMIC;
        target(spec.target(), peer);
        handle = spec.handle();
        op = spec.op();
        widthBytes = spec.widthBytes();
        remoteOffset = spec.remoteOffset();
        final long mask = widthBytes == AtomicSpec.INT32_BYTES ? 0xFFFF_FFFFL : -1L;
        switch (op)
        {
            case FETCH_ADD, SWAP ->
            {
                words = 1;
                operandCount = 1;
                operands[0] = spec.operand() & mask;
            }
            case COMPARE_AND_SWAP ->
            {
                words = 1;
                operandCount = 2;
                operands[0] = spec.compare() & mask;
                operands[1] = spec.operand() & mask;
            }
            case ACCUMULATE ->
            {
                words = (int)(spec.values().byteSize() / widthBytes);
                operandCount = words;
                for (int i = 0; i < words; i++)
                {
                    operands[i] = widthBytes == AtomicSpec.INT32_BYTES ?
                        spec.values().getAtIndex(ValueLayout.JAVA_INT, i) & mask :
                        spec.values().getAtIndex(ValueLayout.JAVA_LONG, i);
                }
            }
        }
    }

    /** Agent: lay out the frames that fit the window after {@link #nextFrameIndex}, each within one piece. */
    void fillWindow(final int framePayloadBytes)
    {
        while (nextFrameIndex - windowFirst < WINDOW_FRAMES && cursorPiece < pieces)
        {
            final int slot = nextFrameIndex & WINDOW_MASK;
            final int bytes = (int)Math.min(framePayloadBytes, lengths[cursorPiece] - cursorInPiece);
            frameRemote[slot] = remoteOffsets[cursorPiece] + cursorInPiece;
            frameLocal[slot] = localOffsets[cursorPiece] + cursorInPiece;
            framePutOffset[slot] = cursorPutOffset;
            frameBytes[slot] = bytes;
            nextFrameIndex++;
            cursorInPiece += bytes;
            cursorPutOffset += bytes;
            if (cursorInPiece == lengths[cursorPiece])
            {
                cursorPiece++;
                cursorInPiece = 0;
            }
        }
    }

    /** @return whether frame {@code frameIndex}, sent, is acknowledged. */
    boolean acked(final int frameIndex)
    {
        return (ackedMask & 1L << (frameIndex & WINDOW_MASK)) != 0;
    }

    /**
     * Agent: a PUT_ACK of frame {@code frameIndex}; the window slides past the oldest frames acknowledged.
     *
     * @return false if it is not a frame of the window or was acknowledged already.
     */
    boolean ack(final int frameIndex)
    {
        if (frameIndex - windowFirst < 0 || frameIndex - nextFrameIndex >= 0 || acked(frameIndex))
        {
            return false;
        }
        ackedMask |= 1L << (frameIndex & WINDOW_MASK);
        bytesAcked += frameBytes[frameIndex & WINDOW_MASK];
        while (windowFirst != nextFrameIndex && acked(windowFirst))
        {
            ackedMask &= ~(1L << (windowFirst & WINDOW_MASK));
            windowFirst++;
        }
        return true;
    }

    /** The slot of frame {@code frameIndex} in the per-frame arrays. */
    static int slot(final int frameIndex)
    {
        return frameIndex & WINDOW_MASK;
    }

    @Override
    public String toString()
    {
        return (kind == Kind.PUT ? "put of " + totalBytes + " bytes" + (pieces > 1 ? " in " + pieces + " pieces" : "") :
            op + " of " + (words > 1 ? words + " " + widthBytes + "-byte words" : "a " + widthBytes + "-byte word")) +
            " into region " + remoteRegion + " of endpoint " + remoteEndpoint + " at " + peer.board() +
            " (handle " + handle + ")";
    }
}
