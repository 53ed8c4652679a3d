package io.pinmx.pin.user;

import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;

/**
 * The puller's side of a same-host pull of at least {@code sharedPullMinBytes}: publish it in a {@link SharedPulls}
 * slot, invite the source endpoint's agent through its ring (ringing its doorbell when its caller is blocked in its
 * own wait: that core idles otherwise), copy blocks from the front with process_vm_readv while that agent (if it
 * polls, or once woken) copies from the back, then wait for the block it holds. Used by the
 * {@link Puller} on the agent, with the puller's {@link VmCopier} resolved over the whole pull: after a failed copy
 * that copier describes the fault exactly as a single process_vm_readv would.
 */
final class SharedPullCopy
{
    /** How a shared copy ended. */
    enum Outcome
    {
        /** Every byte is in the local region. */
        COPIED,
        /** A copy of the puller's failed; the copier says why and where. */
        COPY_FAILED,
        /** The source's agent held a block for longer than a pull may take: its slot is retired. */
        HELPER_STUCK
    }

    private static final int SPINS_BETWEEN_CHECKS = 1024;

    private final SharedPulls own;
    private final VmCopier copier;
    private final AgentFrameSender sender;
    private final DriverCounters counters;
    private final int sessionId;
    private final int port;
    private final byte[] hostBytes;
    private final long helperTimeoutNs;

    SharedPullCopy(
        final SharedPulls own, final VmCopier copier, final AgentFrameSender sender, final DriverCounters counters,
        final int sessionId, final int port, final byte[] hostBytes, final long helperTimeoutNs)
    {
        this.own = own;
        this.copier = copier;
        this.sender = sender;
        this.counters = counters;
        this.sessionId = sessionId;
        this.port = port;
        this.hostBytes = hostBytes;
        this.helperTimeoutNs = helperTimeoutNs;
    }

    /** Copy the slot's pull from {@code source}, whose pid the copier's sides were resolved for. */
    Outcome copy(final PullSlot slot, final EndpointFile source)
    {
        final int index = own.open(slot.remoteRegion, slot.remoteOffset, slot.localRegion, slot.localOffset,
            slot.length);
        if (index == SharedPulls.NONE)
        {
            return copier.transfer(source.pid(), false, slot.length) ? Outcome.COPIED : Outcome.COPY_FAILED;
        }
        final ShmFrameRing ring = source.ring();
        if (ring.offerSharedPull(sessionId, index, own.generation(index), port, hostBytes) && ring.claimHelperWakeUp())
        {
            sender.ringDoorbell(slot.peer.socketAddress(slot.remoteEndpoint));
        }
        final long blockBytes = SharedPulls.blockBytes(slot.length);
        boolean copied = true;
        long block;
        while ((block = own.claimFront(index)) != SharedPulls.NONE)
        {
            final long start = block * blockBytes;
            if (!copier.transfer(source.pid(), false, start, Math.min(slot.length, start + blockBytes)))
            {
                own.stopClaims(index);
                copied = false;
                break;
            }
        }
        final long helperStart = Math.min(own.helperFirstBlock(index) * blockBytes, slot.length);
        final long helperLeftEnd = awaitHelper(index, helperStart, slot.length, source);
        if (helperLeftEnd < 0)
        {
            own.retire(index);
            return Outcome.HELPER_STUCK;
        }
        own.close(index);
        counters.add(Counter.SHARED_PULL_BYTES_BY_SOURCE, slot.length - helperLeftEnd);
        if (!copied)
        {
            return Outcome.COPY_FAILED;
        }
        return helperLeftEnd == helperStart || copier.transfer(source.pid(), false, helperStart, helperLeftEnd) ?
            Outcome.COPIED : Outcome.COPY_FAILED;
    }

    /**
     * Wait until the helper has copied its claimed range or given up on it.
     *
     * @return the end of what it left uncopied (its range starts at {@code helperStart}; equal: nothing left), or
     *         -1 if it held a block past the timeout. A helper whose process is gone left its range uncopied: the
     *         puller's own copy of it then fails naming the process.
     */
    private long awaitHelper(final int index, final long helperStart, final long length, final EndpointFile source)
    {
        final long deadlineNs = System.nanoTime() + helperTimeoutNs;
        int spins = 0;
        while (true)
        {
            final long leftEnd = length - own.helperDoneBytes(index);
            if (leftEnd <= helperStart)
            {
                return helperStart;
            }
            if (own.helperFailed(index))
            {
                return leftEnd;
            }
            if (++spins % SPINS_BETWEEN_CHECKS == 0)
            {
                if (!source.ownerAlive())
                {
                    return leftEnd;
                }
                if (System.nanoTime() - deadlineNs > 0)
                {
                    return -1;
                }
            }
            Thread.onSpinWait();
        }
    }
}
