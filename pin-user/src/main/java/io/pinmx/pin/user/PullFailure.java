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
        final String prefix = fromPeer(slot);
        return switch (reason)
        {
            case UNKNOWN_REGION -> new PullFailure(DriverError.UNKNOWN_REGION, prefix + "remote " +
                RegionTable.describe(nack.regionId()) + (nack.errno() == PullServer.EACCES ?
                " was not declared READ" : " is not declared") + " (NACK UNKNOWN_REGION)");
            case OUT_OF_RANGE -> new PullFailure(DriverError.OUT_OF_RANGE, prefix + "remote offset " +
                nack.address() + " + length reaches past the end of " + RegionTable.describe(nack.regionId()) +
                " (NACK OUT_OF_RANGE)");
            case SEGMENT_FAULT ->
                unmapped(prefix + "remote ", nack.regionId(), nack.segmentIndex(), nack.address(), nack.errno());
            case BAD_FIELD -> new PullFailure(DriverError.BAD_ARGUMENT, prefix + "the peer refused a PULL for " +
                framePayloadBytes + "-byte replies in blocks of " + pullBlockBytes + " bytes: its limit is " +
                nack.address() + "-byte replies, " + PullServer.STAGING_FRAMES + " per block (NACK BAD_FIELD); " +
                "give both ends the same framePayloadBytes");
            case BAD_ENDPOINT, BAD_SESSION -> new PullFailure(DriverError.PEER_UNREACHABLE, prefix +
                "the peer refused the request (NACK " + reason + ")");
            case BAD_KEY -> new PullFailure(DriverError.BAD_KEY, prefix + "the peer refused the key for remote " +
                RegionTable.describe(nack.regionId()) + " (NACK BAD_KEY)");
            case HELD -> new PullFailure(DriverError.PEER_UNREACHABLE, prefix + "the peer answered a PULL of remote " +
                RegionTable.describe(nack.regionId()) + " with NACK HELD, which holds back only PUTs and ATOMICs");
        };
    }

    /** A {@link RegionTable} lookup of the pull's remote or local region answered {@code code}. */
    static PullFailure ofRegion(final PullSlot slot, final int code, final boolean remote)
    {
        final int id = remote ? slot.remoteRegion : slot.localRegion;
        final long offset = remote ? slot.remoteOffset : slot.localOffset;
        final String prefix = (remote ? fromPeer(slot) + "remote " : local(slot)) + RegionTable.describe(id);
        return switch (code)
        {
            case RegionTable.UNKNOWN_REGION -> new PullFailure(DriverError.UNKNOWN_REGION, prefix + " is not declared");
            case RegionTable.OUT_OF_RANGE -> new PullFailure(DriverError.OUT_OF_RANGE, prefix + ": offset " + offset +
                " + length " + slot.length + " reaches past its end");
            default -> new PullFailure(remote ? DriverError.UNKNOWN_REGION : DriverError.BAD_ARGUMENT, prefix +
                " was not declared " + (remote ? "READ" : "WRITE"));
        };
    }

    /** The pull's remote region is exposed for remote writes and the pull named no key or another one. */
    static PullFailure ofBadKey(final PullSlot slot)
    {
        return new PullFailure(DriverError.BAD_KEY, fromPeer(slot) + "remote " + RegionTable.describe(slot.remoteRegion) +
            " is exposed for remote writes and refused the key: it is read only with its key");
    }

    /** Writing into the pull's local region met an unmapped page. */
    static PullFailure ofLocalFault(final PullSlot slot, final int segment, final long address, final int errno)
    {
        return unmapped(local(slot), slot.localRegion, segment, address, errno);
    }

    /** Reading the pull's remote region in a single copy met an unmapped page. */
    static PullFailure ofRemoteFault(final PullSlot slot, final int segment, final long address, final int errno)
    {
        return unmapped(fromPeer(slot) + "remote ", slot.remoteRegion, segment, address, errno);
    }

    /** The peer's endpoint file names a session other than the one the pull was addressed to. */
    static PullFailure ofSessionChanged(final PullSlot slot, final int currentSession)
    {
        return new PullFailure(DriverError.PEER_UNREACHABLE, fromPeer(slot) + "session " +
            Integer.toHexString(slot.remoteSession) + " is not the endpoint's current session " +
            Integer.toHexString(currentSession));
    }

    /** The peer's process, copying a block for a shared single copy, held it past the helper timeout. */
    static PullFailure ofHelperStuck(final PullSlot slot, final int pid, final long helperTimeoutNs)
    {
        return new PullFailure(DriverError.TIMEOUT, fromPeer(slot) + "process " + pid +
            ", copying a block of it, held that block for more than " + helperTimeoutNs / 1_000_000 + " ms");
    }

    /** The peer's process no longer exists ({@code errno}, ESRCH). */
    static PullFailure ofProcessGone(final PullSlot slot, final int pid, final int errno)
    {
        return new PullFailure(DriverError.PEER_UNREACHABLE, fromPeer(slot) + "process " + pid + " is gone (" +
            Errno.describe(errno) + ")");
    }

    /** A block's PULL went unanswered {@code requests} times. */
    static PullFailure ofNoReply(final PullSlot slot, final long blockOffset, final int requests)
    {
        return new PullFailure(DriverError.TIMEOUT, fromPeer(slot) +
            "no complete reply to the PULL of block at offset " + blockOffset + " after " + requests + " requests");
    }

    /** The caller cancelled the pull after {@code bytesDone} of its bytes were written. */
    static PullFailure ofCancelled(final PullSlot slot)
    {
        return new PullFailure(DriverError.CANCELLED, fromPeer(slot) + "cancelled after " + slot.bytesDone + " of " +
            slot.length + " bytes");
    }

    private static String fromPeer(final PullSlot slot)
    {
        return "pull " + slot.handle + " from " + slot.describePeer() + ": ";
    }

    private static String local(final PullSlot slot)
    {
        return "pull " + slot.handle + ": local ";
    }

    private static PullFailure unmapped(
        final String prefix, final int region, final int segment, final long address, final int errno)
    {
        return new PullFailure(DriverError.SEGMENT_FAULT, prefix + RegionTable.describe(region) + " segment " +
            segment + " at 0x" + Long.toHexString(address) + ": not mapped (" + Errno.describe(errno) + ")");
    }
}
