package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ReadablePages against real mappings: eight pages of which page 5 is unmapped and page 6 mapped with no access,
 * asked by MADV_POPULATE_READ and page by page; and which segments need no question because an open arena owns them.
 */
class ReadablePagesTest
{
    private static final long PAGE = ReadablePages.PAGE_BYTES;
    private static final int PAGES = 8;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment capture = Libc.allocateCaptureState(arena);
    private long base;

    @BeforeEach
    void map()
    {
        base = Libc.mmap(capture, 0, PAGES * PAGE, Libc.PROT_READ | Libc.PROT_WRITE,
            Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        assertNotEquals(Libc.MAP_FAILED, base);
        assertEquals(0, Libc.munmap(capture, base + 5 * PAGE, PAGE));
        assertEquals(base + 6 * PAGE, Libc.mmap(capture, base + 6 * PAGE, PAGE, 0,
            Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS | Libc.MAP_FIXED, -1, 0));
    }

    @AfterEach
    void unmap()
    {
        Libc.munmap(capture, base, PAGES * PAGE);
        arena.close();
    }

    @Test
    void aKernelWithThePopulateAdviceIsAskedWithIt()
    {
        final String[] version = System.getProperty("os.version").split("[.-]");
        final boolean since514 = Integer.parseInt(version[0]) > 5 ||
            Integer.parseInt(version[0]) == 5 && Integer.parseInt(version[1]) >= 14;
        assertEquals(since514, new ReadablePages(arena).populatesRead(), "kernel " + System.getProperty("os.version"));
        assertFalse(new ReadablePages(arena, false).populatesRead());
    }

    @ParameterizedTest(name = "populateRead={0}")
    @ValueSource(booleans = {true, false})
    void mappedRangesAreReadableWhereverTheyStartAndEnd(final boolean populateRead)
    {
        final ReadablePages pages = new ReadablePages(arena, populateRead);
        assertTrue(pages.clear().add(base, 5 * PAGE).readable());
        assertTrue(pages.clear().add(base + 100, 3 * PAGE).add(base + 100 + 3 * PAGE, PAGE + 50).readable());
        assertTrue(pages.clear().add(base + 7 * PAGE + 1, PAGE - 1).readable());
        assertTrue(pages.clear().readable(), "nothing asked is readable");
        assertTrue(pages.clear().add(base + 5 * PAGE, 0).readable(), "an empty range reads nothing");
    }

    @ParameterizedTest(name = "populateRead={0}")
    @ValueSource(booleans = {true, false})
    void anUnmappedOrInaccessiblePageInAnyRangeMakesTheAnswerNo(final boolean populateRead)
    {
        final ReadablePages pages = new ReadablePages(arena, populateRead);
        assertFalse(pages.clear().add(base, PAGES * PAGE).readable());
        assertFalse(pages.clear().add(base + 5 * PAGE + 4095, 1).readable(), "the last byte of the unmapped page");
        assertFalse(pages.clear().add(base + 6 * PAGE, 10).readable(), "a page mapped with no access");
        assertFalse(pages.clear().add(base, PAGE).add(base + 7 * PAGE, PAGE).add(base + 6 * PAGE, 1).readable(),
            "the bad range comes last");
        assertFalse(pages.clear().add(base + 4 * PAGE, PAGE).add(base + 5 * PAGE, 1).add(base + 7 * PAGE, 8)
            .readable(), "ranges that follow one another are one range");
        assertTrue(pages.clear().add(base, PAGE).readable(), "a new question forgets the last answer");
    }

    @ParameterizedTest(name = "populateRead={0}")
    @ValueSource(booleans = {true, false})
    void rangesAroundAHoleAreReadableWhenNoneOfThemIsInIt(final boolean populateRead)
    {
        final ReadablePages pages = new ReadablePages(arena, populateRead);
        assertTrue(pages.clear().add(base, 2 * PAGE).add(base + 2 * PAGE, 3 * PAGE).add(base + 7 * PAGE, PAGE)
            .readable());
        assertTrue(pages.clear().add(base + 7 * PAGE, PAGE).add(base, 5 * PAGE).readable(), "in any order");
    }

    @Test
    void onlyAnOpenArenasNativeMemoryThisThreadMayAccessNeedsNoQuestion() throws Exception
    {
        final MemorySegment confined = arena.allocate(64);
        assertTrue(ReadablePages.arenaOwned(confined));
        assertTrue(ReadablePages.arenaOwned(confined.asSlice(8, 8)));
        assertFalse(CompletableFuture.supplyAsync(() -> ReadablePages.arenaOwned(confined)).get(),
            "another thread may not read a confined arena's memory");
        try (Arena shared = Arena.ofShared())
        {
            final MemorySegment segment = shared.allocate(64);
            assertTrue(CompletableFuture.supplyAsync(() -> ReadablePages.arenaOwned(segment)).get());
        }
        final Arena closed = Arena.ofConfined();
        final MemorySegment freed = closed.allocate(64);
        closed.close();
        assertFalse(ReadablePages.arenaOwned(freed), "a closed arena's memory");
        assertFalse(ReadablePages.arenaOwned(MemorySegment.ofAddress(base).reinterpret(PAGE)),
            "an address from native code, even of a mapped page");
        assertFalse(ReadablePages.arenaOwned(Arena.global().allocate(64)), "the global scope holds addresses too");
        assertFalse(ReadablePages.arenaOwned(MemorySegment.ofArray(new byte[64])), "heap memory has no address");
    }
}
