package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A run of frames as iovecs, frame k starting at entry {@link #firstEntry}(k), for one gathering send
 * ({@link UdpTransport#sendSegments}) or one scattering receive ({@link UdpReceiver#receive(FrameIovecs)}): either
 * frames laid out back to back in one buffer (one entry each), PULL_REPLY frames with each header in a buffer
 * slot and each payload in the pieces of a declared region, so a received block is copied once, out of the socket's
 * buffers, or frames added one by one from their header and payload (a
 * library's run of MEDIUM_FRAG frames, sent from the message's own bytes; each header copied into a slot of its own,
 * where the transport writes its frame check). Not thread safe: one per sender or receiver.
 */
final class FrameIovecs
{
    /** Most frames of one run (a served block: {@link PullServer#STAGING_FRAMES}). */
    static final int MAX_FRAMES = PullServer.STAGING_FRAMES;
    /** A header and a payload entry per frame, plus one more for each region piece a payload starts in. */
    private static final int MAX_ENTRIES = MAX_FRAMES * 2 + RegionTable.MAX_SEGMENTS + 1;

    /** Room for any kind's header. */
    private static final int HEADER_SLOT_BYTES = 128;

    private final MemorySegment entries;
    private final MemorySegment headerSlots;
    private final int[] firstEntry = new int[MAX_FRAMES + 1];
    private int frames;
    private int entryCount;
    private boolean callerMemory;

    FrameIovecs(final Arena arena)
    {
        entries = arena.allocate(Libc.IOVEC_BYTES * MAX_ENTRIES, 8);
        headerSlots = arena.allocate((long)HEADER_SLOT_BYTES * MAX_FRAMES, 8);
    }

    /**
     * Frames laid out back to back from {@code address}, each {@code segmentBytes} long but the last: a buffer of
     * the driver's own, known to be mapped.
     */
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
        entryCount = frameCount;
        callerMemory = false;
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
        entryCount = entry;
        callerMemory = true;
        return this;
    }

    /** Empties the run, for frames {@link #add}ed one by one. */
    FrameIovecs clear()
    {
        frames = 0;
        entryCount = 0;
        firstEntry[0] = 0;
        callerMemory = false;
        return this;
    }

    /**
     * Appends a frame: a copy of its header, then its native payload unless it is empty (memory not an arena's is
     * {@link #readsCallerMemory}).
     */
    FrameIovecs add(final MemorySegment header, final MemorySegment payload)
    {
        checkFrames(frames + 1);
        final long headerBytes = header.byteSize();
        if (headerBytes > HEADER_SLOT_BYTES)
        {
            throw new IllegalArgumentException("a frame header of " + headerBytes + " bytes: at most " +
                HEADER_SLOT_BYTES);
        }
        final long slot = (long)frames * HEADER_SLOT_BYTES;
        MemorySegment.copy(header, 0, headerSlots, slot, headerBytes);
        Libc.putIovec(entries, entryCount++, headerSlots.address() + slot, headerBytes);
        if (payload.byteSize() > 0)
        {
            if (!payload.scope().isAlive())
            {
                throw new IllegalArgumentException("payload of " + payload.byteSize() + " bytes at 0x" +
                    Long.toHexString(payload.address()) + ": its arena is closed");
            }
            Libc.putIovec(entries, entryCount++, payload.address(), payload.byteSize());
            callerMemory |= !ReadablePages.arenaOwned(payload);
        }
        firstEntry[++frames] = entryCount;
        return this;
    }

    /** Appends one entry after the frames, for whatever else a receive brings (read into {@code address}). */
    FrameIovecs rest(final long address, final long bytes)
    {
        Libc.putIovec(entries, entryCount++, address, bytes);
        return this;
    }

    /** Entries in all: the frames' and any {@link #rest}. */
    int entries()
    {
        return entryCount;
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

    /**
     * Whether an entry points at memory that is neither the driver's own nor an open arena's (a region's piece, a
     * payload at an address from native code), whose pages must be asked before they are read.
     */
    boolean readsCallerMemory()
    {
        return callerMemory;
    }

    /** Where the bytes of entry {@code entry} lie. */
    long entryBase(final int entry)
    {
        return entries.get(ValueLayout.JAVA_LONG, entry * Libc.IOVEC_BYTES);
    }

    /** How many bytes entry {@code entry} holds. */
    long entryLength(final int entry)
    {
        return entries.get(ValueLayout.JAVA_LONG, entry * Libc.IOVEC_BYTES + 8);
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
