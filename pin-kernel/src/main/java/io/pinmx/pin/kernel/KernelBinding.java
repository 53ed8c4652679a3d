package io.pinmx.pin.kernel;

import io.pinmx.pin.provider.Errno;
import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * How a kernel endpoint comes to be: /dev/pinmx opened, the module's features checked, hello said, the pin mode
 * set, the file bound to an interface and endpoint index (attaching the interface first if allowed and needed) and
 * the event ring mapped; what came out of it, handed to {@link KernelEndpoint}, which owns it from then on.
 *
 * @param device      the open file.
 * @param features    the module's PinmxAbi.FEATURE_* bits.
 * @param maxSegments segments per region the module takes.
 * @param maxRegions  regions per endpoint the module takes.
 * @param board       the interface's MAC as a board.
 * @param index       the endpoint index bound.
 * @param session     the session the module chose.
 * @param mtu         the interface's MTU.
 * @param ring        the mapped event ring.
 */
record KernelBinding(
    PinmxDevice device, long features, int maxSegments, int maxRegions, BoardAddress board, int index, int session,
    int mtu, MemorySegment ring)
{
    private static final long NET_FEATURES =
        PinmxAbi.FEATURE_NET_IFACE | PinmxAbi.FEATURE_NET_SEND | PinmxAbi.FEATURE_NET_EVENT_RING;

    /**
     * Open the device, say hello, set the pin mode, bind (attaching the interface first if allowed and needed)
     * and map the event ring; undoes what was done if a step fails.
     *
     * @throws DriverException naming the device, the step and the errno.
     */
    static KernelBinding open(final int endpointIndex, final KernelDriverOptions options)
    {
        final PinmxDevice device = PinmxDevice.open(options.device());
        final IoctlScratch scratch = IoctlScratch.get();
        long mapped = Libc.MAP_FAILED;
        try
        {
            final MemorySegment moduleInfo = device.info(scratch);
            final long features = moduleInfo.get(ValueLayout.JAVA_LONG, PinmxAbi.INFO_FEATURES);
            final int maxSegments = moduleInfo.get(ValueLayout.JAVA_INT, PinmxAbi.INFO_MAX_SEGMENTS);
            final int maxRegions = moduleInfo.get(ValueLayout.JAVA_INT, PinmxAbi.INFO_MAX_REGIONS);
            if ((features & NET_FEATURES) != NET_FEATURES)
            {
                throw new DriverException(DriverError.NO_RESOURCES, Errno.ENOTTY, options.device() +
                    ": pinmx.ko has features " + PinmxAbi.describeFeatures(features) + " but endpoints need " +
                    PinmxAbi.describeFeatures(NET_FEATURES), null);
            }
            device.hello(scratch, options.abiVersion());
            if (options.pinMode() >= 0)
            {
                final MemorySegment mode = scratch.struct(PinmxAbi.PIN_MODE_REQ.byteSize());
                mode.set(ValueLayout.JAVA_INT, PinmxAbi.PIN_MODE_REQ_PIN_MODE, options.pinMode());
                device.check(scratch, PinmxAbi.IOC_SET_PIN_MODE, mode, "PINMX_IOC_SET_PIN_MODE",
                    "pin mode " + options.pinMode());
            }
            final MemorySegment bind = bind(device, scratch, options, endpointIndex);
            final int session = bind.get(ValueLayout.JAVA_INT, PinmxAbi.BIND_SESSION);
            final int mtu = bind.get(ValueLayout.JAVA_INT, PinmxAbi.BIND_MTU);
            final byte[] mac = bind.asSlice(PinmxAbi.BIND_MAC, BoardAddress.MAC_BYTES).toArray(ValueLayout.JAVA_BYTE);
            mapped = Libc.mmap(scratch.captureState, 0, PinmxAbi.RING_BYTES,
                Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_SHARED, device.fd(), 0);
            if (mapped == Libc.MAP_FAILED)
            {
                final int errno = Libc.errno(scratch.captureState);
                throw new DriverException(DriverError.SYSTEM, errno, "mmap of the event ring (" + PinmxAbi.RING_BYTES +
                    " bytes) of " + options.device() + " endpoint " + endpointIndex + " failed: " +
                    Errno.describe(errno), null);
            }
            return new KernelBinding(device, features, maxSegments, maxRegions, BoardAddress.ethernet(mac),
                endpointIndex, session, mtu, MemorySegment.ofAddress(mapped).reinterpret(PinmxAbi.RING_BYTES));
        }
        catch (final RuntimeException e)
        {
            if (mapped != Libc.MAP_FAILED)
            {
                Libc.munmap(scratch.captureState, mapped, PinmxAbi.RING_BYTES);
            }
            device.close();
            throw e;
        }
    }

    private static MemorySegment bind(
        final PinmxDevice device, final IoctlScratch scratch, final KernelDriverOptions options, final int index)
    {
        final String what = "interface " + options.interfaceName() + " endpoint index " + index;
        MemorySegment bind = bindRequest(scratch, options.interfaceName(), index);
        int rc = device.ioctl(scratch, PinmxAbi.IOC_BIND, bind);
        if (rc == -Errno.ENODEV && options.attach())
        {
            final MemorySegment attach = scratch.struct(PinmxAbi.ATTACH.byteSize());
            putName(attach, PinmxAbi.ATTACH_IFNAME, options.interfaceName());
            device.check(scratch, PinmxAbi.IOC_ATTACH, attach, "PINMX_IOC_ATTACH",
                "interface " + options.interfaceName() + ", needs CAP_NET_ADMIN");
            bind = bindRequest(scratch, options.interfaceName(), index);
            rc = device.ioctl(scratch, PinmxAbi.IOC_BIND, bind);
        }
        if (rc == -Errno.EADDRINUSE)
        {
            throw new DriverException(DriverError.NO_RESOURCES, Errno.EADDRINUSE, "PINMX_IOC_BIND on " +
                device.path() + ": " + what + " is held by another endpoint: " + Errno.describe(Errno.EADDRINUSE), null);
        }
        if (rc != 0)
        {
            throw device.failure(-rc, "PINMX_IOC_BIND", what +
                (rc == -Errno.ENODEV ? " (interface missing or not attached)" : ""));
        }
        return bind;
    }

    private static MemorySegment bindRequest(final IoctlScratch scratch, final String interfaceName, final int index)
    {
        final MemorySegment bind = scratch.struct(PinmxAbi.BIND.byteSize());
        putName(bind, PinmxAbi.BIND_IFNAME, interfaceName);
        bind.set(ValueLayout.JAVA_INT, PinmxAbi.BIND_INDEX, index);
        return bind;
    }

    private static void putName(final MemorySegment struct, final long offset, final String name)
    {
        final byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        MemorySegment.copy(bytes, 0, struct, ValueLayout.JAVA_BYTE, offset, bytes.length);
    }
}
