package io.pinmx.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two "hosts" on this one: network namespaces {@code pjob<id>a} and {@code pjob<id>b}, joined by a veth pair whose
 * ends (named as their namespaces) hold 10.231.N.1/24 and 10.231.N.2/24, loopback up in both. Made by
 * {@link #create()}, removed by {@link #close()} (deleting a namespace deletes its veth end, and with it the pair).
 * Nothing in the host's own namespace changes, and the only traffic targets are these two namespaces. Needs root
 * and iproute2's {@code ip}; {@link #create()} skips the calling test, saying why, without them.
 * <p>
 * {@link #create()} returns once both ends are operationally up: the kernel's link watcher marks a veth running
 * up to a second after both ends are set up (longer on a loaded host), and until then Java's
 * {@code NetworkInterface.isUp()} is false there, so a rank started at once would find no usable address.
 */
public final class VethNamespaces implements AutoCloseable
{
    private static final long COMMAND_DEADLINE_S = 30;
    private static final long LINK_STATE_DEADLINE_S = 30;
    private static final long LINK_POLL_INTERVAL_MS = 20;

    private static final AtomicInteger CREATED = new AtomicInteger();

    private final String ip;
    private final String[] names;
    private final String[] addresses;

    private VethNamespaces(final String ip, final long id, final int sequence)
    {
        this.ip = ip;
        names = new String[] {"pjob" + id + "s" + sequence + "a", "pjob" + id + "s" + sequence + "b"};
        addresses = new String[] {"10.231." + (id + sequence) % 250 + ".1", "10.231." + (id + sequence) % 250 + ".2"};
    }

    /**
     * @throws org.opentest4j.TestAbortedException when not root or without {@code ip}.
     */
    public static VethNamespaces create() throws IOException, InterruptedException
    {
        final String ip = Stream.of("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip")
            .filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElse(null);
        assumeTrue(null != ip, "needs iproute2's ip for network namespaces and a veth pair");
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root for network namespaces");
        // Interface names have at most 15 characters: "pjob" + 5 digits + "s" + 2 digits + side. Each pair of a JVM
        // has names and a subnet of its own, so nothing a previous test left behind is reached by mistake.
        final VethNamespaces pair = new VethNamespaces(ip, ProcessHandle.current().pid() % 100_000,
            CREATED.getAndIncrement() % 100);
        try
        {
            pair.setUp();
        }
        catch (final IOException | InterruptedException | RuntimeException | AssertionError ex)
        {
            pair.close();
            throw ex;
        }
        return pair;
    }

    private void setUp() throws IOException, InterruptedException
    {
        for (final String name : names)
        {
            run(ip, "netns", "add", name);
        }
        run(ip, "link", "add", names[0], "netns", names[0], "type", "veth", "peer", "name", names[1], "netns", names[1]);
        for (int side = 0; side < 2; side++)
        {
            run(ip, "-n", names[side], "addr", "add", addresses[side] + "/24", "dev", names[side]);
            run(ip, "-n", names[side], "link", "set", names[side], "up");
            run(ip, "-n", names[side], "link", "set", "lo", "up");
        }
        for (int side = 0; side < 2; side++)
        {
            awaitState(side, "up", "up"::equals);
        }
    }

    private void awaitState(final int side, final String expected, final Predicate<String> reached)
    {
        await("veth " + names[side] + " operationally " + expected).atMost(Duration.ofSeconds(LINK_STATE_DEADLINE_S))
            .pollInterval(Duration.ofMillis(LINK_POLL_INTERVAL_MS)).ignoreExceptions()
            .until(() -> operationalState(side), reached);
    }

    /**
     * @param side 0 or 1.
     * @return that side's veth end's operational state as the kernel reports it ({@code up}, {@code down},
     * {@code lowerlayerdown}): only {@code up} makes Java's {@code NetworkInterface.isUp()} true.
     */
    public String operationalState(final int side) throws IOException, InterruptedException
    {
        return run(inside(side, List.of("cat", "/sys/class/net/" + names[side] + "/operstate")).toArray(String[]::new))
            .trim();
    }

    /**
     * Sets that side's veth end down, as when a peer host goes: the other end stays set up but loses its carrier.
     * Returns once the kernel no longer reports the other end operationally up.
     *
     * @param side 0 or 1.
     */
    public void setDown(final int side) throws IOException, InterruptedException
    {
        run(ip, "-n", names[side], "link", "set", names[side], "down");
        awaitState(1 - side, "not up", state -> !"up".equals(state));
    }

    /**
     * @param side 0 or 1.
     * @return the namespace of that side, also the name of its veth end.
     */
    public String name(final int side)
    {
        return names[side];
    }

    /**
     * @param side 0 or 1.
     * @return the IPv4 address of that side's veth end.
     */
    public String address(final int side)
    {
        return addresses[side];
    }

    /**
     * @param side    0 or 1.
     * @param command a command.
     * @return the command run inside that side's namespace.
     */
    public List<String> inside(final int side, final List<String> command)
    {
        final List<String> wrapped = new ArrayList<>(List.of(ip, "netns", "exec", names[side]));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * @param side 0 or 1.
     * @return bytes received plus bytes sent by that side's veth end so far.
     */
    public long bytes(final int side) throws IOException, InterruptedException
    {
        long total = 0;
        for (final String direction : List.of("rx_bytes", "tx_bytes"))
        {
            total += Long.parseLong(run(inside(side, List.of("cat",
                "/sys/class/net/" + names[side] + "/statistics/" + direction)).toArray(String[]::new)).trim());
        }
        return total;
    }

    /**
     * Asserts that at least {@code payloadBytes} crossed that side's veth end (received plus sent) since
     * {@code bytesBefore} was read, and prints how many did.
     *
     * @param what the payload, for the messages ("PingPong's timed payload bytes").
     */
    public void assertCrossed(final int side, final long bytesBefore, final long payloadBytes, final String what)
        throws IOException, InterruptedException
    {
        final long crossed = bytes(side) - bytesBefore;
        System.out.println("veth " + names[side] + " carried " + crossed + " bytes (rx + tx) for " + payloadBytes + " " +
            what);
        assertTrue(crossed >= payloadBytes, "veth " + names[side] + " carried " + crossed + " bytes, fewer than the " +
            payloadBytes + " " + what);
    }

    /**
     * @return both sides' interfaces and addresses as {@code ip addr} shows them, for a failure's message.
     */
    public String describe() throws IOException, InterruptedException
    {
        final StringBuilder out = new StringBuilder();
        for (final String name : names)
        {
            out.append(name).append(":\n").append(run(ip, "-n", name, "addr"));
        }
        return out.toString();
    }

    @Override
    public void close() throws IOException, InterruptedException
    {
        for (final String name : names)
        {
            if (Files.exists(Path.of("/run/netns", name)))
            {
                run(ip, "netns", "del", name);
            }
        }
    }

    private static String run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(COMMAND_DEADLINE_S, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish in " + COMMAND_DEADLINE_S + " s");
        }
        if (0 != process.exitValue())
        {
            throw new IllegalStateException(String.join(" ", command) + " exited " + process.exitValue() + ": " + output);
        }
        return output;
    }
}
