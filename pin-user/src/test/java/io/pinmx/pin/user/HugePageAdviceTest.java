package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.RegionAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * HugePageAdvice on real memory (THP mode madvise): a 6 MiB mapping, written on 4 KiB pages first, has its whole
 * aligned 2 MiB ranges collapsed into huge pages (by the advice itself, and by declaring it as a region) with its
 * bytes intact; {@code off} leaves it alone; unmapped memory is refused quietly; a bad {@code PINMX_HUGE_PAGES} is
 * named.
 */
class HugePageAdviceTest
{
    private static final long BYTES = 6L << 20;
    private static final long HUGE = HugePageAdvice.HUGE_PAGE_BYTES;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment capture = Libc.allocateCaptureState(arena);
    private long mapped;

    @AfterEach
    void free()
    {
        if (mapped != 0)
        {
            assertEquals(0, Libc.munmap(capture, mapped, BYTES));
        }
        arena.close();
    }

    @Test
    void collapsesTheWholeAlignedRangesKeepingTheBytes() throws IOException
    {
        assumeHugePages();
        final MemorySegment memory = written();
        final long before = anonHugeKib(memory.address());
        final int ranges = new HugePageAdvice(HugePageAdvice.Mode.COLLAPSE).advise(new MemorySegment[] {memory}, 1);

        assertEquals(wholeRanges(memory), ranges);
        assertTrue(ranges >= 2, "6 MiB holds at least two aligned 2 MiB ranges, advised " + ranges);
        assertEquals(before + ranges * HUGE / 1024, anonHugeKib(memory.address()));
        assertWritten(memory);
        assertEquals(ranges, new HugePageAdvice(HugePageAdvice.Mode.COLLAPSE).advise(new MemorySegment[] {memory}, 1),
            "ranges on huge pages already count again");
    }

    @Test
    void declaringARegionCollapsesIt() throws IOException
    {
        assumeHugePages();
        assumeFalse("off".equals(System.getenv(HugePageAdvice.VARIABLE)), "PINMX_HUGE_PAGES=off in this environment");
        final MemorySegment memory = written();
        final long before = anonHugeKib(memory.address());
        try (OpenedEndpoints endpoints = new OpenedEndpoints())
        {
            final DriverEndpoint endpoint = endpoints.open(UserDriverOptions.defaults().withProgressThread(false));
            final int id = endpoint.declareRegion(new MemorySegment[] {memory}, 1, RegionAccess.READ);
            assertEquals(before + wholeRanges(memory) * HUGE / 1024, anonHugeKib(memory.address()));
            assertWritten(memory);
            endpoint.destroyRegion(id);
        }
    }

    @Test
    void offLeavesTheMemoryOnItsPages() throws IOException
    {
        final MemorySegment memory = written();
        final long before = anonHugeKib(memory.address());
        assertEquals(0, new HugePageAdvice(HugePageAdvice.Mode.OFF).advise(new MemorySegment[] {memory}, 1));
        assertEquals(before, anonHugeKib(memory.address()));
        assertWritten(memory);
    }

    @Test
    void unmappedMemoryIsRefusedQuietly()
    {
        final long base = Libc.mmap(capture, 0, BYTES, Libc.PROT_READ | Libc.PROT_WRITE,
            Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        assertNotEquals(Libc.MAP_FAILED, base);
        assertEquals(0, Libc.munmap(capture, base, BYTES));
        final MemorySegment unmapped = MemorySegment.ofAddress(base).reinterpret(BYTES);
        assertEquals(0, new HugePageAdvice(HugePageAdvice.Mode.COLLAPSE).advise(new MemorySegment[] {unmapped}, 1));
    }

    @Test
    void readsTheEnvironment()
    {
        assertEquals(HugePageAdvice.Mode.COLLAPSE, HugePageAdvice.fromEnvironment(Map.of()).mode());
        assertEquals(HugePageAdvice.Mode.COLLAPSE,
            HugePageAdvice.fromEnvironment(Map.of(HugePageAdvice.VARIABLE, "")).mode());
        assertEquals(HugePageAdvice.Mode.OFF,
            HugePageAdvice.fromEnvironment(Map.of(HugePageAdvice.VARIABLE, "off")).mode());
        assertEquals(HugePageAdvice.Mode.COLLAPSE,
            HugePageAdvice.fromEnvironment(Map.of(HugePageAdvice.VARIABLE, "collapse")).mode());
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> HugePageAdvice.fromEnvironment(Map.of(HugePageAdvice.VARIABLE, "always")));
        assertTrue(e.getMessage().contains("PINMX_HUGE_PAGES=always"), e.getMessage());
    }

    /**
     * 6 MiB mapped for this test alone (the JVM's malloc'd memory shares its mapping with others), each 8-byte word
     * written with its own value, so every 4 KiB page is mapped and distinct.
     */
    private MemorySegment written()
    {
        mapped = Libc.mmap(capture, 0, BYTES, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS,
            -1, 0);
        assertNotEquals(Libc.MAP_FAILED, mapped);
        final MemorySegment memory = MemorySegment.ofAddress(mapped).reinterpret(BYTES);
        for (long i = 0; i < BYTES / 8; i++)
        {
            memory.setAtIndex(ValueLayout.JAVA_LONG, i, i * 31 + 7);
        }
        return memory;
    }

    private static void assertWritten(final MemorySegment memory)
    {
        for (long i = 0; i < BYTES / 8; i++)
        {
            if (memory.getAtIndex(ValueLayout.JAVA_LONG, i) != i * 31 + 7)
            {
                throw new AssertionError("word " + i + " changed: " + memory.getAtIndex(ValueLayout.JAVA_LONG, i));
            }
        }
    }

    private static long wholeRanges(final MemorySegment memory)
    {
        final long first = (memory.address() + HUGE - 1) & -HUGE;
        return (memory.address() + memory.byteSize() - first) / HUGE;
    }

    /** AnonHugePages of the mapping holding {@code address}, from /proc/self/smaps. */
    private static long anonHugeKib(final long address) throws IOException
    {
        final List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        boolean inside = false;
        for (final String line : lines)
        {
            final int dash = line.indexOf('-');
            if (dash > 0 && line.indexOf(' ') > dash && line.substring(0, dash).matches("[0-9a-f]+"))
            {
                final long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                final long end = Long.parseUnsignedLong(line.substring(dash + 1, line.indexOf(' ')), 16);
                inside = address >= start && address < end;
            }
            else if (inside && line.startsWith("AnonHugePages:"))
            {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new AssertionError("no mapping holds 0x" + Long.toHexString(address));
    }

    private static void assumeHugePages() throws IOException
    {
        final Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        assumeTrue(Files.exists(mode), "no transparent huge pages in this kernel");
        assumeTrue(Files.readString(mode).contains("[madvise]"),
            "the counts assume THP mode madvise (with always, written memory may be on huge pages already)");
    }
}
