package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link KernelEndpoint#cancelPull} on pinmx.ko: PINMX_IOC_PULL_CANCEL ends the endpoint's running pulls with a
 * handle under each pull's lock, so when the ioctl returns no reply is written into their regions any more; their
 * end events (PULL_FAILED, CANCELLED) are in the ring. A module without PINMX_FEATURE_NET_PULL_CANCEL cannot cancel:
 * the call is refused as unsupported and the pulls end on their own.
 */
final class KernelPullCancel
{
    private final KernelEndpoint endpoint;
    private final PinmxDevice device;

    KernelPullCancel(final KernelEndpoint endpoint, final PinmxDevice device)
    {
        this.endpoint = endpoint;
        this.device = device;
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
}
