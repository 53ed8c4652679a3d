package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The PULL_REPLY payloads of one received datagram run (up to 64 frames, UDP_GRO) waiting to be written into
 * their pulls' local regions by ONE process_vm_writev on this process, instead of one system call per frame: the
 * local side lists the payloads in the receive buffer, the remote side their destinations, and each entry remembers
 * its pull and block so the {@link Puller} can finish blocks once the bytes are in place. Agent only.
 */
final class ReplyCopyBatch
{
    /** Most frames of one run ({@link UdpTransport#MAX_SEGMENTS}). */
    static final int MAX_FRAMES = UdpTransport.MAX_SEGMENTS;
    /** Destination iovecs of one batch: below the kernel's IOV_MAX of 1024. */
    static final int MAX_DESTINATIONS = 1000;

    private final MemorySegment captureState;
    private final MemorySegment local;
    private final MemorySegment remote;
    private final PullSlot[] slots = new PullSlot[MAX_FRAMES];
    private final int[] wireHandles = new int[MAX_FRAMES];
    private final PullBlock[] blocks = new PullBlock[MAX_FRAMES];
    private final long[] pullOffsets = new long[MAX_FRAMES];
    private long totalBytes;
    private int frames;
    private int destinations;

    ReplyCopyBatch(final Arena arena)
    {
        captureState = Libc.allocateCaptureState(arena);
        local = arena.allocate(Libc.IOVEC_BYTES * MAX_FRAMES, 8);
        remote = arena.allocate(Libc.IOVEC_BYTES * MAX_DESTINATIONS, 8);
    }

    /** @return whether a frame whose destination takes {@code destinationCount} iovecs still fits. */
    boolean hasRoom(final int destinationCount)
    {
        return frames < MAX_FRAMES && destinations + destinationCount <= MAX_DESTINATIONS;
    }

    /**
     * Adds a payload of {@code bytes} at {@code address} for {@code slot}'s {@code block} at {@code pullOffset},
     * its destination being the first {@code destinationCount} iovecs of {@code resolved}.
     */
    void add(
        final PullSlot slot, final PullBlock block, final long pullOffset, final long address, final int bytes,
        final MemorySegment resolved, final int destinationCount)
    {
        Libc.putIovec(local, frames, address, bytes);
        MemorySegment.copy(resolved, 0, remote, destinations * Libc.IOVEC_BYTES, destinationCount * Libc.IOVEC_BYTES);
        slots[frames] = slot;
        wireHandles[frames] = slot.wireHandle();
        blocks[frames] = block;
        pullOffsets[frames] = pullOffset;
        frames++;
        destinations += destinationCount;
        totalBytes += bytes;
    }

    /** Adds a payload the receive placed in its destination already ({@link ReplyPlacement}): nothing to write. */
    void addPlaced(final PullSlot slot, final PullBlock block, final long pullOffset)
    {
        Libc.putIovec(local, frames, 0, 0);
        slots[frames] = slot;
        wireHandles[frames] = slot.wireHandle();
        blocks[frames] = block;
        pullOffsets[frames] = pullOffset;
        frames++;
    }

    int frames()
    {
        return frames;
    }

    PullSlot slot(final int i)
    {
        return slots[i];
    }

    /** The pull's wire handle when the frame was added: a slot freed and reused since has another. */
    int wireHandle(final int i)
    {
        return wireHandles[i];
    }

    PullBlock block(final int i)
    {
        return blocks[i];
    }

    long pullOffset(final int i)
    {
        return pullOffsets[i];
    }

    long address(final int i)
    {
        return local.get(ValueLayout.JAVA_LONG, i * Libc.IOVEC_BYTES);
    }

    int bytes(final int i)
    {
        return (int)local.get(ValueLayout.JAVA_LONG, i * Libc.IOVEC_BYTES + 8);
    }

    /** @return true if every payload reached its destination in one call (else some or none did). */
    boolean write()
    {
        return 0 == totalBytes || Libc.writev(captureState, Libc.pid(), local, frames, remote, destinations) == totalBytes;
    }

    void clear()
    {
        for (int i = 0; i < frames; i++)
        {
            slots[i] = null;
            blocks[i] = null;
        }
        frames = 0;
        destinations = 0;
        totalBytes = 0;
    }
}
