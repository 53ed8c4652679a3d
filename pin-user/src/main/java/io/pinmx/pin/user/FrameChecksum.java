package io.pinmx.pin.user;

import io.pinmx.pin.wire.FrameFlyweight;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The UDP carrier's end-to-end frame check: the CRC32C of a frame's bytes with its frame check field
 * ({@link FrameFlyweight#FRAME_CHECK_OFFSET}) counted as zero, stored in that field. A UDP checksum does not cover a
 * run sent by segmentation offload until the run is cut (and between veth ends it never is), so this check is what
 * keeps a damaged frame from reaching the library. Liveness probes, which are not MXoE frames, carry the CRC32C of
 * their first bytes as a trailer instead.
 * <p>
 * Each piece of a frame that lies in one place is one pass of the CRC: the field is zeroed in the header (always the
 * driver's own copy or receive buffer), the frame summed, then the field written (or, received, put back). Frames are
 * read where they lie through direct-buffer windows over the address space, made once per GiB of addresses met, so
 * the intrinsified {@link CRC32C} runs with no allocation per frame. Only native memory that is mapped may be read:
 * the bytes a receive has just written, the driver's own buffers, and memory of a caller's that an open arena owns
 * or that {@link ReadablePages} found readable. Not thread safe: one per sending or receiving owner.
 */
final class FrameChecksum
{
    /** Bytes of the frame check field, and of a probe's trailer. */
    static final int CHECK_BYTES = 4;
    private static final int CHECK_OFFSET = FrameFlyweight.FRAME_CHECK_OFFSET;
    private static final int CHECKED_FROM = CHECK_OFFSET + CHECK_BYTES;
    /**
     * A window starts on a GiB boundary and spans two less a MiB (a buffer's limit): a piece of up to
     * {@link #MAX_PIECE_BYTES} starting in its first GiB fits.
     */
    private static final int WINDOW_SHIFT = 30;
    private static final long WINDOW_MASK = (1L << WINDOW_SHIFT) - 1;
    private static final int WINDOW_BYTES = (int)((1L << 31) - (1L << 20));
    private static final long MAX_PIECE_BYTES = WINDOW_BYTES - (1L << WINDOW_SHIFT);
    private static final int WINDOWS = 8;

    private final CRC32C crc = new CRC32C();
    private final ByteBuffer[] windows = new ByteBuffer[WINDOWS];
    private final long[] windowBases = new long[WINDOWS];

    /** Writes the frame check of the contiguous frame of {@code bytes} at {@code address}. */
    void stamp(final long address, final long bytes)
    {
        final ByteBuffer frame = zeroCheck(address, bytes);
        restart(frame, address, bytes);
        frame.clear().putInt(at(address) + CHECK_OFFSET, (int)crc.getValue());
    }

    /** Writes the frame check of a frame whose header (the first {@code headerBytes}) and payload lie apart. */
    void stamp(final long headerAddress, final long headerBytes, final long payloadAddress, final long payloadBytes)
    {
        final ByteBuffer header = zeroCheck(headerAddress, headerBytes);
        restart(header, headerAddress, headerBytes);
        update(payloadAddress, payloadBytes);
        header.clear().putInt(at(headerAddress) + CHECK_OFFSET, (int)crc.getValue());
    }

    /** Writes the frame check of frame {@code k} of {@code frames}, whose first iovec holds its whole header. */
    void stamp(final FrameIovecs frames, final int k)
    {
        final long header = frames.entryBase(frames.firstEntry(k));
        final ByteBuffer window = zeroCheck(header, frames.entryLength(frames.firstEntry(k)));
        final int computed = of(window, frames, k);
        window.clear().putInt(at(header) + CHECK_OFFSET, computed);
    }

    /** @return whether the contiguous frame of {@code bytes} at {@code address} carries its own frame check. */
    boolean matches(final long address, final long bytes)
    {
        if (bytes < CHECKED_FROM)
        {
            return false;
        }
        final ByteBuffer frame = window(address, bytes);
        final int check = at(address) + CHECK_OFFSET;
        final int carried = frame.clear().getInt(check);
        frame.putInt(check, 0);
        restart(frame, address, bytes);
        frame.clear().putInt(check, carried);
        return (int)crc.getValue() == carried;
    }

    /** @return whether frame {@code k} of {@code frames} (read by a scattering receive) carries its frame check. */
    boolean matches(final FrameIovecs frames, final int k)
    {
        final long header = frames.entryBase(frames.firstEntry(k));
        final long headerBytes = frames.entryLength(frames.firstEntry(k));
        if (headerBytes < CHECKED_FROM)
        {
            return false;
        }
        final ByteBuffer window = window(header, headerBytes);
        final int check = at(header) + CHECK_OFFSET;
        final int carried = window.clear().getInt(check);
        window.putInt(check, 0);
        final int computed = of(window, frames, k);
        window.clear().putInt(check, carried);
        return computed == carried;
    }

    /** Writes the CRC32C of the {@code bytes} at {@code address} right after them. */
    void stampTrailer(final long address, final long bytes)
    {
        crc.reset();
        update(address, bytes);
        putInt(address + bytes, (int)crc.getValue());
    }

    /** @return whether the {@code bytes} at {@code address} end with the CRC32C of the bytes before the trailer. */
    boolean trailerMatches(final long address, final long bytes)
    {
        if (bytes < CHECK_BYTES)
        {
            return false;
        }
        crc.reset();
        update(address, bytes - CHECK_BYTES);
        return (int)crc.getValue() == getInt(address + bytes - CHECK_BYTES);
    }

    /** The window over the header at {@code address}, its frame check field zeroed. */
    private ByteBuffer zeroCheck(final long address, final long headerBytes)
    {
        final ByteBuffer window = window(address, headerBytes);
        window.clear().putInt(at(address) + CHECK_OFFSET, 0);
        return window;
    }

    /** The CRC32C of frame {@code k}, its header (field zeroed) in {@code headerWindow}. */
    private int of(final ByteBuffer headerWindow, final FrameIovecs frames, final int k)
    {
        final int first = frames.firstEntry(k);
        final int end = frames.firstEntry(k + 1);
        restart(headerWindow, frames.entryBase(first), frames.entryLength(first));
        for (int entry = first + 1; entry < end; entry++)
        {
            update(frames.entryBase(entry), frames.entryLength(entry));
        }
        return (int)crc.getValue();
    }

    /** Starts the CRC afresh with the {@code bytes} at {@code address}, which {@code window} holds. */
    private void restart(final ByteBuffer window, final long address, final long bytes)
    {
        crc.reset();
        final int at = at(address);
        window.clear().position(at).limit(at + (int)bytes);
        crc.update(window);
    }

    private void update(final long address, final long bytes)
    {
        if (bytes <= 0)
        {
            return;
        }
        final ByteBuffer window = window(address, bytes);
        final int at = at(address);
        window.clear().position(at).limit(at + (int)bytes);
        crc.update(window);
    }

    private static int at(final long address)
    {
        return (int)(address & WINDOW_MASK);
    }

    private void putInt(final long address, final int value)
    {
        final ByteBuffer window = window(address, CHECK_BYTES);
        window.limit(window.capacity()).putInt((int)(address & WINDOW_MASK), value);
    }

    private int getInt(final long address)
    {
        final ByteBuffer window = window(address, CHECK_BYTES);
        return window.limit(window.capacity()).getInt((int)(address & WINDOW_MASK));
    }

    /** The window holding the {@code bytes} at {@code address}, where they start at {@code address & WINDOW_MASK}. */
    private ByteBuffer window(final long address, final long bytes)
    {
        if (bytes > MAX_PIECE_BYTES)
        {
            throw new IllegalArgumentException("a frame piece of " + bytes + " bytes at 0x" +
                Long.toHexString(address) + ": at most " + MAX_PIECE_BYTES + " are checked at once");
        }
        final long gib = address >>> WINDOW_SHIFT;
        final int slot = (int)((gib ^ gib >>> 3 ^ gib >>> 6) & (WINDOWS - 1));
        final long base = gib << WINDOW_SHIFT;
        if (windows[slot] == null || windowBases[slot] != base)
        {
            windows[slot] = MemorySegment.ofAddress(base).reinterpret(WINDOW_BYTES).asByteBuffer();
            windowBases[slot] = base;
        }
        return windows[slot];
    }
}
