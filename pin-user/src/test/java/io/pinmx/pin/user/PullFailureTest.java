package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.PullSpec;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The words of a failed pull's PULL_FAILED event, for the failures the end-to-end tests cannot easily provoke (a
 * session replaced under a pull, a peer gone, a block never answered) and for the three unmapped-page cases, which
 * share one shape: which pull, which end, which region, segment and address, and the errno.
 */
class PullFailureTest
{
    private final PullSlot slot = submitted();
    private final String region2 = RegionTable.describe(2);
    private final String region3 = RegionTable.describe(3);

    private static PullSlot submitted()
    {
        final PullSlots slots = new PullSlots(1);
        slots.claim(new PullSpec().peerIndex(1).remoteEndpointIndex(4).remoteSessionId(0x5a).remoteRegionId(2)
            .remoteOffset(64).localRegionId(3).localOffset(128).length(100).pullHandle(77),
            new UdpPeer(1, BoardAddress.udp(InetAddress.getLoopbackAddress(), 7000)));
        return slots.takeSubmitted();
    }

    private String fromPeer()
    {
        return "pull 77 from " + slot.describePeer() + ": ";
    }

    @Test
    void unmappedPagesAreReportedAlikeAtEitherEnd()
    {
        final PullFailure remote = PullFailure.ofRemoteFault(slot, 1, 0x7f00_1000L, Errno.EFAULT);
        assertEquals(DriverError.SEGMENT_FAULT, remote.error());
        assertEquals(fromPeer() + "remote " + region2 + " segment 1 at 0x7f001000: not mapped (" +
            Errno.describe(Errno.EFAULT) + ")", remote.message());

        final PullFailure local = PullFailure.ofLocalFault(slot, 0, 0x1000L, Errno.EFAULT);
        assertEquals(DriverError.SEGMENT_FAULT, local.error());
        assertEquals("pull 77: local " + region3 + " segment 0 at 0x1000: not mapped (" +
            Errno.describe(Errno.EFAULT) + ")", local.message());
    }

    @Test
    void aPeerWhoseSessionOrProcessIsGoneIsUnreachable()
    {
        final PullFailure session = PullFailure.ofSessionChanged(slot, 0x6b);
        assertEquals(DriverError.PEER_UNREACHABLE, session.error());
        assertEquals(fromPeer() + "session 5a is not the endpoint's current session 6b", session.message());

        final PullFailure gone = PullFailure.ofProcessGone(slot, 4242, Errno.ESRCH);
        assertEquals(DriverError.PEER_UNREACHABLE, gone.error());
        assertEquals(fromPeer() + "process 4242 is gone (" + Errno.describe(Errno.ESRCH) + ")", gone.message());
    }

    @Test
    void timeoutsSayWhatWasWaitedForAndHowLong()
    {
        final PullFailure stuck = PullFailure.ofHelperStuck(slot, 4242, 2_500_000_000L);
        assertEquals(DriverError.TIMEOUT, stuck.error());
        assertEquals(fromPeer() + "process 4242, copying a block of it, held that block for more than 2500 ms",
            stuck.message());

        final PullFailure silent = PullFailure.ofNoReply(slot, 65536, 9);
        assertEquals(DriverError.TIMEOUT, silent.error());
        assertEquals(fromPeer() + "no complete reply to the PULL of block at offset 65536 after 9 requests",
            silent.message());
    }

    @Test
    void regionLookupsNameTheEndTheOffsetAndTheAccessMissing()
    {
        assertEquals(new PullFailure(DriverError.OUT_OF_RANGE, fromPeer() + "remote " + region2 +
            ": offset 64 + length 100 reaches past its end"), PullFailure.ofRegion(slot, RegionTable.OUT_OF_RANGE, true));
        assertEquals(new PullFailure(DriverError.UNKNOWN_REGION, "pull 77: local " + region3 + " is not declared"),
            PullFailure.ofRegion(slot, RegionTable.UNKNOWN_REGION, false));
        assertEquals(new PullFailure(DriverError.BAD_ARGUMENT, "pull 77: local " + region3 + " was not declared WRITE"),
            PullFailure.ofRegion(slot, RegionTable.ACCESS_DENIED, false));
        assertEquals(new PullFailure(DriverError.UNKNOWN_REGION, fromPeer() + "remote " + region2 +
            " was not declared READ"), PullFailure.ofRegion(slot, RegionTable.ACCESS_DENIED, true));
    }
}
