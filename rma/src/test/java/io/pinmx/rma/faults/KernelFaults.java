package io.pinmx.rma.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two network namespaces joined by a veth pair, and damage done to the UDP frames crossing it by the kernel itself:
 * nftables rules drop, duplicate and flip bits of frames chosen at random ({@code numgen random}), and an HTB
 * qdisc holds a random share of them in a slow class, behind which they arrive late, with a delay that varies with
 * that class's queue, and after frames sent later (reordered). Each rule counts what it did; those counters, the
 * slow class's and the receiving stack's UDP checksum errors are {@link #counters()}.
 * <p>
 * Checksum offload is off on both ends, so a datagram sent on its own carries a UDP checksum computed before the
 * damage, and the receiver's UDP layer drops it when a bit of it was flipped (UDP InCsumErrors). A run of frames sent
 * by UDP segmentation offload is one packet longer than the MTU until it is cut, and its checksums are computed
 * only then, after the flip (or never, between the two ends of a veth pair): only the user driver's own frame check
 * catches its damage. The bit flips touch both. The control plane (TCP) is left alone. Needs root, iproute2 (ip, tc), nftables and ethtool; {@link #close()} removes
 * both namespaces, and with them the veth pair, the rules and the qdiscs.
 */
final class KernelFaults implements AutoCloseable
{
    /** What the kernel does to the frames of one direction, each in frames per thousand. */
    record Damage(int lostPerMille, int duplicatedPerMille, int delayedPerMille, int corruptedPerMille)
    {
        @Override
        public String toString()
        {
            return "loss " + lostPerMille / 10.0 + " %, duplicates " + duplicatedPerMille / 10.0 + " %, delayed " +
                delayedPerMille / 10.0 + " %, corrupted " + corruptedPerMille / 10.0 + " %";
        }
    }

    private static final int MTU_BYTES = 1500;
    /** The slow class: frames in it wait behind each other at this rate while the others pass. */
    private static final String SLOW_RATE = "100mbit";
    private static final long COMMAND_TIMEOUT_S = 30;
    private static final List<String> TOOLS = List.of("ip", "tc", "nft", "ethtool");
    private static final Pattern RULE_COUNTER = Pattern.compile("counter packets (\\d+) bytes \\d+ .*comment \"([a-z-]+)\"");
    private static final Pattern SLOW_CLASS = Pattern.compile(
        "class htb 1:20 .*?\\n Sent \\d+ bytes (\\d+) pkt \\(dropped (\\d+), overlimits (\\d+)", Pattern.DOTALL);

    private final String[] namespaces;
    private final String[] addresses;

    private KernelFaults(final String[] namespaces, final String[] addresses)
    {
        this.namespaces = namespaces;
        this.addresses = addresses;
    }

    /** @return why this host cannot make the faults (not root, a tool missing), or null when it can. */
    static String unavailableBecause() throws IOException
    {
        final String uid = Files.readAllLines(Path.of("/proc/self/status")).stream()
            .filter(l -> l.startsWith("Uid:")).findFirst().orElse("Uid: -1").split("\\s+")[1];
        if (!"0".equals(uid))
        {
            return "needs root to make network namespaces";
        }
        for (final String tool : TOOLS)
        {
            if (null == toolPath(tool))
            {
                return "no " + tool + " (apt-get install iproute2 nftables ethtool)";
            }
        }
        return null;
    }

    /**
     * Makes namespaces {@code <tag>a} and {@code <tag>b} joined by a veth pair with {@code 10.<net>.1} and
     * {@code .2} on its ends, checksum offload off, an HTB qdisc with a fast and a slow class on each end; no damage
     * yet.
     */
    static KernelFaults create(final String tag, final String net)
        throws IOException, InterruptedException
    {
        final KernelFaults faults = new KernelFaults(new String[] {tag + "a", tag + "b"},
            new String[] {"10." + net + ".1", "10." + net + ".2"});
        try
        {
            faults.build();
        }
        catch (final IOException | RuntimeException ex)
        {
            faults.close();
            throw ex;
        }
        return faults;
    }

    private void build() throws IOException, InterruptedException
    {
        run("ip", "netns", "add", namespaces[0]);
        run("ip", "netns", "add", namespaces[1]);
        run("ip", "link", "add", namespaces[0], "netns", namespaces[0], "type", "veth", "peer", "name", namespaces[1],
            "netns", namespaces[1]);
        for (int side = 0; side < 2; side++)
        {
            final String ns = namespaces[side];
            run("ip", "-n", ns, "link", "set", ns, "mtu", Integer.toString(MTU_BYTES));
            run("ip", "-n", ns, "addr", "add", addresses[side] + "/24", "dev", ns);
            run("ip", "-n", ns, "link", "set", ns, "up");
            run("ip", "-n", ns, "link", "set", "lo", "up");
            in(ns, "ethtool", "-K", ns, "tx", "off", "rx", "off");
            in(ns, "tc", "qdisc", "add", "dev", ns, "root", "handle", "1:", "htb", "default", "10");
            in(ns, "tc", "class", "add", "dev", ns, "parent", "1:", "classid", "1:10", "htb", "rate", "10gbit",
                "quantum", "60000");
            in(ns, "tc", "class", "add", "dev", ns, "parent", "1:", "classid", "1:20", "htb", "rate", SLOW_RATE,
                "ceil", SLOW_RATE, "quantum", "60000");
        }
    }

    String namespace(final int side)
    {
        return namespaces[side];
    }

    String address(final int side)
    {
        return addresses[side];
    }

    /** Starts damaging the UDP frames of each direction. */
    void damage(final Damage aToB, final Damage bToA) throws IOException, InterruptedException
    {
        damage(0, aToB);
        damage(1, bToA);
    }

    /**
     * The sender's output duplicates frames and marks the delayed share for the slow class, its egress flips a bit in
     * the MXoE header (the frame's third byte) or in the payload (its 600th byte) of the corrupted share, half each;
     * the receiver's ingress drops the lost share.
     */
    private void damage(final int from, final Damage d) throws IOException, InterruptedException
    {
        final String ns = namespaces[from];
        final String peer = addresses[1 - from];
        final String receiver = namespaces[1 - from];
        final int half = d.corruptedPerMille() / 2;
        nft(ns, String.join("\n",
            "table ip pinmx_faults {",
            "  chain out {",
            "    type filter hook output priority 0; policy accept;",
            "    ip daddr " + peer + " meta l4proto udp numgen random mod 1000 < " + d.duplicatedPerMille() +
                " counter dup to " + peer + " comment \"duplicated\"",
            "    ip daddr " + peer + " meta l4proto udp numgen random mod 1000 < " + d.delayedPerMille() +
                " counter meta priority set 1:20 comment \"delayed\"",
            "  }",
            "}",
            "table netdev pinmx_faults {",
            "  chain egress {",
            "    type filter hook egress device " + ns + " priority 0; policy accept;",
            "    ip daddr " + peer + " ip protocol udp numgen random mod 1000 < " + half +
                " counter @th,80,8 set @th,80,8 ^ 0x10 comment \"corrupted-header\"",
            "    ip daddr " + peer + " ip protocol udp numgen random mod 1000 < " +
                (d.corruptedPerMille() - half) + " counter @th,4864,8 set @th,4864,8 ^ 0x01 comment \"corrupted-payload\"",
            "  }",
            "}"));
        nft(receiver, String.join("\n",
            "table netdev pinmx_loss {",
            "  chain ingress {",
            "    type filter hook ingress device " + receiver + " priority 0; policy accept;",
            "    ip saddr " + addresses[from] + " ip protocol udp numgen random mod 1000 < " + d.lostPerMille() +
                " counter drop comment \"lost\"",
            "  }",
            "}"));
    }

    /**
     * @return per direction ("a>b", "b>a") what the kernel did to its frames: frames lost, duplicated, delayed,
     *         corrupted-header and corrupted-payload (the rules' counters), slow-sent and slow-overlimits (the slow
     *         class: frames it sent, and times it had to hold one back), and checksum-errors (UDP InCsumErrors of the
     *         receiving namespace).
     */
    Map<String, Map<String, Long>> counters() throws IOException, InterruptedException
    {
        final Map<String, Map<String, Long>> all = new HashMap<>();
        for (int from = 0; from < 2; from++)
        {
            final Map<String, Long> c = new HashMap<>();
            ruleCounters(in(namespaces[from], "nft", "list", "table", "ip", "pinmx_faults"), c);
            ruleCounters(in(namespaces[from], "nft", "list", "table", "netdev", "pinmx_faults"), c);
            ruleCounters(in(namespaces[1 - from], "nft", "list", "table", "netdev", "pinmx_loss"), c);
            final Matcher slow = SLOW_CLASS.matcher(in(namespaces[from], "tc", "-s", "class", "show", "dev",
                namespaces[from]));
            if (slow.find())
            {
                c.put("slow-sent", Long.parseLong(slow.group(1)));
                c.put("slow-overlimits", Long.parseLong(slow.group(3)));
            }
            c.put("checksum-errors", udpChecksumErrors(namespaces[1 - from]));
            all.put(0 == from ? "a>b" : "b>a", c);
        }
        return all;
    }

    private static void ruleCounters(final String listing, final Map<String, Long> into)
    {
        final Matcher m = RULE_COUNTER.matcher(listing);
        while (m.find())
        {
            into.put(m.group(2), Long.parseLong(m.group(1)));
        }
    }

    private long udpChecksumErrors(final String ns) throws IOException, InterruptedException
    {
        final List<String> udp = in(ns, "cat", "/proc/net/snmp").lines().filter(l -> l.startsWith("Udp:")).toList();
        final List<String> names = List.of(udp.get(0).split("\\s+"));
        return Long.parseLong(udp.get(1).split("\\s+")[names.indexOf("InCsumErrors")]);
    }

    /** @return the network namespaces of this host. */
    static List<String> namespaces() throws IOException, InterruptedException
    {
        return run("ip", "netns", "list").lines().map(l -> l.split(" ")[0]).toList();
    }

    /** Removes both namespaces (and so the veth pair, the rules and the qdiscs); a missing one is no error. */
    @Override
    public void close() throws IOException, InterruptedException
    {
        final List<String> left = namespaces();
        for (final String ns : namespaces)
        {
            if (left.contains(ns))
            {
                run("ip", "netns", "del", ns);
            }
        }
    }

    private static void nft(final String ns, final String rules) throws IOException, InterruptedException
    {
        final Path file = Files.createTempFile("pinmx-faults-", ".nft");
        try
        {
            Files.writeString(file, rules + "\n");
            in(ns, "nft", "-f", file.toString());
        }
        finally
        {
            Files.deleteIfExists(file);
        }
    }

    private static String in(final String ns, final String... command) throws IOException, InterruptedException
    {
        final List<String> all = inNamespace(ns);
        all.addAll(List.of(command));
        return run(all.toArray(String[]::new));
    }

    /** @return the start of a command line that runs what follows it in namespace {@code ns}. */
    static List<String> inNamespace(final String ns)
    {
        final Path ip = toolPath("ip");
        return new ArrayList<>(List.of(null == ip ? "ip" : ip.toString(), "netns", "exec", ns));
    }

    /** @return the command's output; its exit status other than 0 is an IOException with that output. */
    private static String run(final String... command) throws IOException, InterruptedException
    {
        final List<String> resolved = new ArrayList<>(List.of(command));
        final Path tool = toolPath(command[0]);
        if (null != tool)
        {
            resolved.set(0, tool.toString());
        }
        final Process p = new ProcessBuilder(resolved).redirectErrorStream(true).start();
        final byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS))
        {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": not done within " + COMMAND_TIMEOUT_S + " s");
        }
        final String text = new String(out, StandardCharsets.UTF_8);
        if (0 != p.exitValue())
        {
            throw new IOException(String.join(" ", command) + ": exit status " + p.exitValue() + ": " + text.strip());
        }
        return text;
    }

    /** The tools live in sbin, which a non-login PATH may lack. */
    private static Path toolPath(final String tool)
    {
        final List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (final String dir : dirs)
        {
            final Path p = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isExecutable(p))
            {
                return p;
            }
        }
        return null;
    }
}
