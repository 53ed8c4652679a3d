package io.pinmx.mx;

import io.pinmx.mx.match.MatchInfo;
import io.pinmx.pin.user.UserDriverOptions;
import io.pinmx.regioncache.RegionTableFullException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint's region cache (1024 regions by default) over a user driver whose table holds only
 * {@value #TABLE_REGIONS}: every rendezvous buffer is still declared, because the cache undeclares idle regions when
 * the driver says its table is full; memory exposed outside the cache finds room the same way; and when every region
 * is in use the send is refused naming that, and goes through once regions are released.
 */
class RegionTableRoomTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int KEY = 0x9012;
    private static final int TABLE_REGIONS = 16;
    private static final int MESSAGE_BYTES = 40 * 1024;
    private static final int BATCH = 8;

    private final Arena arena = Arena.ofShared();
    private Endpoint sender;
    private Endpoint receiver;

    @AfterEach
    void close()
    {
        if (null != sender)
        {
            sender.close();
        }
        if (null != receiver)
        {
            receiver.close();
        }
        arena.close();
    }

    @Test
    void moreRendezvousBuffersThanTheDriverTableHoldsAllArriveAndExposeFindsRoom()
    {
        open();
        final Partner partner = sender.connect(receiver.address(), KEY, TIMEOUT);
        final int messages = 6 * TABLE_REGIONS;
        final MemorySegment sources = pattern((long)messages * MESSAGE_BYTES);
        final MemorySegment destinations = arena.allocate((long)BATCH * MESSAGE_BYTES, 4096);
        for (int from = 0; from < messages; from += BATCH)
        {
            final Request[] receives = new Request[BATCH];
            final Request[] sends = new Request[BATCH];
            for (int m = 0; m < BATCH; m++)
            {
                receives[m] = receiver.irecv(MatchInfo.ANY_SOURCE, from + m, MatchInfo.MASK_ALL,
                    destinations.asSlice((long)m * MESSAGE_BYTES, MESSAGE_BYTES));
                sends[m] = sender.isend(partner, from + m, source(sources, from + m));
            }
            for (int m = 0; m < BATCH; m++)
            {
                assertEquals(MESSAGE_BYTES, receives[m].awaitOrThrow(TIMEOUT).bytesTransferred(), "message " + (from + m));
                sends[m].awaitOrThrow(TIMEOUT);
                receives[m].release();
                sends[m].release();
                assertEquals(-1L, destinations.asSlice((long)m * MESSAGE_BYTES, MESSAGE_BYTES)
                    .mismatch(source(sources, from + m)), "message " + (from + m) + " byte-exact");
            }
        }
        // The sender's table is full of idle cached regions: exposing memory undeclares one of them.
        final MemorySegment exposed = pattern(64 * 1024);
        try (ExposedRegion region = sender.regions().expose(exposed))
        {
            final Partner target = receiver.connect(sender.address(), KEY, TIMEOUT);
            final MemorySegment copy = arena.allocate(exposed.byteSize(), 4096);
            final Request read = receiver.regions().iget(target, region.id(), 0, copy);
            read.awaitOrThrow(TIMEOUT);
            read.release();
            assertEquals(-1L, copy.mismatch(exposed), "the exposed memory reads back");
        }
    }

    @Test
    void aSendIsRefusedWhenEveryRegionIsInUseAndGoesThroughOnceOneIsReleased()
    {
        open();
        final Partner partner = sender.connect(receiver.address(), KEY, TIMEOUT);
        final MemorySegment sources = pattern((long)(TABLE_REGIONS + 1) * MESSAGE_BYTES);
        // No receive is posted yet: every rendezvous send holds its region until the receiver pulls it.
        final Request[] sends = new Request[TABLE_REGIONS];
        for (int m = 0; m < TABLE_REGIONS; m++)
        {
            sends[m] = sender.isend(partner, m, source(sources, m));
        }
        final RegionTableFullException refused = assertThrows(RegionTableFullException.class,
            () -> sender.isend(partner, TABLE_REGIONS, source(sources, TABLE_REGIONS)));
        assertTrue(refused.getMessage().contains("none of the " + TABLE_REGIONS + " regions this cache holds is idle"),
            refused.getMessage());
        final MemorySegment destination = arena.allocate(MESSAGE_BYTES, 4096);
        for (int m = 0; m < TABLE_REGIONS; m++)
        {
            final Request receive = receiver.irecv(MatchInfo.ANY_SOURCE, m, MatchInfo.MASK_ALL, destination);
            receive.awaitOrThrow(TIMEOUT);
            receive.release();
            assertEquals(-1L, destination.mismatch(source(sources, m)), "message " + m);
            sends[m].awaitOrThrow(TIMEOUT);
            sends[m].release();
        }
        final Request receive = receiver.irecv(MatchInfo.ANY_SOURCE, TABLE_REGIONS, MatchInfo.MASK_ALL, destination);
        final Request send = sender.isend(partner, TABLE_REGIONS, source(sources, TABLE_REGIONS));
        receive.awaitOrThrow(TIMEOUT);
        send.awaitOrThrow(TIMEOUT);
        assertEquals(-1L, destination.mismatch(source(sources, TABLE_REGIONS)), "the refused message, sent again");
        receive.release();
        send.release();
    }

    private static MemorySegment source(final MemorySegment sources, final int message)
    {
        return sources.asSlice((long)message * MESSAGE_BYTES, MESSAGE_BYTES);
    }

    private void open()
    {
        sender = TestEndpoints.open(TestEndpoints.options(1, KEY,
            UserDriverOptions.defaults().withMaxRegions(TABLE_REGIONS)).build());
        receiver = TestEndpoints.open(TestEndpoints.options(2, KEY, UserDriverOptions.defaults()).build());
    }

    private MemorySegment pattern(final long bytes)
    {
        final MemorySegment segment = arena.allocate(bytes, 4096);
        for (long i = 0; i < bytes / Integer.BYTES; i++)
        {
            segment.setAtIndex(ValueLayout.JAVA_INT, i, (int)(i * 2654435761L + bytes));
        }
        return segment;
    }
}
