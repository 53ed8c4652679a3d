package io.pinmx.pin.kernel;

import java.nio.file.Path;

/**
 * Options of the kernel provider, given to {@code EndpointConfig.Builder.options(KernelDriverOptions.class, ...)}.
 *
 * @param device        the pinmx device file.
 * @param interfaceName interface the endpoint binds to (attached to pinmx.ko; {@code lo} is allowed).
 * @param attach        true: when the interface is not attached yet, attach it (PINMX_IOC_ATTACH, needs
 *                      CAP_NET_ADMIN); false: binding to an unattached interface fails.
 * @param pinMode       PinmxAbi.PIN_DECLARE, PIN_ON_DEMAND or PIN_OVERLAPPED for this endpoint's regions, or -1
 *                      for the module's default ({@code pin_mode} parameter).
 * @param abiVersion    the ABI version said in PINMX_IOC_HELLO: {@link PinmxAbi#ABI_VERSION}; tests give another
 *                      to see how a mismatched module is reported.
 * @param pullsOnWire   true: every pull goes as PULL / PULL_REPLY frames (PINMX_PULL_WIRE), even from an endpoint
 *                      on the same interface, which the module otherwise serves with one region-to-region copy;
 *                      for tests and measurements of the frame path.
 */
public record KernelDriverOptions(
    Path device, String interfaceName, boolean attach, int pinMode, int abiVersion, boolean pullsOnWire)
{
    /** Where pinmx.ko's misc device appears. */
    public static final Path DEFAULT_DEVICE = Path.of("/dev/pinmx");

    /**
     * @throws IllegalArgumentException naming the first bad option.
     */
    public KernelDriverOptions
    {
        if (null == device || null == interfaceName)
        {
            throw new IllegalArgumentException("kernel driver options: device and interfaceName are required");
        }
        if (interfaceName.isEmpty() || interfaceName.length() >= PinmxAbi.IFNAMSIZ)
        {
            throw new IllegalArgumentException("kernel driver options: interface name '" + interfaceName +
                "' must have 1.." + (PinmxAbi.IFNAMSIZ - 1) + " characters");
        }
        if (pinMode < -1 || pinMode >= PinmxAbi.PIN_NR_MODES)
        {
            throw new IllegalArgumentException("kernel driver options: pin mode " + pinMode + " not in -1.." +
                (PinmxAbi.PIN_NR_MODES - 1));
        }
    }

    /**
     * /dev/pinmx, interface {@code lo}, attach if needed, the module's pin mode, this library's ABI version,
     * same-interface pulls as one copy.
     */
    public static KernelDriverOptions defaults()
    {
        return new KernelDriverOptions(DEFAULT_DEVICE, "lo", true, -1, PinmxAbi.ABI_VERSION, false);
    }

    public KernelDriverOptions withInterface(final String name)
    {
        return new KernelDriverOptions(device, name, attach, pinMode, abiVersion, pullsOnWire);
    }

    public KernelDriverOptions withDevice(final Path path)
    {
        return new KernelDriverOptions(path, interfaceName, attach, pinMode, abiVersion, pullsOnWire);
    }

    public KernelDriverOptions withPinMode(final int mode)
    {
        return new KernelDriverOptions(device, interfaceName, attach, mode, abiVersion, pullsOnWire);
    }

    public KernelDriverOptions withAbiVersion(final int version)
    {
        return new KernelDriverOptions(device, interfaceName, attach, pinMode, version, pullsOnWire);
    }

    public KernelDriverOptions withPullsOnWire(final boolean onWire)
    {
        return new KernelDriverOptions(device, interfaceName, attach, pinMode, abiVersion, onWire);
    }
}
