package io.pinmx.regioncache;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContainmentIndexTest
{
    private static CachedRegion region(final long address, final long length)
    {
        return new CachedRegion(new long[]{ address }, new long[]{ length }, 1, 0);
    }

    /**
     * Random intervals, from rarely to heavily overlapping, checked against a scan of all of
     * them after every insert or remove.
     */
    @ParameterizedTest
    @ValueSource(longs = { 20, 400, 4_000 })
    void findsAContainerWheneverOneExistsUnderRandomInsertsAndRemoves(final long maxLength)
    {
        final SplittableRandom random = new SplittableRandom(maxLength);
        final ContainmentIndex index = new ContainmentIndex();
        final List<CachedRegion> present = new ArrayList<>();
        for (int step = 0; step < 20_000; step++)
        {
            if (present.size() < 300 && (present.isEmpty() || random.nextInt(3) > 0))
            {
                final CachedRegion region = region(random.nextLong(0, 10_000), random.nextLong(1, maxLength));
                index.insert(region);
                present.add(region);
            }
            else
            {
                index.remove(present.remove(random.nextInt(present.size())));
            }
            final long address = random.nextLong(0, 12_000);
            final long end = address + random.nextLong(1, maxLength);
            final boolean exists = present.stream().anyMatch(r -> r.start <= address && r.end >= end);
            final CachedRegion found = index.findContaining(address, end);
            if (exists)
            {
                assertNotNull(found, "container of [" + address + ", " + end + ") at step " + step);
                assertTrue(found.start <= address && found.end >= end, "found region contains the range");
                assertTrue(present.contains(found));
            }
            else
            {
                assertNull(found, "no container of [" + address + ", " + end + ") at step " + step);
            }
        }
        assertEquals(present.size(), index.size());
    }

    @Test
    void keepsRegionsWithTheSameStartApart()
    {
        final ContainmentIndex index = new ContainmentIndex();
        final CachedRegion shorter = region(100, 10);
        final CachedRegion longer = region(100, 50);
        index.insert(longer);
        index.insert(shorter);

        index.remove(longer);

        assertEquals(shorter, index.findContaining(100, 110));
        assertNull(index.findContaining(100, 111));
        assertThrows(IllegalStateException.class, () -> index.remove(longer));
    }
}
