package io.pinmx.pin.kernel;

import io.pinmx.pin.spi.DriverException;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What pinmx.ko says about itself, read without opening an endpoint (for {@code pinmx-admin}): its version and
 * parameters from sysfs, ABI version, features, limits and module-wide counters from /dev/pinmx (PINMX_IOC_INFO
 * and PINMX_IOC_COUNTERS need no hello), attached interfaces and bound endpoints from debugfs. Each source
 * that cannot be read leaves its part empty and says why in its problem field; nothing here throws.
 *
 * @param loaded          true when /sys/module/pinmx exists.
 * @param version         MODULE_VERSION, or "" when not loaded or not given.
 * @param parameters      module parameters by name (sysfs values, trimmed).
 * @param device          the device file asked.
 * @param abiVersion      the module's ABI version, or -1 when the device could not be asked.
 * @param features        PINMX_FEATURE_* bits.
 * @param featureNames    those bits by name.
 * @param maxSegments     segments per region.
 * @param maxRegions      regions per endpoint.
 * @param counters        module-wide counters by {@link KernelCounter} ordinal, empty when unknown.
 * @param deviceProblem   why the device could not be asked, or null.
 * @param interfaces      attached interfaces.
 * @param endpoints       endpoints bound to them.
 * @param debugfsProblem  why the debugfs listing could not be read, or null.
 */
