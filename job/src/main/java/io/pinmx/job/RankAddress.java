package io.pinmx.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Where a rank can be reached by the other ranks of its job: the IP address its user-driver endpoint binds (and its
 * peers send to) and the interface the kernel provider attaches. Chosen per job, first that applies:
 * <ol>
 * <li>{@value #ADDRESS_VARIABLE}: an IP address of this host, and the interface that holds it;</li>
 * <li>{@value #INTERFACE_VARIABLE}: an interface by name, and its first IPv4 address (else its first address);</li>
 * <li>the route to rank 0: the local address of this rank's control connection to rank 0 (rank 0 itself: the
 * local address at which the other ranks reached it), and the interface that holds it;</li>
 * <li>under PMIx, which has no connection to learn a route from: loopback when PMIx says every rank is on this
 * node, else the address of the interface carrying the default route, else the only non-loopback IPv4 address
 * of this host, else an error asking for one of the variables.</li>
 * </ol>
 * Rank 0 listens for the bootstrap, when PINMX_BOOTSTRAP is a file, at {@link #listenAddress}: the same variables,
 * then the address of the interface that carries the default route, then loopback.
 *
 * @param address       the address; null only when {@value #INTERFACE_VARIABLE} names an interface without one
 *                      (enough for the kernel provider, which needs only the interface).
 * @param interfaceName the interface.
 * @param chosenBy      which rule chose it, for messages and benchmark headers.
 */
public record RankAddress(InetAddress address, String interfaceName, String chosenBy)
{
    /** An IP address of this host that the job's ranks bind to. */
    public static final String ADDRESS_VARIABLE = "PINMX_ADDRESS";
    /** An interface whose address the job's ranks bind to and which the kernel provider attaches. */
    public static final String INTERFACE_VARIABLE = "PINMX_IFACE";
    private static final Path ROUTES = Path.of("/proc/net/route");
    private static final String DEFAULT_DESTINATION = "00000000";

    /**
     * This rank's address: from the variables, else the route its control connection to rank 0 took (under PMIx,
     * {@link #withoutRoute}).
     *
     * @throws IllegalArgumentException naming the variable whose address or interface is not on this host.
     */
    public static RankAddress choose(final Map<String, String> env, final Job job)
    {
        final RankAddress given = fromVariables(env);
        if (null != given)
        {
            return given;
        }
        final InetAddress routed = job.controlAddress();
        if (null == routed)
        {
            return withoutRoute(job.nodeRanks(), job.size());
        }
        return new RankAddress(routed, interfaceHolding(routed, "the route to rank 0"),
            "the route to rank 0 (" + (0 == job.rank() ? "where the other ranks reached it" : "its control connection") +
            ")");
    }

    /**
     * A job whose control plane has no connection of its own (PMIx): loopback when every rank is on this node,
     * else the default route's interface, else the only non-loopback IPv4 address here.
     *
     * @param nodeRanks the ranks on this node as the launcher tells it, or null when unknown.
     * @throws IllegalArgumentException asking for PINMX_IFACE or PINMX_ADDRESS when none of those applies.
     */
    static RankAddress withoutRoute(final int[] nodeRanks, final int size)
    {
        if (null != nodeRanks && nodeRanks.length == size)
        {
            final InetAddress loopback = InetAddress.getLoopbackAddress();
            return new RankAddress(loopback, interfaceHolding(loopback, "loopback"),
                "loopback (every rank on this node, says PMIx)");
        }
        final String routeInterface = defaultRouteInterface();
        final InetAddress routed = null == routeInterface ? null : firstAddress(networkInterface(routeInterface));
        if (routed instanceof Inet4Address)
        {
            return new RankAddress(routed, routeInterface, "the default route's interface " + routeInterface);
        }
        final List<InetAddress> candidates = nonLoopbackIpv4();
        if (1 == candidates.size())
        {
            final InetAddress only = candidates.getFirst();
            return new RankAddress(only, interfaceHolding(only, "the only IPv4 address"),
                "the only non-loopback IPv4 address");
        }
        final List<String> notRunning = notRunningIpv4();
        throw new IllegalArgumentException("cannot tell which address the other ranks reach this one at (no " +
            "default route, " + candidates.size() + " non-loopback IPv4 addresses on running interfaces" +
            (notRunning.isEmpty() ? "" : "; not running, down or without carrier: " + String.join(", ", notRunning)) +
            "): set " + INTERFACE_VARIABLE + " or " + ADDRESS_VARIABLE);
    }

    /**
     * The IPv4 addresses of interfaces Java does not count as up (set down, or a link without carrier, as a veth
     * whose peer is down or not yet marked running by the kernel), as "interface address", for the message that
     * finds none usable.
     */
    private static List<String> notRunningIpv4()
    {
        try
        {
            return NetworkInterface.networkInterfaces().filter(nic -> !isUp(nic))
                .flatMap(nic -> nic.inetAddresses().filter(a -> a instanceof Inet4Address)
                    .map(a -> nic.getName() + " " + a.getHostAddress()))
                .toList();
        }
        catch (final SocketException ex)
        {
            return List.of("(cannot list this host's interfaces: " + ex.getMessage() + ")");
        }
    }

    private static List<InetAddress> nonLoopbackIpv4()
    {
        try
        {
            return NetworkInterface.networkInterfaces().filter(RankAddress::isUp)
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress()).toList();
        }
        catch (final SocketException ex)
        {
            throw new UncheckedIOException("cannot list this host's interfaces", ex);
        }
    }

    /**
     * Where rank 0 listens when PINMX_BOOTSTRAP is a file: PINMX_BOOTSTRAP_HOST, the variables of this class, the
     * address of the interface carrying the default route, loopback.
     *
     * @throws IllegalArgumentException naming the variable whose address or interface is not on this host.
     */
    public static String listenAddress(final Map<String, String> env)
    {
        final String host = env.get(BootstrapAddress.HOST_VARIABLE);
        if (null != host && !host.isBlank())
        {
            return host.trim();
        }
        final RankAddress given = fromVariables(env);
        if (null != given)
        {
            if (null == given.address)
            {
                throw new IllegalArgumentException(INTERFACE_VARIABLE + "=" + given.interfaceName +
                    ": the interface has no IP address, so rank 0 cannot listen on it; set " +
                    BootstrapAddress.HOST_VARIABLE);
            }
            return given.address.getHostAddress();
        }
        final String routeInterface = defaultRouteInterface();
        final InetAddress routed = null == routeInterface ? null : firstAddress(networkInterface(routeInterface));
        return (null == routed ? InetAddress.getLoopbackAddress() : routed).getHostAddress();
    }

    private static RankAddress fromVariables(final Map<String, String> env)
    {
        final String literal = env.get(ADDRESS_VARIABLE);
        if (null != literal && !literal.isBlank())
        {
            final InetAddress address;
            try
            {
                address = InetAddress.ofLiteral(literal.trim());
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(ADDRESS_VARIABLE + "=" + literal + " is not an IP address", ex);
            }
            return new RankAddress(address, interfaceHolding(address, ADDRESS_VARIABLE + "=" + literal),
                ADDRESS_VARIABLE + "=" + literal);
        }
        final String name = env.get(INTERFACE_VARIABLE);
        if (null != name && !name.isBlank())
        {
            final NetworkInterface nic = networkInterface(name.trim());
            if (null == nic)
            {
                throw new IllegalArgumentException(INTERFACE_VARIABLE + "=" + name + ": no such interface here " +
                    "(interfaces: " + interfaceNames() + ")");
            }
            if (!isUp(nic))
            {
                throw new IllegalArgumentException(INTERFACE_VARIABLE + "=" + name + ": the interface is down");
            }
            return new RankAddress(firstAddress(nic), nic.getName(), INTERFACE_VARIABLE + "=" + name);
        }
        return null;
    }

    /**
     * @return the address, for the user driver.
     * @throws IllegalArgumentException naming the interface when it has no IP address.
     */
    public InetAddress requireAddress()
    {
        if (null == address)
        {
            throw new IllegalArgumentException("interface " + interfaceName + " (" + chosenBy + ") has no IP address " +
                "to bind the user driver to; give one with " + ADDRESS_VARIABLE);
        }
        return address;
    }

    private static String interfaceHolding(final InetAddress address, final String source)
    {
        try
        {
            final NetworkInterface nic = NetworkInterface.getByInetAddress(address);
            if (null == nic)
            {
                throw new IllegalArgumentException(source + ": " + address.getHostAddress() +
                    " is not an address of this host (interfaces: " + interfaceNames() + ")");
            }
            return nic.getName();
        }
        catch (final SocketException ex)
        {
            throw new UncheckedIOException("cannot list this host's interfaces looking for " + address, ex);
        }
    }

    private static NetworkInterface networkInterface(final String name)
    {
        try
        {
            return NetworkInterface.getByName(name);
        }
        catch (final SocketException ex)
        {
            throw new UncheckedIOException("cannot look up interface " + name, ex);
        }
    }

    private static boolean isUp(final NetworkInterface nic)
    {
        try
        {
            return nic.isUp();
        }
        catch (final SocketException ex)
        {
            throw new UncheckedIOException("cannot read the state of interface " + nic.getName(), ex);
        }
    }

    private static InetAddress firstAddress(final NetworkInterface nic)
    {
        if (null == nic)
        {
            return null;
        }
        final List<InetAddress> addresses = Collections.list(nic.getInetAddresses());
        return addresses.stream().filter(a -> a instanceof Inet4Address).findFirst()
            .orElse(addresses.stream().filter(a -> !a.isLinkLocalAddress()).findFirst().orElse(null));
    }

    private static String interfaceNames()
    {
        try
        {
            return String.join(", ", NetworkInterface.networkInterfaces().map(NetworkInterface::getName).sorted().toList());
        }
        catch (final SocketException ex)
        {
            return "cannot be listed: " + ex.getMessage();
        }
    }

    /**
     * @return the interface of the first IPv4 default route in /proc/net/route, or null when there is none.
     */
    static String defaultRouteInterface()
    {
        if (!Files.isReadable(ROUTES))
        {
            return null;
        }
        try
        {
            for (final String line : Files.readAllLines(ROUTES))
            {
                final String[] fields = line.trim().split("\\s+");
                if (fields.length > 7 && DEFAULT_DESTINATION.equals(fields[1]) && DEFAULT_DESTINATION.equals(fields[7]))
                {
                    return fields[0];
                }
            }
            return null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + ROUTES, ex);
        }
    }
}
