package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.PeerRegistry;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverEvent;
import io.pinmx.pin.spi.EventType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ring decoder on memory laid out as pinmx.ko writes it (struct pinmx_event heads, then struct
 * pinmx_pull_event or pinmx_atomic_event): the ends of puts and atomics become PUT_DONE/PUT_FAILED and
 * ATOMIC_DONE/ATOMIC_FAILED events with their handle, bytes, old value, error kind and a message naming the cause,
 * and each releases the hold its operation took on the peer.
 */
class KernelEventRingTest
{
    private static final long MAC = 0x02_00_00_00_00_2AL;
    private static final long HEAD_BYTES = PinmxAbi.EVENT.byteSize();

    private record Ended(EventType type, int handle, long bytes, long oldValue, DriverError error, String message)
    {
    }

    @Test
    void putAndAtomicEndsAreDecodedAndReleaseTheirPeerHolds()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment ring = arena.allocate(PinmxAbi.RING_BYTES, 4096);
            final DriverCounters counters = new DriverCounters();
            final PeerRegistry<MacPeer> peers = new PeerRegistry<>(counters);
            final KernelEventRing events = new KernelEventRing(ring, peers, counters);
            final MacPeer peer = peers.acquire(MacPeer.toBoard(MAC), new MacPeer.Key().set(MAC), "test");
            for (int started = 0; started < 4; started++)
            {
                peers.holdOrThrow("start", peer.index(), "test");
            }
            final long put = slot(ring, 0, PinmxAbi.EVENT_PUT_DONE);
            ring.set(ValueLayout.JAVA_INT, put + PinmxAbi.PULL_EVENT_HANDLE, 7);
            ring.set(ValueLayout.JAVA_LONG, put + PinmxAbi.PULL_EVENT_BYTES, 5000);
            final long atomic = slot(ring, 1, PinmxAbi.EVENT_ATOMIC_DONE);
            ring.set(ValueLayout.JAVA_INT, atomic + PinmxAbi.ATOMIC_EVENT_HANDLE, 8);
            ring.set(ValueLayout.JAVA_LONG, atomic + PinmxAbi.ATOMIC_EVENT_OLD, 0xFFFF_FFFFL);
            final long badKey = slot(ring, 2, PinmxAbi.EVENT_ATOMIC_FAILED);
            ring.set(ValueLayout.JAVA_INT, badKey + PinmxAbi.ATOMIC_EVENT_HANDLE, 9);
            ring.set(ValueLayout.JAVA_INT, badKey + PinmxAbi.ATOMIC_EVENT_STATUS, PinmxAbi.PULL_BAD_KEY);
            ring.set(ValueLayout.JAVA_INT, badKey + PinmxAbi.ATOMIC_EVENT_ERROR, Errno.EACCES);
            final long pastTheEnd = slot(ring, 3, PinmxAbi.EVENT_PUT_FAILED);
            ring.set(ValueLayout.JAVA_INT, pastTheEnd + PinmxAbi.PULL_EVENT_HANDLE, 10);
            ring.set(ValueLayout.JAVA_INT, pastTheEnd + PinmxAbi.PULL_EVENT_STATUS, PinmxAbi.PULL_OUT_OF_RANGE);
            ring.set(ValueLayout.JAVA_LONG, pastTheEnd + PinmxAbi.PULL_EVENT_ADDRESS, 65_526);
            ring.set(ValueLayout.JAVA_INT, PinmxAbi.RING_CTL_PRODUCER, 4);

            final List<Ended> ended = new ArrayList<>();
            assertEquals(4, events.poll((DriverEvent e) -> ended.add(new Ended(e.type(), e.pullHandle(), e.bytes(),
                e.oldValue(), e.error(), e.errorMessage().toString())), 16));

            assertEquals(new Ended(EventType.PUT_DONE, 7, 5000, 0, null, ""), ended.get(0));
            assertEquals(new Ended(EventType.ATOMIC_DONE, 8, 0, 0xFFFF_FFFFL, null, ""), ended.get(1));
            assertEquals(EventType.ATOMIC_FAILED, ended.get(2).type());
            assertEquals(9, ended.get(2).handle());
            assertEquals(DriverError.BAD_KEY, ended.get(2).error());
            assertTrue(ended.get(2).message().contains("refused the key") &&
                ended.get(2).message().contains("EACCES"), ended.get(2).message());
            assertEquals(EventType.PUT_FAILED, ended.get(3).type());
            assertEquals(DriverError.OUT_OF_RANGE, ended.get(3).error());
            assertTrue(ended.get(3).message().startsWith("put 10 with " + MacPeer.toBoard(MAC)) &&
                ended.get(3).message().contains("remote offset 65526"), ended.get(3).message());
            assertEquals(4, ring.get(ValueLayout.JAVA_INT, PinmxAbi.RING_CTL_CONSUMER), "every slot consumed");
            peers.release(peer.index(), "test", "test");
            assertEquals(0, peers.inUse(), "each end released its operation's hold on the peer");
        }
    }

    private static long slot(final MemorySegment ring, final int index, final int type)
    {
        final long head = PinmxAbi.RING_CTL_BYTES + (long)index * PinmxAbi.RING_SLOT_BYTES;
        ring.set(ValueLayout.JAVA_INT, head + PinmxAbi.EVENT_TYPE, type);
        ring.set(ValueLayout.JAVA_INT, head + PinmxAbi.EVENT_FRAME_LEN, (int)PinmxAbi.PULL_EVENT.byteSize());
        for (int i = 0; i < 6; i++)
        {
            ring.set(ValueLayout.JAVA_BYTE, head + PinmxAbi.EVENT_SRC_MAC + i, (byte)(MAC >>> (8 * (5 - i))));
        }
        return head + HEAD_BYTES;
    }
}
