package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionTableTest
{
    @Test
    void resolvesRangesAcrossSegmentsAndRejectsBadRanges()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final RegionTable table = new RegionTable(arena.allocate(RegionTable.areaBytes(4), 64));
            final MemorySegment a = arena.allocate(100);
            final MemorySegment b = arena.allocate(50);
            final int id = table.declare(new MemorySegment[] {a, b}, 2, RegionTable.ACCESS_READ);
            assertTrue(id > 0);
            assertEquals(150, table.regionBytes(id));
            final MemorySegment iov = arena.allocate(Libc.IOVEC_BYTES * RegionTable.MAX_SEGMENTS);
            final int[] segments = new int[RegionTable.MAX_SEGMENTS];
            assertEquals(2, table.resolve(id, RegionTable.ACCESS_READ, 90, 20, iov, segments));
            assertEquals(a.address() + 90, iov.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(10, iov.get(ValueLayout.JAVA_LONG, 8));
            assertEquals(b.address(), iov.get(ValueLayout.JAVA_LONG, 16));
            assertEquals(10, iov.get(ValueLayout.JAVA_LONG, 24));
            assertEquals(1, segments[1]);
            assertEquals(RegionTable.OUT_OF_RANGE, table.resolve(id, RegionTable.ACCESS_READ, 100, 51, iov, segments));
            assertEquals(RegionTable.OUT_OF_RANGE, table.resolve(id, RegionTable.ACCESS_READ, 151, 0, iov, segments));
            assertEquals(RegionTable.OUT_OF_RANGE,
                table.resolve(id, RegionTable.ACCESS_READ, 1, Long.MAX_VALUE, iov, segments));
            assertEquals(RegionTable.ACCESS_DENIED, table.resolve(id, RegionTable.ACCESS_WRITE, 0, 1, iov, segments));
            assertEquals(RegionTable.UNKNOWN_REGION, table.resolve(id + 1, RegionTable.ACCESS_READ, 0, 1, iov, segments));
            assertEquals(RegionTable.UNKNOWN_REGION, table.resolve(-5, RegionTable.ACCESS_READ, 0, 1, iov, segments));
        }
    }

    @Test
    void reusedSlotGetsANewIdAndTheStaleIdNoLongerResolves()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final RegionTable table = new RegionTable(arena.allocate(RegionTable.areaBytes(1), 64));
            final MemorySegment[] one = {arena.allocate(64)};
            final int first = table.declare(one, 1, RegionTable.ACCESS_READ);
            assertEquals(0, table.declare(one, 1, RegionTable.ACCESS_READ), "table of one slot is full");
            assertTrue(table.destroy(first));
            assertFalse(table.destroy(first), "double destroy");
            final int second = table.declare(one, 1, RegionTable.ACCESS_READ);
            assertNotEquals(first, second);
            assertEquals(RegionTable.slotOfId(first), RegionTable.slotOfId(second));
            assertEquals(RegionTable.UNKNOWN_REGION, table.regionBytes(first));
            assertEquals(64, table.regionBytes(second));
        }
    }

    @Test
    void everySlotIsUsedOnceEachAndAFreedOneIsTakenNextWhileOthersStayDeclared()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final int slots = 64;
            final RegionTable table = new RegionTable(arena.allocate(RegionTable.areaBytes(slots), 64));
            final MemorySegment[] one = {arena.allocate(64)};
            final int[] ids = new int[slots];
            final java.util.Set<Integer> used = new java.util.HashSet<>();
            for (int i = 0; i < slots; i++)
            {
                ids[i] = table.declare(one, 1, RegionTable.ACCESS_READ);
                assertTrue(used.add(RegionTable.slotOfId(ids[i])), "slot taken twice: " + ids[i]);
            }
            assertEquals(0, RegionTable.slotOfId(ids[0]), "the lowest slot first");
            assertEquals(0, table.declare(one, 1, RegionTable.ACCESS_READ), "full");
            assertTrue(table.destroy(ids[37]));
            assertTrue(table.destroy(ids[5]));
            final int again = table.declare(one, 1, RegionTable.ACCESS_READ);
            final int andAgain = table.declare(one, 1, RegionTable.ACCESS_READ);
            assertEquals(java.util.Set.of(RegionTable.slotOfId(ids[37]), RegionTable.slotOfId(ids[5])),
                java.util.Set.of(RegionTable.slotOfId(again), RegionTable.slotOfId(andAgain)));
            assertEquals(0, table.declare(one, 1, RegionTable.ACCESS_READ), "full again");
            for (int i = 0; i < slots; i++)
            {
                assertEquals(5 == i || 37 == i ? RegionTable.UNKNOWN_REGION : 64, table.regionBytes(ids[i]),
                    "region " + i);
            }
        }
    }

    @Test
    void copierReportsTheFaultingSegmentOfAnUnmappedRegion()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final RegionTable table = new RegionTable(arena.allocate(RegionTable.areaBytes(2), 64));
            final MemorySegment good = arena.allocate(4096);
            good.fill((byte)5);
            final MemorySegment unmapped = MemorySegment.ofAddress(0x10000).reinterpret(4096);
            final int id = table.declare(new MemorySegment[] {good, unmapped}, 2, RegionTable.ACCESS_READ);
            final VmCopier copier = new VmCopier(arena);
            final MemorySegment staging = arena.allocate(8192);

            assertEquals(1, copier.resolveRemote(table, id, RegionTable.ACCESS_READ, 0, 4096));
            copier.localBuffer(staging.address(), 4096);
            assertTrue(copier.transfer(Libc.pid(), false, 4096));
            assertEquals(5, staging.get(ValueLayout.JAVA_BYTE, 4095));

            assertEquals(2, copier.resolveRemote(table, id, RegionTable.ACCESS_READ, 0, 8192));
            copier.localBuffer(staging.address(), staging.byteSize());
            assertFalse(copier.transfer(Libc.pid(), false, 8192));
            assertEquals(Errno.EFAULT, copier.errno());
            assertEquals(4096, copier.faultPosition());
            assertEquals(1, copier.remoteFaultSegment());
            assertEquals(0x10000, copier.remoteFaultAddress());
            assertFalse(copier.remoteReadable(Libc.pid()));
        }
    }
}
