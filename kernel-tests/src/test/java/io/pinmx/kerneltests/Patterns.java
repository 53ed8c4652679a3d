package io.pinmx.kerneltests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Payloads whose every byte depends on its offset and a seed, so a byte delivered at the wrong offset, from the
 * wrong message or not at all shows.
 */
final class Patterns
{
    private Patterns()
    {
    }

    /** A native segment of {@code length} bytes (at least one allocated, so even an empty one has an address). */
    static MemorySegment pattern(final Arena arena, final long length, final int seed)
    {
        final MemorySegment s = arena.allocate(Math.max(1, length)).asSlice(0, length);
        for (long i = 0; i < length; i++)
        {
            s.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 31 + seed));
        }
        return s;
    }

    static void assertPattern(final MemorySegment s, final long length, final int seed)
    {
        for (long i = 0; i < length; i++)
        {
            if (s.get(ValueLayout.JAVA_BYTE, i) != (byte)(i * 31 + seed))
            {
                throw new AssertionError("byte " + i + " of " + length + " differs");
            }
        }
    }
}
