package io.pinmx.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The native buffers of one benchmark run, sized for its largest message and touched once up front so
 * that page faults stay out of the timed loops: one to send from and one per direction to receive into.
 * They are {@link HugePageMemory} (transparent huge pages where the kernel offers them), as is the memcpy
 * baseline's, so every transport and the baseline see the same kind of memory.
 */
public final class MessageBuffers implements AutoCloseable
{
    /** Room for the 4-byte acks of osu_bw whatever the message sizes. */
    private static final int MIN_BYTES = 64;

    private final Arena arena = Arena.ofShared();
    public final MemorySegment send;
    public final MemorySegment recvLeft;
    public final MemorySegment recvRight;

    public MessageBuffers(final int maxBytes)
    {
        final long bytes = Math.max(MIN_BYTES, maxBytes);
        send = HugePageMemory.allocate(arena, bytes);
        recvLeft = HugePageMemory.allocate(arena, bytes);
        recvRight = HugePageMemory.allocate(arena, bytes);
        send.fill((byte)0x5a);
        recvLeft.fill((byte)0);
        recvRight.fill((byte)0);
    }

    @Override
    public void close()
    {
        arena.close();
    }
}
