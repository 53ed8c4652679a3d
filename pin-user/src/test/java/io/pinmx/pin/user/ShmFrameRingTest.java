package io.pinmx.pin.user;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmFrameRingTest
{
    private static final byte[] ADDRESS = {127, 0, 0, 1};

    @Test
    void framesComeOutInOrderAcrossTheWrapWithSenderIdentity()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            final List<byte[]> received = new ArrayList<>();
            final AtomicInteger port = new AtomicInteger();
            int sent = 0;
            for (int round = 0; round < 200; round++)
            {
                final int size = 1 + (round * 997) % 3000;
                final MemorySegment header = filled(arena, 32, (byte)round);
                final MemorySegment payload = filled(arena, size, (byte)(round + 1));
                assertTrue(ring.offer(header, payload, 40000 + round, ADDRESS));
                sent++;
                if (round % 3 == 2)
                {
                    ring.drain((buffer, offset, length, senderPort, addressOffset, addressLength) ->
                    {
                        received.add(buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE));
                        port.set(senderPort);
                        assertArrayEquals(ADDRESS,
                            buffer.asSlice(addressOffset, addressLength).toArray(ValueLayout.JAVA_BYTE));
                    }, 100);
                }
            }
            ring.drain((buffer, offset, length, senderPort, addressOffset, addressLength) ->
                received.add(buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE)), 100);
            assertEquals(40000 + 197, port.get(), "sender port of the last frame drained inside the loop");
            assertEquals(sent, received.size());
            for (int round = 0; round < sent; round++)
            {
                final byte[] frame = received.get(round);
                assertEquals(32 + 1 + (round * 997) % 3000, frame.length, "frame " + round);
                assertEquals((byte)round, frame[0]);
                assertEquals((byte)(round + 1), frame[frame.length - 1]);
            }
            assertTrue(ring.isEmpty());
        }
    }

    @Test
    void fullRingRefusesWithoutCorruptingWhatIsQueued()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            final MemorySegment header = filled(arena, 32, (byte)7);
            final MemorySegment payload = filled(arena, 4000, (byte)9);
            int accepted = 0;
            while (ring.offer(header, payload, 1, ADDRESS))
            {
                accepted++;
            }
            assertEquals(64 * 1024 / 4064, accepted);
            final AtomicInteger drained = new AtomicInteger();
            ring.drain((buffer, offset, length, senderPort, addressOffset, addressLength) ->
            {
                assertEquals(4032, length);
                assertEquals(9, buffer.get(ValueLayout.JAVA_BYTE, offset + 4031));
                drained.incrementAndGet();
            }, 1000);
            assertEquals(accepted, drained.get());
            assertTrue(ring.offer(header, payload, 1, ADDRESS));
        }
    }

    @Test
    void consumedRecordsGoBackToProducersByTheNextDrainAndNoLapReadsAStaleOne()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            final MemorySegment header = filled(arena, 32, (byte)1);
            final MemorySegment payload = arena.allocate(8);
            final long[] last = {-1};
            final ShmFrameRing.FrameConsumer check = (buffer, offset, length, senderPort, addressOffset, addressLength) ->
            {
                assertEquals(40, length);
                last[0] = buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 32);
            };
            // 72-byte records, one at a time, over more than five laps: each drain gives back the record before
            for (long i = 0; i < 5000; i++)
            {
                payload.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, i);
                assertTrue(ring.offer(header, payload, 1, ADDRESS), "record " + i);
                assertEquals(1, ring.drain(check, 10), "record " + i);
                assertEquals(i, last[0]);
                assertEquals(0, ring.drain(check, 10), "a record after " + i);
            }
            int accepted = 0;
            while (ring.offer(header, payload, 1, ADDRESS))
            {
                accepted++;
            }
            assertTrue(accepted > 64 * 1024 / 72 - 2, "records that fit: " + accepted);
            assertEquals(1, ring.drain(check, 1));
            assertFalse(ring.offer(header, payload, 1, ADDRESS), "the drained record's room before the next drain");
            assertFalse(ring.isEmpty());
            assertTrue(ring.offer(header, payload, 1, ADDRESS), "its room after the consumer looked again");
            assertEquals(accepted, ring.drain(check, 100_000));
            assertTrue(ring.isEmpty());
        }
    }

    @Test
    void theWrittenMarkCoversEveryClaimedRecordAndTheTakenPositionOnlyRises()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            final MemorySegment header = filled(arena, 32, (byte)1);
            assertEquals(0, ring.written());
            assertTrue(ring.offer(header, MemorySegment.NULL, 40000, ADDRESS));
            final long first = ring.written();
            assertTrue(ring.offer(header, MemorySegment.NULL, 40000, ADDRESS));
            final long[] ends = new long[2];
            final int[] n = {0};
            assertEquals(2, ring.drain((buffer, offset, length, senderPort, addressOffset, addressLength) ->
                ends[n[0]++] = ring.deliveringEnd(), 10));
            assertArrayEquals(new long[] {first, ring.written()}, ends, "each frame's end as it is delivered");
            assertEquals(0, ring.taken(), "nothing taken yet");
            ring.publishTaken(ends[1]);
            ring.publishTaken(ends[0]);
            assertEquals(ends[1], ring.taken(), "a lower position published later does not lower it");
        }
    }

    @Test
    void oversizedFrameIsRejectedWithItsSize()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ring.offer(arena.allocate(32), arena.allocate(20000), 1, ADDRESS));
            assertTrue(e.getMessage().contains("20032"), e.getMessage());
            assertTrue(ring.isEmpty());
        }
    }

    @Test
    void concurrentProducersLoseNothing() throws InterruptedException
    {
        try (Arena arena = Arena.ofShared())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            final int perProducer = 20_000;
            final Thread[] producers = new Thread[2];
            for (int p = 0; p < producers.length; p++)
            {
                final int id = p;
                producers[p] = new Thread(() ->
                {
                    try (Arena local = Arena.ofConfined())
                    {
                        final MemorySegment header = local.allocate(32);
                        for (int i = 0; i < perProducer; i++)
                        {
                            header.set(ValueLayout.JAVA_INT, 0, i);
                            while (!ring.offer(header, MemorySegment.NULL, id, ADDRESS))
                            {
                                Thread.onSpinWait();
                            }
                        }
                    }
                });
                producers[p].start();
            }
            final int[] next = new int[producers.length];
            final long deadlineNs = System.nanoTime() + 30_000_000_000L;
            int total = 0;
            while (total < perProducer * producers.length)
            {
                assertTrue(System.nanoTime() < deadlineNs, "consumer stalled at " + total);
                total += ring.drain((buffer, offset, length, senderPort, addressOffset, addressLength) ->
                {
                    assertEquals(next[senderPort], buffer.get(ValueLayout.JAVA_INT_UNALIGNED, offset),
                        "producer " + senderPort);
                    next[senderPort]++;
                }, 256);
            }
            for (final Thread producer : producers)
            {
                producer.join(10_000);
                assertFalse(producer.isAlive());
            }
            assertEquals(perProducer, next[0]);
            assertEquals(perProducer, next[1]);
        }
    }

    @Test
    void doorbellIsClaimedOnceAfterTheConsumerParks()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            assertFalse(ring.claimWakeUp());
            ring.setConsumerParked(ShmFrameRing.PARKED);
            assertTrue(ring.claimWakeUp());
            assertFalse(ring.claimWakeUp());
        }
    }

    @Test
    void anInvitationToShareAPullWakesOnlyAConsumerParkedInItsOwnWait()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final ShmFrameRing ring = new ShmFrameRing(arena.allocate(ShmFrameRing.areaBytes(64 * 1024), 64));
            ring.setConsumerParked(ShmFrameRing.PARKED);
            assertFalse(ring.claimHelperWakeUp(), "a parked progress thread is left to its application's core");
            assertTrue(ring.claimWakeUp(), "a frame still wakes it");

            ring.setConsumerParked(ShmFrameRing.PARKED_IN_WAIT);
            assertTrue(ring.claimHelperWakeUp());
            assertFalse(ring.claimHelperWakeUp(), "one producer wakes it");
            assertFalse(ring.claimWakeUp(), "and a frame after the invitation finds it woken");

            ring.setConsumerParked(ShmFrameRing.PARKED_IN_WAIT);
            assertTrue(ring.claimWakeUp());
            assertFalse(ring.claimHelperWakeUp());
        }
    }

    private static MemorySegment filled(final Arena arena, final int bytes, final byte value)
    {
        final MemorySegment segment = arena.allocate(bytes);
        segment.fill(value);
        return segment;
    }
}
