package io.pinmx.mx;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32;

/**
 * Deterministic message contents and checksums shared by both processes of a test.
 */
final class Patterns
{
    private Patterns()
    {
    }

    static byte byteAt(final long index, final long seed)
    {
        return (byte)(index * 31 + seed * 7 + (index >>> 9));
    }

    static void fill(final MemorySegment segment, final long seed)
    {
        final long n = segment.byteSize();
        for (long i = 0; i < n; i++)
        {
            segment.set(ValueLayout.JAVA_BYTE, i, byteAt(i, seed));
        }
    }

    /**
     * @return the index of the first byte that differs from the pattern, or -1.
     */
    static long firstMismatch(final MemorySegment segment, final long length, final long seed)
    {
        for (long i = 0; i < length; i++)
        {
            if (segment.get(ValueLayout.JAVA_BYTE, i) != byteAt(i, seed))
            {
                return i;
            }
        }
        return -1;
    }

    static long crc(final MemorySegment segment, final long length)
    {
        final CRC32 crc = new CRC32();
        crc.update(segment.asSlice(0, length).asByteBuffer());
        return crc.getValue();
    }

    /**
     * Size of message {@code i} of a mixed stream: every protocol class, edges included.
     */
    static int mixedSize(final int i)
    {
        return switch (i % 10)
        {
            case 0 -> 0;
            case 1 -> 1 + (i % 32);
            case 2 -> 33 + (i % 96);
            case 3 -> 129 + (i * 37) % 2000;
            case 4 -> 8192 + (i * 101) % 24000;
            case 5 -> 32 * 1024;
            case 6 -> 32 * 1024 + 1 + (i * 13) % 40000;
            case 7 -> 7;
            case 8 -> 128;
            default -> 32 * 1024 - 1;
        };
    }
}
