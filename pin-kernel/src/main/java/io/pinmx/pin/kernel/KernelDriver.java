package io.pinmx.pin.kernel;

import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.EndpointAddress;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.wire.FrameKind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;

/**
 * The kernel provider of the driver contract: an FFM binding to /dev/pinmx (kmod/pinmx.ko). The module pins the
 * pages of declared regions on demand (MMU notifiers unpin them when the mapping changes), sends the frames the
 * library encodes, puts received frames and pull completions into a ring mapped into this process, and runs the
 * pull engine in softirq on both sides. Options come from {@link KernelDriverOptions} in the
 * {@link EndpointConfig} (defaults otherwise) with the config's {@code kernel.} keys over them; the board index is
 * ignored: a board is the bound interface.
 */
public final class KernelDriver implements PinDriver
{
    /** What this provider is, the start of every {@link DriverInfo#chosenBecause()}. */
    public static final String DESCRIPTION = "kernel driver: pinmx.ko over /dev/pinmx, Ethernet frames; pins memory";

    private final String chosenBecause;

    /**
     * @param chosenBecause why the caller picked this provider, for {@link DriverInfo#chosenBecause()}.
     */
    public KernelDriver(final String chosenBecause)
    {
        this.chosenBecause = chosenBecause;
    }

    /** Registered for ServiceLoader: says only that it was listed. */
    public KernelDriver()
    {
        this("listed by ServiceLoader");
    }

    /**
     * What an endpoint would look like with the default options, on a 1500-byte link. Describes the module when
     * /dev/pinmx can be read, and why not otherwise; never throws.
     */
    @Override
    public DriverInfo info()
    {
        final Probe probe = probe(KernelDriverOptions.DEFAULT_DEVICE, PinmxAbi.ABI_VERSION);
        return new DriverInfo(KernelEndpoint.NAME, DESCRIPTION + "; " + probe.reason() + "; chosen because " +
            chosenBecause, true, PinmxAbi.MAX_SEGMENTS, PinmxAbi.MAX_REGIONS, EndpointAddress.MAX_ENDPOINT_INDEX + 1,
            PinmxAbi.MXOE_MAX_BYTES - FrameKind.MEDIUM_FRAG.headerBytes(),
            PinmxAbi.MXOE_MAX_BYTES - FrameKind.PULL_REPLY.headerBytes(), EnumSet.of(DriverFeature.ETHERNET));
    }

    @Override
    public DriverEndpoint open(final EndpointConfig config)
    {
        return KernelEndpoint.open(config.endpointIndex(), KernelProviderOptions.resolve(config), chosenBecause);
    }

    /**
     * Whether the kernel provider can run here: the device exists, opens, and its module speaks
     * {@code abiVersion} with the networking features. Asks only PINMX_IOC_INFO, which needs no hello.
     *
     * @param device     the device file.
     * @param abiVersion the ABI version this library speaks (tests give another to simulate a mismatch).
     * @return usable or not, and why, naming the device and the versions.
     */
    public static Probe probe(final Path device, final int abiVersion)
    {
        if (!Files.exists(device))
        {
            return new Probe(false, "no " + device + " on this host (the pinmx kernel module is not loaded)");
        }
        final PinmxDevice file;
        try
        {
            file = PinmxDevice.open(device);
        }
        catch (final DriverException e)
        {
            return new Probe(false, e.getMessage());
        }
        try
        {
            final MemorySegment info = file.info(IoctlScratch.get());
            final int moduleVersion = info.get(ValueLayout.JAVA_INT, PinmxAbi.INFO_ABI_VERSION);
            final long features = info.get(ValueLayout.JAVA_LONG, PinmxAbi.INFO_FEATURES);
            final long net = PinmxAbi.FEATURE_NET_IFACE | PinmxAbi.FEATURE_NET_SEND | PinmxAbi.FEATURE_NET_EVENT_RING;
            if (moduleVersion != abiVersion)
            {
                return new Probe(false, device + " speaks pinmx ABI version " + moduleVersion +
                    ", this library speaks version " + abiVersion);
            }
            if ((features & net) != net)
            {
                return new Probe(false, device + " (ABI version " + moduleVersion + ") lacks networking: features " +
                    PinmxAbi.describeFeatures(features));
            }
            return new Probe(true, device + " speaks pinmx ABI version " + moduleVersion + ", features " +
                PinmxAbi.describeFeatures(features));
        }
        catch (final DriverException e)
        {
            return new Probe(false, e.getMessage());
        }
        finally
        {
            file.close();
        }
    }

    /**
     * Outcome of {@link #probe(Path, int)}.
     *
     * @param usable true when endpoints can be opened on the device.
     * @param reason what was found, naming the device, the ABI versions or the errno.
     */
    public record Probe(boolean usable, String reason)
    {
    }
}
