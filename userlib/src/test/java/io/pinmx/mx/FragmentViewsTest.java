package io.pinmx.mx;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

class FragmentViewsTest
{
    @Test
    void viewsAreKeptWhileTheSameDataIsSentAgainAndMadeAfreshForOtherData()
    {
        try (Arena arena = Arena.ofConfined(); Arena other = Arena.ofConfined())
        {
            final MemorySegment data = arena.allocate(20_000, 8);
            final FragmentViews views = new FragmentViews();
            final MemorySegment first = views.view(data, 0, 0, 8192);
            final MemorySegment last = views.view(data, 2, 16384, 3616);
            assertEquals(data.address() + 16384, last.address());
            assertEquals(3616, last.byteSize());
            assertSame(first, views.view(data, 0, 0, 8192), "same data again: the same view");
            assertSame(last, views.view(data.asSlice(0, 20_000), 2, 16384, 3616),
                "an equal slice of the same memory (address, length, scope) counts as the same data");

            final MemorySegment shorter = data.asSlice(0, 10_000);
            assertNotSame(first, views.view(shorter, 0, 0, 8192), "other length: new views");
            final MemorySegment elsewhere = other.allocate(20_000, 8);
            final MemorySegment moved = views.view(elsewhere, 0, 0, 8192);
            assertEquals(elsewhere.address(), moved.address(), "other data: views of it");
            assertEquals(elsewhere.scope(), moved.scope());
        }
    }
}
