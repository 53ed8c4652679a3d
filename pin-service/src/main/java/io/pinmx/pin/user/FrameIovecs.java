package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A run of frames for one gathering send ({@link UdpTransport#sendSegments}) as iovecs, frame k starting at entry
 * {@link #firstEntry}(k): either frames laid out back to back in one buffer (one entry each), or a served block's
 * PULL_REPLY frames with each header from a staging slot and each payload straight from the declared region's
 * pieces, so the block is copied once, into the socket's buffers. Not thread safe: one per sender.
 */
final class FrameIovecs
{
    /** Most frames of one run (a served block: {@link PullServer#STAGING_FRAMES}). */
    static final int MAX_FRAMES = PullServer.STAGING_FRAMES;
    /** A header and a payload entry per frame, plus one more for each region piece a payload starts in. */
    private static final int MAX_ENTRIES = MAX_FRAMES * 2 + RegionTable.MAX_SEGMENTS;

    private final MemorySegment entries;
    private final int[] firstEntry = new int[MAX_FRAMES + 1];
    private int frames;

    FrameIovecs(final Arena arena)
    {
        entries = arena.allocate(Libc.IOVEC_BYTES * MAX_ENTRIES, 8);
    }

    /** Frames laid out back to back from {@code address}, each {@code segmentBytes} long but the last. */
    FrameIovecs backToBack(final long address, final int frameCount, final int segmentBytes, final int lastBytes)
    {
        checkFrames(frameCount);
        for (int k = 0; k < frameCount; k++)
        {
            firstEntry[k] = k;
            Libc.putIovec(entries, k, address + (long)k * segmentBytes, k == frameCount - 1 ? lastBytes : segmentBytes);
        }
        firstEntry[frameCount] = frameCount;
        frames = frameCount;
        return this;
    }

    /**
     * Frame k is the {@code headerBytes} at {@code headerAddress + k * headerStride}, then bytes
     * {@code [k * payloadBytes, min((k + 1) * payloadBytes, totalBytes))} of the {@code pieceCount} pieces listed
     * as iovecs in {@code pieces} (which cover {@code totalBytes}).
     */
    FrameIovecs gathered(
        final long headerAddress, final long headerStride, final int headerBytes, final MemorySegment pieces,
        final int pieceCount, final long payloadBytes, final long totalBytes)
    {
        final int frameCount = (int)((totalBytes + payloadBytes - 1) / payloadBytes);
        checkFrames(frameCount);
        int entry = 0;
        int piece = 0;
        long intoPiece = 0;
        for (int k = 0; k < frameCount; k++)
        {
            firstEntry[k] = entry;
            Libc.putIovec(entries, entry++, headerAddress + k * headerStride, headerBytes);
            long wanted = Math.min(payloadBytes, totalBytes - k * payloadBytes);
            while (wanted > 0)
            {
                if (piece >= pieceCount || entry >= MAX_ENTRIES)
                {
                    throw new IllegalStateException("region pieces cover less than " + totalBytes + " bytes");
                }
                final long base = pieces.get(ValueLayout.JAVA_LONG, piece * Libc.IOVEC_BYTES);
                final long length = pieces.get(ValueLayout.JAVA_LONG, piece * Libc.IOVEC_BYTES + 8);
                final long take = Math.min(wanted, length - intoPiece);
                Libc.putIovec(entries, entry++, base + intoPiece, take);
                wanted -= take;
                intoPiece += take;
                if (intoPiece == length)
                {
                    piece++;
                    intoPiece = 0;
                }
            }
        }
        firstEntry[frameCount] = entry;
        frames = frameCount;
        return this;
    }

    int frames()
    {
        return frames;
    }

    /** Entry where frame {@code k} starts; {@code firstEntry(frames())} is the count of entries. */
    int firstEntry(final int k)
    {
        return firstEntry[k];
    }

    /** Address of entry {@code entry}, for a msghdr's iov pointer. */
    long entryAddress(final int entry)
    {
        return entries.address() + entry * Libc.IOVEC_BYTES;
    }

    private static void checkFrames(final int frameCount)
    {
        if (frameCount < 1 || frameCount > MAX_FRAMES)
        {
            throw new IllegalArgumentException("a run of " + frameCount + " frames: 1 to " + MAX_FRAMES + " allowed");
        }
    }
}
