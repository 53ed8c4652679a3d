package io.pinmx.rma.faults;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Message sizes of every size class and byte patterns a receiver recomputes from a seed, so each message and each
 * block read back is checked byte for byte without keeping a copy.
 */
final class Payloads
{
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private Payloads()
    {
    }

    /**
     * @return message {@code i}'s size: tiny (up to 32 B), small (up to 128 B), medium (up to the 32 KiB rendezvous
     *         threshold, its edges included) and rendezvous (above it), in a fixed rotation.
     */
    static int messageSize(final int i)
    {
        return switch (i % 10)
        {
            case 0 -> 0;
            case 1 -> 1 + i % 32;
            case 2 -> 33 + i % 96;
            case 3 -> 129 + (i * 37) % 2000;
            case 4 -> 8192 + (i * 101) % 24000;
            case 5 -> 32 * 1024;
            case 6 -> 32 * 1024 + 1 + (i * 13) % 100_000;
            case 7 -> 1 + i % 7;
            case 8 -> 128;
            default -> 32 * 1024 - 1;
        };
    }

    /** Fills {@code s} with the pattern of {@code seed}. */
    static void fill(final MemorySegment s, final long seed)
    {
        final long size = s.byteSize();
        final long words = size / 8;
        for (long w = 0; w < words; w++)
        {
            s.set(WORD, w * 8, word(seed, w));
        }
        final long tail = word(seed, words);
        for (long b = words * 8; b < size; b++)
        {
            s.set(ValueLayout.JAVA_BYTE, b, (byte)(tail >>> (8 * (b - words * 8))));
        }
    }

    /** @return the offset of the first byte of {@code s} that differs from the pattern of {@code seed}, or -1. */
    static long firstMismatch(final MemorySegment s, final long seed)
    {
        final long size = s.byteSize();
        final long words = size / 8;
        for (long w = 0; w < words; w++)
        {
            if (s.get(WORD, w * 8) != word(seed, w))
            {
                return w * 8;
            }
        }
        final long tail = word(seed, words);
        for (long b = words * 8; b < size; b++)
        {
            if (s.get(ValueLayout.JAVA_BYTE, b) != (byte)(tail >>> (8 * (b - words * 8))))
            {
                return b;
            }
        }
        return -1;
    }

    /** @return byte {@code offset} of the pattern of {@code seed}. */
    static byte byteAt(final long seed, final long offset)
    {
        return (byte)(word(seed, offset / 8) >>> (8 * (offset % 8)));
    }

    private static long word(final long seed, final long index)
    {
        long z = seed * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
        z = (z ^ (z >>> 31)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 29);
    }
}
