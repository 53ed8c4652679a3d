package io.pinmx.pin.user;

import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.PullSpec;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pull slots alone: a bounded pool, submitted pulls taken in order, the states a slot goes through, and wire
 * handles that stop naming a slot once its pull has ended.
 */
class PullSlotsTest
{
    private final UdpPeer peer = new UdpPeer(1, BoardAddress.udp(InetAddress.getLoopbackAddress(), 7000));
    private final PullSlots slots = new PullSlots(4);

    private static PullSpec spec(final int handle)
    {
        return new PullSpec().peerIndex(1).remoteEndpointIndex(0).remoteSessionId(5).remoteRegionId(2)
            .localRegionId(3).length(100).pullHandle(handle);
    }

    @Test
    void submittedPullsAreTakenInOrderAndThePoolIsBounded()
    {
        for (int h = 0; h < PullSlots.MAX_PULLS; h++)
        {
            slots.claim(spec(h), peer);
        }
        final DriverException full = assertThrows(DriverException.class, () -> slots.claim(spec(-1), peer));
        assertEquals(DriverError.NO_RESOURCES, full.kind());
        assertTrue(full.getMessage().endsWith(PullSlots.MAX_PULLS + " pulls already in flight on this endpoint"),
            full.getMessage());
        assertTrue(slots.hasSubmissions());
        final List<PullSlot> taken = new ArrayList<>();
        for (int h = 0; h < PullSlots.MAX_PULLS; h++)
        {
            final PullSlot slot = slots.takeSubmitted();
            assertEquals(h, slot.handle, "first submitted, first taken");
            assertEquals(PullState.SUBMITTED, slot.state());
            assertSame(peer, slot.peer);
            taken.add(slot);
        }
        assertNull(slots.takeSubmitted());
        assertTrue(!slots.hasSubmissions(), "an empty queue clears the flag");
        slots.free(taken.get(7));
        slots.claim(spec(1000), peer);
        assertSame(taken.get(7), slots.takeSubmitted(), "a freed slot is claimed again");
    }

    @Test
    void aWireHandleNamesItsActiveSlotOnlyUntilThePullEnds()
    {
        slots.claim(spec(42), peer);
        final PullSlot slot = slots.takeSubmitted();
        final int submittedHandle = slot.wireHandle();
        assertNull(slots.activeByWireHandle(submittedHandle), "a slot not yet started takes no replies");
        slots.activate(slot);
        assertEquals(PullState.ACTIVE, slot.state());
        assertEquals(1, slots.activeCount());
        assertSame(slot, slots.activeByWireHandle(slot.wireHandle()));
        assertTrue(slot.blocks().length == 4 && !slot.blocks()[0].inUse(), "blocks start unused");
        final int wire = slot.wireHandle();
        slots.free(slot);
        assertEquals(PullState.FREE, slot.state());
        assertEquals(0, slots.activeCount());
        assertNull(slot.peer, "a free slot holds no peer");
        assertNull(slots.activeByWireHandle(wire), "a late reply to an ended pull is not matched");
        slots.claim(spec(43), peer);
        slots.activate(slots.takeSubmitted());
        assertNull(slots.activeByWireHandle(wire), "nor once the slot serves the next pull");
        assertNotEquals(wire, slot.wireHandle(), "the generation changed");
        assertEquals(wire & (PullSlots.MAX_PULLS - 1), slot.wireHandle() & (PullSlots.MAX_PULLS - 1));
    }

    @Test
    void aBlockTracksItsFramesAndItsResends()
    {
        final PullBlock block = new PullBlock();
        block.request(8192, 3000, 100);
        assertTrue(block.covers(8192) && block.covers(11191) && !block.covers(11192));
        assertTrue(!block.isLate(150, 100) && block.isLate(200, 100), "late after the resend timeout");
        block.frameArrived(1, 200);
        assertTrue(block.hasFrame(1) && !block.hasFrame(0));
        assertEquals(0b101, block.missingMask(3), "frames 0 and 2 are missing");
        block.retried(300);
        assertTrue(!block.isLate(450, 100) && block.isLate(500, 100), "the wait doubles with each resend");
        block.clear();
        assertTrue(!block.inUse() && !block.covers(8192) && !block.isLate(10_000, 100));
    }
}
