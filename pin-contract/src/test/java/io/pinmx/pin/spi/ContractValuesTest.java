package io.pinmx.pin.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ContractValuesTest
{
    @Test
    void pullSpecIsReusableAndValidatesWhatNeedsNoRegionTable()
    {
        final PullSpec spec = new PullSpec()
            .peerIndex(1).remoteEndpointIndex(2).remoteSessionId(0xABC).remoteRegionId(7).remoteOffset(100)
            .localRegionId(8).localOffset(200).length(64L << 20).pullHandle(-1);
        spec.validate();
        assertEquals(64L << 20, spec.length());
        assertEquals(-1, spec.pullHandle());
        assertEquals(7, spec.remoteRegionId());

        final DriverException endpoint = assertThrows(DriverException.class, () -> spec.remoteEndpointIndex(256).validate());
        assertSame(DriverError.BAD_ARGUMENT, endpoint.kind());
        assertTrue(endpoint.getMessage().contains("remote endpoint index 256"), endpoint.getMessage());

        spec.remoteEndpointIndex(2).length(-1);
        final DriverException negative = assertThrows(DriverException.class, spec::validate);
        assertTrue(negative.getMessage().contains("negative length"), negative.getMessage());
        assertTrue(negative.getMessage().contains("remote region 7 @100"), negative.getMessage());

        spec.length(Long.MAX_VALUE);
        final DriverException overflow = assertThrows(DriverException.class, spec::validate);
        assertSame(DriverError.OUT_OF_RANGE, overflow.kind());
    }

    @Test
    void eventFlyweightIsRefilledInPlace()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment buffer = arena.allocate(128);
            buffer.set(ValueLayout.JAVA_BYTE, 10, (byte)42);
            final DriverEvent event = new DriverEvent();
            assertSame(event, event.received(EventType.RECV_TINY, 3, buffer, 10, 48));
            assertSame(EventType.RECV_TINY, event.type());
            assertEquals(3, event.peerIndex());
            assertEquals(10, event.frameOffset());
            assertEquals(48, event.frameLength());
            assertEquals(48, event.frame().byteSize());
            assertEquals(42, event.frame().get(ValueLayout.JAVA_BYTE, 0));
            assertNull(event.error());

            event.pullFailed(5, 99, 1000, DriverError.SEGMENT_FAULT, "region 3 segment 1 at 0x7f00: not mapped (EFAULT)");
            assertSame(EventType.PULL_FAILED, event.type());
            assertEquals(99, event.pullHandle());
            assertEquals(1000, event.bytes());
            assertSame(DriverError.SEGMENT_FAULT, event.error());
            assertEquals(0, event.frame().byteSize());
            assertEquals(0, event.frameLength());
            assertTrue(event.toString().contains("segment 1 at 0x7f00"), event.toString());

            event.pullDone(5, 100, 64);
            assertNull(event.error());
            assertEquals("", event.errorMessage().toString());
            event.sendDone(2, 7);
            assertSame(EventType.SEND_DONE, event.type());
        }
    }

    @Test
    void driverInfoValidatesLimitsAndCopiesFeatures()
    {
        final Set<DriverFeature> features = EnumSet.of(DriverFeature.UDP);
        final DriverInfo info = new DriverInfo("user", "no /dev/pinmx", false, 256, 1024, 32, 8136, 8144, features);
        features.add(DriverFeature.ETHERNET);
        assertTrue(info.has(DriverFeature.UDP));
        assertFalse(info.has(DriverFeature.ETHERNET));
        final IllegalArgumentException segments = assertThrows(IllegalArgumentException.class,
            () -> new DriverInfo("user", "x", false, 257, 1, 1, 1, 1, Set.of()));
        assertTrue(segments.getMessage().contains("max segments 257"), segments.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DriverInfo("", "x", false, 1, 1, 1, 1, 1, Set.of()));
        assertThrows(IllegalArgumentException.class, () -> new DriverInfo("k", "x", true, 1, 1, 257, 1, 1, Set.of()));
        assertThrows(IllegalArgumentException.class, () -> new DriverInfo("k", "x", true, 1, 1, 1, 0, 1, Set.of()));
    }

    @Test
    void regionAccessFlagsAndExceptions()
    {
        assertTrue(RegionAccess.isValid(RegionAccess.READ));
        assertTrue(RegionAccess.isValid(RegionAccess.READ_WRITE));
        assertFalse(RegionAccess.isValid(0));
        assertFalse(RegionAccess.isValid(4));
        assertEquals("READ|WRITE", RegionAccess.describe(3));
        assertEquals("invalid 0x8", RegionAccess.describe(8));

        final DriverException ex = new DriverException(DriverError.SYSTEM, 14, "process_vm_readv: EFAULT", null);
        assertEquals(14, ex.errno());
        assertSame(DriverError.SYSTEM, ex.kind());
        assertEquals(0, new DriverException(DriverError.TIMEOUT, "t").errno());
        assertThrows(NullPointerException.class, () -> new DriverException(null, "x"));
    }
}
