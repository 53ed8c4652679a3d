package io.pinmx.pin.user;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The claim and done words both ends of a shared pull meet in, and the ring record that invites the helper. */
class SharedPullsTest
{
    private static final long MIB = 1 << 20;

    @Test
    void bothEndsClaimEveryBlockExactlyOnceAndMeet()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final SharedPulls pulls = new SharedPulls(arena.allocate(SharedPulls.AREA_BYTES, 64));
            final int slot = pulls.open(3, 4096, 7, 0, 8 * MIB);
            final int generation = pulls.generation(slot);
            assertEquals(MIB, SharedPulls.blockBytes(8 * MIB));
            final List<Long> front = new ArrayList<>();
            final List<Long> back = new ArrayList<>();
            long block;
            while (true)
            {
                if ((block = pulls.claimFront(slot)) == SharedPulls.NONE)
                {
                    break;
                }
                front.add(block);
                if ((block = pulls.claimBack(slot, generation)) != SharedPulls.NONE)
                {
                    back.add(block);
                    assertTrue(pulls.addDone(slot, generation, MIB));
                }
            }
            assertEquals(List.of(0L, 1L, 2L, 3L), front);
            assertEquals(List.of(7L, 6L, 5L, 4L), back);
            assertEquals(SharedPulls.NONE, pulls.claimBack(slot, generation));
            assertEquals(4, pulls.helperFirstBlock(slot));
            assertEquals(4 * MIB, pulls.helperDoneBytes(slot));
            assertEquals(3, pulls.sourceRegion(slot));
            assertEquals(4096, pulls.sourceOffset(slot));
            assertEquals(7, pulls.targetRegion(slot));
        }
    }

    @Test
    void aHelperNamingAnEndedOrOtherPullClaimsNothingAndCountsNothing()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final SharedPulls pulls = new SharedPulls(arena.allocate(SharedPulls.AREA_BYTES, 64));
            final int slot = pulls.open(1, 0, 2, 0, 4 * MIB);
            final int generation = pulls.generation(slot);
            assertEquals(SharedPulls.NONE, pulls.claimBack(slot, generation + 1));
            assertEquals(SharedPulls.NONE, pulls.claimBack(SharedPulls.SLOTS, generation));
            assertEquals(SharedPulls.NONE, pulls.claimBack(-1, generation));
            pulls.close(slot);
            assertEquals(SharedPulls.NONE, pulls.claimBack(slot, generation), "a late invitation to an ended pull");
            assertFalse(pulls.addDone(slot, generation, MIB));

            final int again = pulls.open(1, 0, 2, 0, 4 * MIB);
            assertEquals(slot, again, "the slot is reused");
            assertNotEquals(generation, pulls.generation(again));
            assertEquals(SharedPulls.NONE, pulls.claimBack(again, generation), "the old generation takes nothing");
            assertFalse(pulls.addDone(again, generation, MIB));
            assertEquals(0, pulls.helperDoneBytes(again));
            pulls.markFailed(again, generation);
            assertFalse(pulls.helperFailed(again));
        }
    }

    @Test
    void stoppedClaimsLeaveTheHelperNothingAndARetiredSlotIsNeverReused()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final SharedPulls pulls = new SharedPulls(arena.allocate(SharedPulls.AREA_BYTES, 64));
            final int slot = pulls.open(1, 0, 2, 0, 4 * MIB);
            final int generation = pulls.generation(slot);
            assertEquals(0, pulls.claimFront(slot));
            assertEquals(7, pulls.claimBack(slot, generation));
            pulls.stopClaims(slot);
            assertEquals(SharedPulls.NONE, pulls.claimFront(slot));
            assertEquals(SharedPulls.NONE, pulls.claimBack(slot, generation));
            assertEquals(7, pulls.helperFirstBlock(slot), "the block the helper holds stays its own");
            pulls.markFailed(slot, generation);
            assertTrue(pulls.helperFailed(slot));
            pulls.retire(slot);
            for (int i = 0; i < SharedPulls.SLOTS - 1; i++)
            {
                assertNotEquals(slot, pulls.open(1, 0, 2, 0, MIB));
            }
            assertEquals(SharedPulls.NONE, pulls.open(1, 0, 2, 0, MIB), "every slot in use or retired");
        }
    }

    @Test
    void blocksAreAnEighthOfThePullButNoSmallerThan64KiBAndPageAligned()
    {
        assertEquals(64 * 1024, SharedPulls.blockBytes(128 * 1024));
        assertEquals(64 * 1024, SharedPulls.blockBytes(512 * 1024));
        assertEquals(128 * 1024, SharedPulls.blockBytes(MIB));
        assertEquals(MIB + 4096, SharedPulls.blockBytes(8 * MIB + 1));
    }

    @Test
    void theInvitationRecordReachesOnlyTheSharedPullCallbackWithItsFields()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            assertTrue(ring.offerSharedPull(0xABCD, 5, 9, 40001, new byte[] {127, 0, 0, 1}));
            final MemorySegment header = arena.allocate(32);
            assertTrue(ring.offer(header, MemorySegment.NULL, 40002, new byte[] {127, 0, 0, 1}));
            final List<String> seen = new ArrayList<>();
            final int frames = ring.drain(new ShmFrameRing.FrameConsumer()
            {
                @Override
                public void onFrame(
                    final MemorySegment buffer, final long frameOffset, final int frameLength, final int senderPort,
                    final long addressOffset, final int addressLength)
                {
                    seen.add("frame " + senderPort + " " + frameLength);
                }

                @Override
                public void onSharedPull(final int senderPort, final int pullerSession, final int slot,
                    final int generation)
                {
                    seen.add("pull " + senderPort + " " + Integer.toHexString(pullerSession) + " " + slot + " " +
                        generation);
                }
            }, 10);
            assertEquals(1, frames, "only frames count against the limit");
            assertEquals(List.of("pull 40001 abcd 5 9", "frame 40002 32"), seen);
            assertTrue(ring.isEmpty());
            assertEquals(0, ring.drain((b, o, l, p, ao, al) -> seen.add("again"), 10));
            assertEquals(2, seen.size());
        }
    }
}
