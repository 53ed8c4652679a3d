package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.ContractChecks;
import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.PullSpec;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link KernelEndpoint#startPull} and {@link KernelEndpoint#cancelPull} on pinmx.ko. PINMX_IOC_PULL starts a pull
 * the module runs in softirq; the pull holds its peer entry until its end event is delivered. PINMX_IOC_PULL_CANCEL
 * ends the endpoint's running pulls with a handle under each pull's lock, so when the ioctl returns no reply is written
 * into their regions any more; their end events (PULL_FAILED, CANCELLED) are in the ring. A module without
 * PINMX_FEATURE_NET_PULL_CANCEL cannot cancel: the call is refused as unsupported and the pulls end on their own.
 */
final class KernelPulls
{
    private final KernelEndpoint endpoint;
    private final PinmxDevice device;
    private final DriverCounters counters;
    private final byte pullFlags;
    private final KernelEndpoint.PeerIoctl<PullSpec> pullIoctl = this::ioctlPull;

    /** @param onWire the module's pulls go on the wire even to an endpoint on its own interface. */
    KernelPulls(final KernelEndpoint endpoint, final PinmxDevice device, final DriverCounters counters,
        final boolean onWire)
    {
        this.endpoint = endpoint;
        this.device = device;
        this.counters = counters;
        this.pullFlags = (byte)(onWire ? PinmxAbi.PULL_WIRE : 0);
    }

    void start(final PullSpec spec)
    {
        ContractChecks.pull(spec);
        endpoint.requireModuleFeature(PinmxAbi.FEATURE_NET_PULL, DriverError.NO_RESOURCES, "startPull " + spec);
        final int rc = endpoint.issueHoldingPeer("startPull", spec.peerIndex(), spec, pullIoctl);
        if (rc != 0)
        {
            throw failure(-rc, spec);
        }
        counters.increment(Counter.PULLS_STARTED);
    }

    /** @return how many running pulls the module ended (0: none had the handle or all had ended). */
    int cancel(final int pullHandle)
    {
        endpoint.requireModuleFeature(PinmxAbi.FEATURE_NET_PULL_CANCEL, DriverError.UNSUPPORTED, "cancelPull " + pullHandle);
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment argument = scratch.struct(PinmxAbi.PULL_CANCEL.byteSize());
        argument.set(ValueLayout.JAVA_INT, PinmxAbi.PULL_CANCEL_HANDLE, pullHandle);
        final int rc = endpoint.ioctlHot("cancelPull", scratch, PinmxAbi.IOC_PULL_CANCEL, argument);
        if (rc != 0)
        {
            throw new DriverException(PinmxDevice.kindOf(-rc), -rc, "PINMX_IOC_PULL_CANCEL of pull " + pullHandle +
                " on " + device.path() + ": " + Errno.describe(-rc), null);
        }
        return argument.get(ValueLayout.JAVA_INT, PinmxAbi.PULL_CANCEL_CANCELLED);
    }

    /** The pull's hold on its peer is released when its end event has been delivered. */
    private int ioctlPull(final PullSpec spec, final MacPeer peer)
    {
        final IoctlScratch scratch = IoctlScratch.get();
        final MemorySegment pull = scratch.pull;
        KernelEndpoint.putMac(pull, PinmxAbi.PULL_PEER_MAC, peer.mac());
        pull.set(ValueLayout.JAVA_BYTE, PinmxAbi.PULL_PEER_ENDPOINT, (byte)spec.remoteEndpointIndex());
        pull.set(ValueLayout.JAVA_BYTE, PinmxAbi.PULL_FLAGS, pullFlags);
        pull.set(ValueLayout.JAVA_INT, PinmxAbi.PULL_PEER_SESSION, spec.remoteSessionId());
        pull.set(ValueLayout.JAVA_INT, PinmxAbi.PULL_REMOTE_REGION, spec.remoteRegionId());
        pull.set(ValueLayout.JAVA_INT, PinmxAbi.PULL_LOCAL_REGION, spec.localRegionId());
        pull.set(ValueLayout.JAVA_INT, PinmxAbi.PULL_HANDLE, spec.pullHandle());
        pull.set(ValueLayout.JAVA_LONG, PinmxAbi.PULL_REMOTE_OFFSET, spec.remoteOffset());
        pull.set(ValueLayout.JAVA_LONG, PinmxAbi.PULL_LOCAL_OFFSET, spec.localOffset());
        pull.set(ValueLayout.JAVA_LONG, PinmxAbi.PULL_LENGTH, spec.length());
        pull.set(ValueLayout.JAVA_LONG, PinmxAbi.PULL_REMOTE_KEY, spec.remoteKey());
        return endpoint.ioctlHot("startPull", scratch, PinmxAbi.IOC_PULL, pull);
    }

    private DriverException failure(final int errno, final PullSpec spec)
    {
        final String cause = switch (errno)
        {
            case Errno.ENOENT -> "local region " + spec.localRegionId() + " is not declared";
            case Errno.EACCES -> "local region " + spec.localRegionId() + " was declared by another process";
            case Errno.EPERM -> "local region " + spec.localRegionId() + " was not declared WRITE";
            case Errno.ERANGE -> "local offset " + spec.localOffset() + " + length " + spec.length() +
                " reaches past the end of local region " + spec.localRegionId();
            case Errno.EFAULT -> "local region " + spec.localRegionId() + " has a page that cannot be pinned";
            case Errno.EBUSY -> PinmxAbi.MAX_PULLS + " pulls are running already";
            case Errno.ENOBUFS -> "the pull ended in the ioctl and the event ring has no free slot for its end event";
            default -> "refused";
        };
        final DriverError kind = switch (errno)
        {
            case Errno.EPERM -> DriverError.BAD_ARGUMENT;
            case Errno.ENETDOWN, Errno.ENOTCONN -> DriverError.PEER_UNREACHABLE;
            default -> PinmxDevice.kindOf(errno);
        };
        return new DriverException(kind, errno, "PINMX_IOC_PULL on " + device.path() + " (" + spec + "): " + cause +
            ": " + Errno.describe(errno), null);
    }
}