public record KernelModuleStatus(
    boolean loaded,
    String version,
    SortedMap<String, String> parameters,
    Path device,
    int abiVersion,
    long features,
    String featureNames,
    int maxSegments,
    int maxRegions,
    long[] counters,
    String deviceProblem,
    List<Interface> interfaces,
    List<BoundEndpoint> endpoints,
    String debugfsProblem)
{
    /** Where the module's sysfs directory is. */
    public static final Path SYS_MODULE = Path.of("/sys/module/pinmx");
    /** The module's debugfs listing of interfaces and endpoints. */
    public static final Path DEBUGFS_INTERFACES = Path.of("/sys/kernel/debug/pinmx/interfaces");

    /**
     * An attached interface.
     *
     * @param name    its name in its network namespace.
     * @param ifindex its index.
     * @param mtu     its MTU.
     * @param mac     its MAC address.
     */
    public record Interface(String name, int ifindex, int mtu, String mac)
    {
    }

    /**
     * An endpoint bound to an interface.
     *
     * @param iface     the interface's name.
     * @param index     the endpoint index on it.
     * @param id        the module's node-wide endpoint id.
     * @param sessionId its session id.
     * @param pinMode   its pin mode (0 at declaration, 1 on demand, 2 overlapped).
     */
    public record BoundEndpoint(String iface, int index, int id, int sessionId, int pinMode)
    {
    }

    /**
     * @return the status of the module on this host, at the standard paths.
     */
    public static KernelModuleStatus read()
    {
        return read(SYS_MODULE, KernelDriverOptions.DEFAULT_DEVICE, DEBUGFS_INTERFACES);
    }

    /**
     * @param sysModule  the module's sysfs directory.
     * @param device     the device file.
     * @param debugfs    the debugfs interfaces file.
     * @return what could be read, and why the rest could not.
     */
    public static KernelModuleStatus read(final Path sysModule, final Path device, final Path debugfs)
    {
        final boolean loaded = Files.isDirectory(sysModule);
        final String version = loaded ? readTrimmed(sysModule.resolve("version")) : "";
        final SortedMap<String, String> parameters = loaded ? parameters(sysModule.resolve("parameters")) :
            Collections.emptySortedMap();

        int abiVersion = -1;
        long features = 0;
        int maxSegments = 0;
        int maxRegions = 0;
        long[] counters = new long[0];
        String deviceProblem = null;
        if (!Files.exists(device))
        {
            deviceProblem = "no " + device + " (pinmx.ko is not loaded)";
        }
        else
        {
            try
            {
                final PinmxDevice file = PinmxDevice.open(device);
                try
                {
                    final IoctlScratch scratch = IoctlScratch.get();
                    final MemorySegment info = file.info(scratch);
                    abiVersion = info.get(ValueLayout.JAVA_INT, PinmxAbi.INFO_ABI_VERSION);
                    features = info.get(ValueLayout.JAVA_LONG, PinmxAbi.INFO_FEATURES);
                    maxSegments = info.get(ValueLayout.JAVA_INT, PinmxAbi.INFO_MAX_SEGMENTS);
                    maxRegions = info.get(ValueLayout.JAVA_INT, PinmxAbi.INFO_MAX_REGIONS);
                    final MemorySegment values = scratch.struct(PinmxAbi.COUNTERS.byteSize());
                    file.check(scratch, PinmxAbi.IOC_COUNTERS, values, "PINMX_IOC_COUNTERS", "module counters");
                    counters = new long[KernelCounter.values().length];
                    MemorySegment.copy(values, ValueLayout.JAVA_LONG, PinmxAbi.COUNTERS_VALUE, counters, 0,
                        counters.length);
                }
                finally
                {
                    file.close();
                }
            }
            catch (final DriverException ex)
            {
                deviceProblem = ex.getMessage();
            }
        }

        final List<Interface> interfaces = new ArrayList<>();
        final List<BoundEndpoint> endpoints = new ArrayList<>();
        String debugfsProblem = null;
        if (!loaded)
        {
            debugfsProblem = "pinmx.ko is not loaded";
        }
        else
        {
            try
            {
                parseListing(Files.readAllLines(debugfs), interfaces, endpoints);
            }
            catch (final IOException | RuntimeException ex)
            {
                debugfsProblem = "cannot read " + debugfs + " (" + ex.getClass().getSimpleName() + ": " +
                    ex.getMessage() + "; needs root and debugfs mounted at /sys/kernel/debug)";
            }
        }
        return new KernelModuleStatus(loaded, version, parameters, device, abiVersion, features,
            abiVersion < 0 ? "" : PinmxAbi.describeFeatures(features), maxSegments, maxRegions, counters,
            deviceProblem, List.copyOf(interfaces), List.copyOf(endpoints), debugfsProblem);
    }

    /**
     * Parse the debugfs listing (kmod/src/net.c, pinmx_net_show).
     *
     * @throws IllegalArgumentException naming a line that is neither form.
     */
    static void parseListing(final List<String> lines, final List<Interface> interfaces,
        final List<BoundEndpoint> endpoints)
    {
        for (final String line : lines)
        {
            final String[] w = line.trim().split("\\s+");
            if (w.length == 8 && w[0].equals("iface") && w[2].equals("ifindex") && w[4].equals("mtu") &&
                w[6].equals("mac"))
            {
                interfaces.add(new Interface(w[1], Integer.parseInt(w[3]), Integer.parseInt(w[5]), w[7]));
            }
            else if (w.length == 9 && w[0].equals("endpoint") && w[3].equals("id") && w[5].equals("session") &&
                w[7].equals("mode") && w[6].startsWith("0x"))
            {
                endpoints.add(new BoundEndpoint(w[1], Integer.parseInt(w[2]), Integer.parseInt(w[4]),
                    Integer.parseUnsignedInt(w[6].substring(2), 16), Integer.parseInt(w[8])));
            }
            else if (!line.isBlank())
            {
                throw new IllegalArgumentException("unexpected line '" + line + "'");
            }
        }
    }

    private static SortedMap<String, String> parameters(final Path directory)
    {
        final SortedMap<String, String> parameters = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory))
        {
            for (final Path file : files)
            {
                parameters.put(file.getFileName().toString(), readTrimmed(file));
            }
        }
        catch (final IOException ex)
        {
            return Collections.emptySortedMap();
        }
        return Collections.unmodifiableSortedMap(parameters);
    }

    /**
     * From sysfs alone, without opening the device (what {@code --version} says).
     *
     * @return {@code pinmx.ko VERSION loaded}, {@code pinmx.ko loaded (no version)} or {@code pinmx.ko not loaded}.
     */
    static String loadState(final Path sysModule)
    {
        if (!Files.isDirectory(sysModule))
        {
            return "pinmx.ko not loaded";
        }
        final String version = readTrimmed(sysModule.resolve("version"));
        return version.isEmpty() ? "pinmx.ko loaded (no version)" : "pinmx.ko " + version + " loaded";
    }

    private static String readTrimmed(final Path file)
    {
        try
        {
            return Files.readString(file).trim();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }
}
