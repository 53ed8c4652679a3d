package io.pinmx.job;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules that pick where a rank is reached and where rank 0 listens, on this host's own interfaces (loopback is
 * always there); the rules across real namespaces are {@link TwoNamespaceJobTest}'s, and what a PMIx rank picks
 * inside a namespace is this test's, through {@link RankAddressProbe} (skipped, saying why, unless root with ip).
 */
class RankAddressTest
{
    private static final Map<String, String> ALONE = Map.of("PINMX_RANK", "0", "PINMX_SIZE", "1");

    private static final long PROBE_DEADLINE_S = 60;

    private static RankAddress choose(final Map<String, String> variables)
    {
        final Map<String, String> env = new HashMap<>(ALONE);
        env.putAll(variables);
        try (Job job = Job.join(env))
        {
            return RankAddress.choose(env, job);
        }
    }

    @Test
    void anAddressOrAnInterfaceIsTakenAsGivenAndTheRouteOtherwise()
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        assertEquals(new RankAddress(loopback, "lo", "PINMX_ADDRESS=127.0.0.1"), choose(Map.of("PINMX_ADDRESS", "127.0.0.1")));
        assertEquals(new RankAddress(loopback, "lo", "PINMX_IFACE=lo"), choose(Map.of("PINMX_IFACE", "lo")));
        // PINMX_ADDRESS wins over PINMX_IFACE.
        assertEquals("lo", choose(Map.of("PINMX_ADDRESS", "127.0.0.1", "PINMX_IFACE", "no-such-nic")).interfaceName());
        // A job of one has no connection to rank 0: loopback.
        assertEquals(new RankAddress(loopback, "lo", "the route to rank 0 (where the other ranks reached it)"),
            choose(Map.of()));
    }

    @Test
    void addressesAndInterfacesNotOnThisHostAreNamed()
    {
        assertEquals("PINMX_ADDRESS=not-an-ip is not an IP address", assertThrows(IllegalArgumentException.class,
            () -> choose(Map.of("PINMX_ADDRESS", "not-an-ip"))).getMessage());
        final String foreign = assertThrows(IllegalArgumentException.class,
            () -> choose(Map.of("PINMX_ADDRESS", "192.0.2.254"))).getMessage();
        assertTrue(foreign.startsWith("PINMX_ADDRESS=192.0.2.254: 192.0.2.254 is not an address of this host " +
            "(interfaces: "), foreign);
        assertTrue(foreign.contains("lo"), foreign);
        final String missing = assertThrows(IllegalArgumentException.class,
            () -> choose(Map.of("PINMX_IFACE", "pjob-none"))).getMessage();
        assertTrue(missing.startsWith("PINMX_IFACE=pjob-none: no such interface here (interfaces: "), missing);
        assertEquals("interface veth9 (PINMX_IFACE=veth9) has no IP address to bind the user driver to; give one " +
            "with PINMX_ADDRESS", assertThrows(IllegalArgumentException.class,
            () -> new RankAddress(null, "veth9", "PINMX_IFACE=veth9").requireAddress()).getMessage());
    }

    @Test
    void rankZeroListensOnTheBootstrapHostThenTheVariablesThenTheDefaultRoute()
    {
        assertEquals("10.9.8.7", RankAddress.listenAddress(Map.of("PINMX_BOOTSTRAP_HOST", "10.9.8.7", "PINMX_IFACE", "lo")));
        assertEquals("127.0.0.1", RankAddress.listenAddress(Map.of("PINMX_IFACE", "lo")));
        assertEquals("127.0.0.1", RankAddress.listenAddress(Map.of("PINMX_ADDRESS", "127.0.0.1")));
        final String routed = RankAddress.listenAddress(Map.of());
        final String routeInterface = RankAddress.defaultRouteInterface();
        if (null == routeInterface)
        {
            assertEquals("127.0.0.1", routed, "no default route: loopback");
        }
        else
        {
            assertEquals(routeInterface, choose(Map.of("PINMX_ADDRESS", routed)).interfaceName(),
                "rank 0 listens on the default route's interface " + routeInterface);
        }
    }

    @Test
    void aPmixRankInANamespaceTakesItsVethAddressAndNamesOneWithoutCarrier() throws Exception
    {
        try (VethNamespaces hosts = VethNamespaces.create())
        {
            final Probe running = probe(hosts);
            assertEquals(0, running.status(), running.err());
            assertEquals(hosts.address(1) + " " + hosts.name(1) + " (the only non-loopback IPv4 address)",
                running.out().strip());

            hosts.setDown(0);
            final Probe noCarrier = probe(hosts);
            assertEquals(3, noCarrier.status(), noCarrier.out() + noCarrier.err());
            assertTrue(noCarrier.err().contains("0 non-loopback IPv4 addresses on running interfaces; not running, " +
                "down or without carrier: " + hosts.name(1) + " " + hosts.address(1) + "): set PINMX_IFACE or " +
                "PINMX_ADDRESS"), noCarrier.err());
        }
    }

    private record Probe(int status, String out, String err)
    {
    }

    /** Runs {@link RankAddressProbe} in a JVM inside side 1's namespace. */
    private static Probe probe(final VethNamespaces hosts) throws IOException, InterruptedException
    {
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Process process = new ProcessBuilder(hosts.inside(1, List.of(java.toString(), "-cp",
            System.getProperty("java.class.path"), RankAddressProbe.class.getName()))).start();
        process.getOutputStream().close();
        if (!process.waitFor(PROBE_DEADLINE_S, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("RankAddressProbe did not end within " + PROBE_DEADLINE_S + " s");
        }
        return new Probe(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
            new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
