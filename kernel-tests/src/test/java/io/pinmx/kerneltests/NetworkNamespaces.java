package io.pinmx.kerneltests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the tests that place a peer in another network namespace share: finding iproute2's {@code ip} (the test is
 * skipped, saying why, without it or without root), running its commands, and a namespace joined to this one by a
 * veth pair, or several namespaces on a bridge, for the length of a test.
 */
final class NetworkNamespaces
{
    private static final long COMMAND_TIMEOUT_S = 60;

    private NetworkNamespaces()
    {
    }

    /** @return the path of {@code ip}; skips the calling test unless it exists and this JVM runs as root. */
    static String requireIp()
    {
        final String ip = Stream.of("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip")
            .filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElse(null);
        assumeTrue(null != ip, "needs iproute2's ip for a network namespace and a veth pair");
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root for network namespaces");
        return ip;
    }

    /** Runs a command that must succeed within a minute; fails naming it and its output otherwise. */
    static void run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS), String.join(" ", command) + " hung");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + output);
    }

    /**
     * A veth pair's two ends: {@code here} in this namespace, {@code there} in {@code namespace}; with a subnet,
     * {@code host(1)} here and {@code host(2)} there.
     */
    record VethPair(String ip, String namespace, String here, String there, String subnet)
    {
        /** @return the command prefix that runs a program inside the other namespace. */
        List<String> enter()
        {
            return List.of(ip, "netns", "exec", namespace);
        }

        /** @return the address of host {@code n} on the pair's subnet. */
        String host(final int n)
        {
            return subnet + "." + n;
        }
    }

    /** What runs while a veth pair exists. */
    @FunctionalInterface
    interface VethBody
    {
        void run(VethPair pair) throws IOException, InterruptedException;
    }

    /**
     * Makes namespace {@code prefix-ID} (ID from this JVM's pid) joined to this one by a veth pair whose ends are both
     * named {@code prefix + "a" + ID}, here and there (names are per namespace; rma keeps a cost model per interface
     * name, and the two ends are one link), both up, runs the body, then removes the namespace and with it the pair.
     *
     * @param subnetByte with a value of 0 to 255, the ends get {@code 10.subnetByte.x.1/24} and {@code .2/24} and the
     *                   namespace's loopback is brought up; with -1, no addresses.
     */
    static void withVethPair(final String ip, final String prefix, final int subnetByte, final VethBody body)
        throws IOException, InterruptedException
    {
        final long id = ProcessHandle.current().pid() % 100_000;
        final String end = prefix + "a" + id;
        final VethPair pair = new VethPair(ip, prefix + "-" + id, end, end,
            subnetByte < 0 ? null : "10." + subnetByte + "." + id % 250);
        run(ip, "netns", "add", pair.namespace());
        try
        {
            run(ip, "link", "add", pair.here(), "type", "veth", "peer", "name", pair.there(), "netns", pair.namespace());
            if (null != pair.subnet())
            {
                run(ip, "addr", "add", pair.host(1) + "/24", "dev", pair.here());
                run(ip, "-n", pair.namespace(), "addr", "add", pair.host(2) + "/24", "dev", pair.there());
                run(ip, "-n", pair.namespace(), "link", "set", "lo", "up");
            }
            run(ip, "link", "set", pair.here(), "up");
            run(ip, "-n", pair.namespace(), "link", "set", pair.there(), "up");
            body.run(pair);
        }
        finally
        {
            run(ip, "netns", "del", pair.namespace());
        }
    }

    /** Namespaces on one bridge: namespace {@code i} holds {@code ends.get(i)}, at {@code host(i + 1)}. */
    record Bridge(String ip, List<String> namespaces, List<String> ends, String subnet)
    {
        /** @return the command prefix that runs a program inside namespace {@code i}. */
        List<String> enter(final int i)
        {
            return List.of(ip, "netns", "exec", namespaces.get(i));
        }

        /** @return the address of host {@code n} on the bridge's subnet. */
        String host(final int n)
        {
            return subnet + "." + n;
        }
    }

    /** What runs while a bridge exists. */
    @FunctionalInterface
    interface BridgeBody
    {
        void run(Bridge bridge) throws IOException, InterruptedException;
    }

    /**
     * Makes {@code count} namespaces {@code prefix-I-ID} (ID from this JVM's pid), each joined by a veth pair
     * ({@code prefix + "a" + I + ID} here, {@code prefix + "b" + I + ID} there, at {@code 10.subnetByte.x.(I + 1)/24})
     * to the bridge {@code prefix + "br" + ID} here, all up; runs the body, then removes the namespaces, their pairs
     * and the bridge. Frames between the namespaces cross two veth pairs and the bridge, as between hosts on a switch.
     */
    static void withBridge(final String ip, final String prefix, final int subnetByte, final int count,
        final BridgeBody body) throws IOException, InterruptedException
    {
        final long id = ProcessHandle.current().pid() % 100_000;
        final String bridgeName = prefix + "br" + id;
        final List<String> namespaces = new ArrayList<>();
        final List<String> ends = new ArrayList<>();
        final Bridge bridge = new Bridge(ip, namespaces, ends, "10." + subnetByte + "." + id % 250);
        run(ip, "link", "add", bridgeName, "type", "bridge");
        try
        {
            run(ip, "link", "set", bridgeName, "up");
            for (int i = 0; i < count; i++)
            {
                final String namespace = prefix + "-" + i + "-" + id;
                run(ip, "netns", "add", namespace);
                namespaces.add(namespace);
                final String here = prefix + "a" + i + id;
                final String there = prefix + "b" + i + id;
                run(ip, "link", "add", here, "type", "veth", "peer", "name", there);
                ends.add(there);
                run(ip, "link", "set", there, "netns", namespace);
                run(ip, "link", "set", here, "master", bridgeName);
                run(ip, "link", "set", here, "up");
                run(ip, "-n", namespace, "addr", "add", bridge.host(i + 1) + "/24", "dev", there);
                run(ip, "-n", namespace, "link", "set", "lo", "up");
                run(ip, "-n", namespace, "link", "set", there, "up");
            }
            body.run(bridge);
        }
        finally
        {
            for (final String namespace : namespaces)
            {
                run(ip, "netns", "del", namespace);
            }
            run(ip, "link", "del", bridgeName);
        }
    }
}
