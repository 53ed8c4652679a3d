package io.pinmx.pin.user;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32;

/** Position-dependent test data and checksums, so a byte landing at the wrong offset is caught. */
final class Patterns
{
    private Patterns()
    {
    }

    static void fill(final MemorySegment segment, final long seed)
    {
        final long longs = segment.byteSize() / 8;
        for (long i = 0; i < longs; i++)
        {
            segment.set(ValueLayout.JAVA_LONG_UNALIGNED, i * 8, mix(seed + i));
        }
        for (long i = longs * 8; i < segment.byteSize(); i++)
        {
            segment.set(ValueLayout.JAVA_BYTE, i, (byte)mix(seed - i));
        }
    }

    static long crc(final MemorySegment segment)
    {
        final CRC32 crc = new CRC32();
        crc.update(segment.asByteBuffer());
        return crc.getValue();
    }

    private static long mix(final long x)
    {
        long z = x * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
    }
}
