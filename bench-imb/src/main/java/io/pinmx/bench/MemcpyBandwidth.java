package io.pinmx.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The physical limit for a transport that copies each byte once: single-thread
 * {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)} bandwidth between two native
 * buffers of the same kind as the benchmark's ({@link HugePageMemory}), measured in the same run as the benchmark
 * it is compared with.
 */
public final class MemcpyBandwidth
{
    public static final int DEFAULT_BYTES = 4 * 1024 * 1024;
    /** The sizes a run compares with memcpy: where a copy is in cache (64 KiB) and where it is not (4 MiB). */
    public static final int[] COMPARED_BYTES = {64 * 1024, DEFAULT_BYTES};
    private static final int WARMUP_COPIES = 16;
    private static final int COPIES_PER_CHECK = 16;
    private static final long MIN_DURATION_NS = 200_000_000L;

    private MemcpyBandwidth()
    {
    }

    /**
     * @return Mbytes/sec (10^6 bytes) of copying {@code bytes} at a time, timed over at least 200 ms.
     */
    public static double measure(final int bytes)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment from = HugePageMemory.allocate(arena, bytes);
            final MemorySegment to = HugePageMemory.allocate(arena, bytes);
            from.fill((byte)0x5a);
            to.fill((byte)0);
            for (int i = 0; i < WARMUP_COPIES; i++)
            {
                MemorySegment.copy(from, 0, to, 0, bytes);
            }
            long copies = 0;
            final long startNs = System.nanoTime();
            long elapsedNs;
            do
            {
                for (int i = 0; i < COPIES_PER_CHECK; i++)
                {
                    MemorySegment.copy(from, 0, to, 0, bytes);
                }
                copies += COPIES_PER_CHECK;
                elapsedNs = System.nanoTime() - startNs;
            }
            while (elapsedNs < MIN_DURATION_NS);
            return (double)bytes * copies / (elapsedNs / 1000.0);
        }
    }
}
