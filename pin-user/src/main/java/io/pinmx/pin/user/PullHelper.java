package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;

import java.lang.foreign.Arena;

/**
 * The source side of a shared pull ({@link SharedPulls}): when a same-host peer pulling from this endpoint invites
 * it, the agent claims blocks from the back of that pull and writes them into the peer's region with
 * process_vm_writev, until none is left. A block it cannot copy (a region gone, a fault, a refused write) is given
 * back by marking the pull failed: the puller copies the rest itself and reports any fault as its own pull would.
 * Runs on the agent only.
 */
final class PullHelper
{
    /** Null without the same-host path. */
    private final PeerFileCache peerFiles;
    private final RegionTable regions;
    private final DriverCounters counters;
    private final VmCopier copier;

    PullHelper(final Arena arena, final PeerFileCache peerFiles, final RegionTable regions,
        final DriverCounters counters)
    {
        this.peerFiles = peerFiles;
        this.regions = regions;
        this.counters = counters;
        this.copier = new VmCopier(arena);
    }

    /** The endpoint at {@code pullerPort} asks for help with its pull in {@code slot} of {@code generation}. */
    void onInvitation(final int pullerPort, final int pullerSession, final int slot, final int generation)
    {
        final EndpointFile puller = peerFiles == null ? null : peerFiles.find(pullerPort & 0xFFFF, pullerSession);
        if (puller == null || puller.isOwn() || puller.sessionId() != pullerSession)
        {
            return;
        }
        final SharedPulls pulls = puller.sharedPulls();
        long block = pulls.claimBack(slot, generation);
        if (block == SharedPulls.NONE)
        {
            return;
        }
        // The slot's fields stay as they are while we hold a block: the puller waits for it before it ends the pull.
        final long length = pulls.length(slot);
        final long blockBytes = SharedPulls.blockBytes(length);
        if (length <= 0 || !resolve(puller, pulls, slot, length))
        {
            pulls.markFailed(slot, generation);
            return;
        }
        do
        {
            final long start = block * blockBytes;
            final long end = Math.min(length, start + blockBytes);
            if (start >= end || !copier.transfer(puller.pid(), true, start, end))
            {
                pulls.markFailed(slot, generation);
                return;
            }
            if (!pulls.addDone(slot, generation, end - start))
            {
                return;
            }
            counters.add(Counter.SHARED_PULL_BYTES_FOR_PEERS, end - start);
        }
        while ((block = pulls.claimBack(slot, generation)) != SharedPulls.NONE);
    }

    private boolean resolve(final EndpointFile puller, final SharedPulls pulls, final int slot, final long length)
    {
        return copier.resolveLocal(regions, pulls.sourceRegion(slot), RegionTable.ACCESS_READ,
                pulls.sourceOffset(slot), length) >= 0 &&
            copier.resolveRemote(puller.regions(), pulls.targetRegion(slot), RegionTable.ACCESS_WRITE,
                pulls.targetOffset(slot), length) >= 0;
    }
}
