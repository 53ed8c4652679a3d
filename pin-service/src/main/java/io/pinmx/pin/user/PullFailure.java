package io.pinmx.pin.user;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.wire.NackFrame;
import io.pinmx.pin.wire.NackReason;

/**
 * Why a pull failed, as its PULL_FAILED event says it: the error and a message naming the pull, which end, the
 * region, segment or address, and what to change. Built only on the failure path, for {@link Puller}.
 */
record PullFailure(DriverError error, String message)
{
    /** The peer refused one of the pull's PULLs with {@code nack}. */
    static PullFailure ofNack(
        final PullSlot slot, final NackFrame nack, final int framePayloadBytes, final long pullBlockBytes)
    {
        final NackReason reason = nack.reason();
        final String prefix = "pull " + slot.handle + " from " + slot.describePeer() + ": ";
        return switch (reason)
        {
            case UNKNOWN_REGION -> new PullFailure(DriverError.UNKNOWN_REGION, prefix + "remote " +
                RegionTable.describe(nack.regionId()) + (nack.errno() == PullServer.EACCES ?
                " was not declared READ" : " is not declared") + " (NACK UNKNOWN_REGION)");
            case OUT_OF_RANGE -> new PullFailure(DriverError.OUT_OF_RANGE, prefix + "remote offset " +
                nack.address() + " + length reaches past the end of " + RegionTable.describe(nack.regionId()) +
                " (NACK OUT_OF_RANGE)");
            case SEGMENT_FAULT -> new PullFailure(DriverError.SEGMENT_FAULT, prefix + "remote " +
                RegionTable.describe(nack.regionId()) + " segment " + nack.segmentIndex() + " at 0x" +
                Long.toHexString(nack.address()) + ": not mapped (" + Errno.describe(nack.errno()) + ")");
            case BAD_FIELD -> new PullFailure(DriverError.BAD_ARGUMENT, prefix + "the peer refused a PULL for " +
                framePayloadBytes + "-byte replies in blocks of " + pullBlockBytes + " bytes: its limit is " +
                nack.address() + "-byte replies, " + PullServer.STAGING_FRAMES + " per block (NACK BAD_FIELD); " +
                "give both ends the same framePayloadBytes");
            case BAD_ENDPOINT, BAD_SESSION -> new PullFailure(DriverError.PEER_UNREACHABLE, prefix +
                "the peer refused the request (NACK " + reason + ")");
        };
    }

    /** A {@link RegionTable} lookup of the pull's remote or local region answered {@code code}. */
    static PullFailure ofRegion(final PullSlot slot, final int code, final boolean remote)
    {
        final int id = remote ? slot.remoteRegion : slot.localRegion;
        final long offset = remote ? slot.remoteOffset : slot.localOffset;
        final String prefix = "pull " + slot.handle + (remote ? " from " + slot.describePeer() : "") + ": " +
            (remote ? "remote " : "local ") + RegionTable.describe(id);
        return switch (code)
        {
            case RegionTable.UNKNOWN_REGION -> new PullFailure(DriverError.UNKNOWN_REGION, prefix + " is not declared");
            case RegionTable.OUT_OF_RANGE -> new PullFailure(DriverError.OUT_OF_RANGE, prefix + ": offset " + offset +
                " + length " + slot.length + " reaches past its end");
            default -> new PullFailure(remote ? DriverError.UNKNOWN_REGION : DriverError.BAD_ARGUMENT, prefix +
                " was not declared " + (remote ? "READ" : "WRITE"));
        };
    }

    /** Writing into the pull's local region met an unmapped page. */
    static PullFailure ofLocalFault(final PullSlot slot, final int segment, final long address, final int errno)
    {
        return new PullFailure(DriverError.SEGMENT_FAULT, "pull " + slot.handle + ": local " +
            RegionTable.describe(slot.localRegion) + " segment " + segment + " at 0x" + Long.toHexString(address) +
            ": not mapped (" + Errno.describe(errno) + ")");
    }
}
