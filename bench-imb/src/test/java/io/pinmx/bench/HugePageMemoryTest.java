package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HugePageMemoryTest
{
    @Test
    void buffersAreZeroedHugePageAlignedOfTheAskedLengthAndGoneWithTheirArena()
    {
        final MemorySegment kept;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment buffer = HugePageMemory.allocate(arena, 3_000_000);
            assertEquals(3_000_000, buffer.byteSize());
            assertEquals(0, buffer.address() % HugePageMemory.HUGE_PAGE_BYTES, "2 MiB aligned");
            assertEquals(0, buffer.get(ValueLayout.JAVA_LONG, 2_999_992));
            buffer.fill((byte)7);
            assertEquals(7, buffer.get(ValueLayout.JAVA_BYTE, 2_999_999));
            kept = buffer;
        }
        assertFalse(kept.scope().isAlive(), "unmapped with its arena");
        assertThrows(IllegalArgumentException.class, () -> HugePageMemory.allocate(Arena.global(), 0));
    }

    @Test
    void theKernelsHugePageModeIsNamed()
    {
        assertTrue(List.of("always", "madvise", "never", "unknown").contains(HugePageMemory.transparentHugePageMode()));
    }
}
