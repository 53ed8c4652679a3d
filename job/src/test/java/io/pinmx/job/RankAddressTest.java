package io.pinmx.job;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules that pick where a rank is reached and where rank 0 listens, on this host's own interfaces (loopback is
 * always there); the rules across real namespaces are {@link TwoNamespaceJobTest}'s.
 */
class RankAddressTest
{
    private static final Map<String, String> ALONE = Map.of("PINMX_RANK", "0", "PINMX_SIZE", "1");

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
}
