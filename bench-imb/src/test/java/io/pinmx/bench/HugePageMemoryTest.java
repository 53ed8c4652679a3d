package io.pinmx.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class HugePageMemoryTest
{
    private static final Path THP_MODE = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    private static final Path SMAPS = Path.of("/proc/self/smaps");
    private static final long BYTES = 3_000_000;

    @Test
    void buffersAreZeroedHugePageAlignedOfTheAskedLengthAndGoneWithTheirArena()
    {
        final MemorySegment kept;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment buffer = HugePageMemory.allocate(arena, BYTES);
            assertEquals(BYTES, buffer.byteSize());
            assertEquals(0, buffer.address() % HugePageMemory.HUGE_PAGE_BYTES, "2 MiB aligned");
            assertEquals(0, buffer.get(ValueLayout.JAVA_LONG, BYTES - 8));
            buffer.fill((byte)7);
            assertEquals(7, buffer.get(ValueLayout.JAVA_BYTE, BYTES - 1));
            kept = buffer;
        }
        assertFalse(kept.scope().isAlive(), "unmapped with its arena");
        assertThrows(IllegalArgumentException.class, () -> HugePageMemory.allocate(Arena.global(), 0));
    }

    @Test
    void theKernelsHugePageModeIsNamed()
    {
        final List<String> modes = List.of("always", "madvise", "never");
        final String mode = HugePageMemory.transparentHugePageMode();
        assertTrue(Files.exists(THP_MODE) ? modes.contains(mode) : "unknown".equals(mode), THP_MODE + ": " + mode);
    }

    /**
     * Where the kernel offers transparent huge pages to advised memory, the buffers really are on them: the
     * mapping holding a touched buffer counts its whole 2 MiB-rounded length as AnonHugePages.
     */
    @Test
    void whereTheKernelOffersHugePagesTouchedBuffersAreOnThem() throws IOException
    {
        final String mode = HugePageMemory.transparentHugePageMode();
        if (!"always".equals(mode) && !"madvise".equals(mode))
        {
            assertTrue(List.of("never", "unknown").contains(mode), mode);
            return;
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment buffer = HugePageMemory.allocate(arena, BYTES);
            buffer.fill((byte)1);
            final long roundedBytes = (BYTES + HugePageMemory.HUGE_PAGE_BYTES - 1) / HugePageMemory.HUGE_PAGE_BYTES *
                HugePageMemory.HUGE_PAGE_BYTES;
            final long hugeBytes = anonHugePageBytesOfMappingAt(buffer.address());
            assertTrue(hugeBytes >= roundedBytes, "THP mode " + mode + ": the mapping at 0x" +
                Long.toHexString(buffer.address()) + " has " + hugeBytes + " B of AnonHugePages, expected at least " +
                roundedBytes);
        }
    }

    /** AnonHugePages of the /proc/self/smaps entry whose range holds {@code address}, in bytes. */
    private static long anonHugePageBytesOfMappingAt(final long address) throws IOException
    {
        boolean inMapping = false;
        for (final String line : Files.readAllLines(SMAPS))
        {
            final int dash = line.indexOf('-');
            final int space = line.indexOf(' ');
            if (dash > 0 && space > dash && isHex(line, 0, dash))
            {
                final long start = HexFormat.fromHexDigitsToLong(line, 0, dash);
                final long end = HexFormat.fromHexDigitsToLong(line, dash + 1, space);
                inMapping = Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
            }
            else if (inMapping && line.startsWith("AnonHugePages:"))
            {
                return Long.parseLong(line.substring("AnonHugePages:".length()).replace("kB", "").trim()) * 1024;
            }
        }
        fail("no AnonHugePages line for a mapping holding 0x" + Long.toHexString(address) + " in " + SMAPS);
        return 0;
    }

    private static boolean isHex(final String s, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            if (Character.digit(s.charAt(i), 16) < 0)
            {
                return false;
            }
        }
        return true;
    }
}
