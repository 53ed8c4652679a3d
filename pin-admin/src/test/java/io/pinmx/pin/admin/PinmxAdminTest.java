package io.pinmx.pin.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinmx.pin.kernel.KernelCounter;
import io.pinmx.pin.kernel.KernelModuleStatus;
import io.pinmx.pin.kernel.PinmxAbi;
import io.pinmx.pin.node.ChronicleFlags;
import io.pinmx.pin.node.ChronicleMapCounterStore;
import io.pinmx.pin.node.ChronicleMapPeerTable;
import io.pinmx.pin.node.PublishedCounters;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverCounters;
import io.pinmx.pin.spi.DriverEndpoint;
import io.pinmx.pin.spi.EndpointConfig;
import io.pinmx.pin.spi.PinDriver;
import io.pinmx.pin.user.UserDriver;
import io.pinmx.pin.user.UserDriverOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PinmxAdminTest
{
    @TempDir
    Path directory;

    private String out = "";
    private String err = "";
    private Map<String, String> env = Map.of();
    private KernelModuleStatus module = NOT_LOADED;

    /** The kernel module as a host without it shows it. */
    static final KernelModuleStatus NOT_LOADED = new KernelModuleStatus(false, "", new TreeMap<>(),
        Path.of("/dev/pinmx"), -1, 0, "", 0, 0, new long[0], "no /dev/pinmx (pinmx.ko is not loaded)", List.of(),
        List.of(), "pinmx.ko is not loaded");

    private int run(final String... args)
    {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final List<String> full = Stream.concat(Stream.of(
            "--peers-file", peersFile().toString(), "--counters-file", countersFile().toString()), Stream.of(args)).toList();
        final KernelModuleStatus state = module;
        final int status = PinmxAdmin.run(full.toArray(String[]::new), env, () -> state,
            new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        out = outBytes.toString(StandardCharsets.UTF_8);
        err = errBytes.toString(StandardCharsets.UTF_8);
        return status;
    }

    private Path peersFile()
    {
        return directory.resolve("peers.dat");
    }

    private Path countersFile()
    {
        return directory.resolve("counters.dat");
    }

    private void assertUsage(final String expectedMessage, final String... args)
    {
        assertEquals(PinmxAdmin.EXIT_USAGE, run(args), out);
        assertTrue(err.contains(expectedMessage), err);
        assertTrue(err.endsWith(" (pinmx-admin --help lists the commands)\n"), err);
        assertEquals(1, err.lines().count(), err);
        assertEquals("", out);
    }

    @Test
    void badCommandLinesExitTwoNamingTheProblemAndTouchNoFile()
    {
        assertUsage("missing command");
        assertUsage("unknown command 'frobnicate'", "frobnicate");
        assertUsage("unknown option '--verbose'", "--verbose", "info");
        assertUsage("unexpected argument 'x' after 'info'", "info", "x");
        assertUsage("unknown peers action 'list-all'", "peers", "list-all");
        assertUsage("peers add: expected HOST BOARD_ADDRESS [BOARD_INDEX], got 'node-a'", "peers", "add", "node-a");
        assertUsage("board address 'tcp:1.2.3.4:5'", "peers", "add", "node-a", "tcp:1.2.3.4:5");
        assertUsage("port 70000 not in 1..65535", "peers", "add", "node-a", "udp:1.2.3.4:70000");
        assertUsage("host name 'bad/host'", "peers", "add", "bad/host", "udp:1.2.3.4:4000");
        assertUsage("board index 'x' is not a number", "peers", "add", "node-a", "udp:1.2.3.4:4000", "x");
        assertUsage("board index 256 not in 0..255", "peers", "add", "node-a", "udp:1.2.3.4:4000", "256");
        assertUsage("peers remove: expected HOST [BOARD_INDEX], got nothing", "peers", "remove");
        assertUsage("counters: unexpected argument 'b'", "counters", "a", "b");
        assertFalse(Files.exists(peersFile()));
        assertFalse(Files.exists(countersFile()));

        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        assertEquals(PinmxAdmin.EXIT_USAGE, PinmxAdmin.run(new String[]{ "--peers-file" }, env, () -> NOT_LOADED,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(errBytes, true, StandardCharsets.UTF_8)));
        assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("--peers-file needs a value"));
    }

    /** Listing commands read: they create no file, and a file or directory named on the command line must be there. */
    @Test
    void listingCommandsCreateNothingAndRefuseAPathThatIsNotThere()
    {
        assertEquals(PinmxAdmin.EXIT_OK, run("peers"), err);
        assertEquals("no peers: no peer table at " + peersFile() + " (peers add creates it)\n", out);
        assertEquals(PinmxAdmin.EXIT_OK, run("counters"), err);
        assertTrue(out.startsWith("no counters published: no counters file at " + countersFile() + "\n"), out);
        assertEquals(PinmxAdmin.EXIT_OK, run("--json", "counters", "prune"), err);
        assertEquals(PinmxAdmin.EXIT_FAILED, run("counters", "udp:10.0.0.9:1/0"), out);
        assertEquals("pinmx-admin: no counters published by endpoint udp:10.0.0.9:1/0: no counters file " +
            countersFile() + "\n", err);
        assertFalse(Files.exists(peersFile()));
        assertFalse(Files.exists(countersFile()));

        final Path typo = directory.resolve("typo/dir");
        assertEquals(PinmxAdmin.EXIT_FAILED, run("--peers-file", typo.resolve("peers.dat").toString(), "peers"), out);
        assertEquals("pinmx-admin: --peers-file " + typo.resolve("peers.dat") + ": no directory " + typo + "\n", err);
        assertEquals("", out);
        assertEquals(PinmxAdmin.EXIT_FAILED, run("--counters-file", typo.resolve("c.dat").toString(), "counters"), out);
        assertEquals("pinmx-admin: --counters-file " + typo.resolve("c.dat") + ": no directory " + typo + "\n", err);
        assertEquals(PinmxAdmin.EXIT_FAILED, run("--shm-dir", "/nonexistent", "endpoints"), out);
        assertEquals("pinmx-admin: --shm-dir /nonexistent: no such directory\n", err);
        assertFalse(Files.exists(directory.resolve("typo")));
    }

    @Test
    void helpGoesToStandardOutput()
    {
        assertEquals(PinmxAdmin.EXIT_OK, run("--help"), err);
        assertTrue(out.startsWith("usage: pinmx-admin"), out);
        assertTrue(out.contains("PINMX_DRIVER"), out);
        assertEquals("", err);
        assertEquals(PinmxAdmin.EXIT_OK, run("-h"), err);
        assertTrue(out.startsWith("usage: pinmx-admin"), out);
    }

    @Test
    void peersAddListAndRemoveThroughTheSharedFile()
    {
        assertEquals(0, run("peers"));
        assertTrue(out.contains("no peers: no peer table at " + peersFile()), out);

        assertEquals(0, run("peers", "add", "node-a", "udp:10.0.0.1:40000"));
        assertEquals("added node-a 0 udp:10.0.0.1:40000\n", out);
        assertEquals(0, run("peers", "add", "node-a", "eth:02:00:00:00:00:01"));
        assertEquals("added node-a 1 eth:02:00:00:00:00:01\n", out);
        assertEquals(0, run("peers", "add", "node-b", "udp:10.0.0.2:40000", "7"));
        assertEquals(0, run("peers"));
        assertEquals("""
            node-a 0 udp:10.0.0.1:40000
            node-a 1 eth:02:00:00:00:00:01
            node-b 7 udp:10.0.0.2:40000
            """, out);

        assertEquals(0, run("--json", "peers"));
        assertEquals("{\"file\":\"" + peersFile() + "\",\"peers\":[" +
            "{\"host\":\"node-a\",\"board\":0,\"address\":\"udp:10.0.0.1:40000\"}," +
            "{\"host\":\"node-a\",\"board\":1,\"address\":\"eth:02:00:00:00:00:01\"}," +
            "{\"host\":\"node-b\",\"board\":7,\"address\":\"udp:10.0.0.2:40000\"}]}\n", out);

        try (ChronicleMapPeerTable table = ChronicleMapPeerTable.open(peersFile()))
        {
            assertEquals(Optional.of(BoardAddress.parse("udp:10.0.0.2:40000")), table.board("node-b", 7));
        }

        assertEquals(0, run("--json", "peers", "remove", "node-a", "0"));
        assertEquals("{\"removed\":{\"host\":\"node-a\",\"board\":0}}\n", out);
        assertEquals(PinmxAdmin.EXIT_FAILED, run("peers", "remove", "node-a", "0"));
        assertTrue(err.contains("no board 0 of host node-a in " + peersFile()), err);
        assertEquals(0, run("peers", "remove", "node-b"));
        assertEquals(PinmxAdmin.EXIT_FAILED, run("peers", "remove", "node-b"));
        assertTrue(err.contains("no host node-b in"), err);
        assertFalse(err.contains("usage:"), err);
        assertEquals(0, run("peers"));
        assertEquals("node-a 1 eth:02:00:00:00:00:01\n", out);
    }

    @Test
    void countersPrintsPublishedSnapshots()
    {
        assertEquals(0, run("counters"));
        assertTrue(out.contains("no counters published: no counters file at " + countersFile()), out);

        final DriverCounters counters = new DriverCounters();
        counters.add(Counter.PULL_BYTES, 67_108_864);
        counters.increment(Counter.DROPPED_BAD_LENGTH);
        try (ChronicleMapCounterStore store = ChronicleMapCounterStore.open(countersFile()))
        {
            store.publish("udp:10.0.0.1:40000/3", counters);
        }
        assertEquals(0, run("counters"));
        final List<String> lines = out.lines().toList();
        assertTrue(lines.get(0).startsWith("udp:10.0.0.1:40000/3 pid " + ProcessHandle.current().pid() + " (running)"),
            out);
        assertEquals(List.of("  DROPPED_BAD_LENGTH 1", "  PULL_BYTES 67108864",
            "kernel module: no /dev/pinmx (pinmx.ko is not loaded)"), lines.subList(1, lines.size()));

        assertEquals(0, run("--json", "counters"));
        assertTrue(out.startsWith("{\"file\":\"" + countersFile() + "\",\"endpoints\":[{\"endpoint\":\"udp:10.0.0.1:40000/3\"," +
            "\"pid\":" + ProcessHandle.current().pid() + ",\"running\":true,\"published\":\""), out);
        assertTrue(out.endsWith("\"counters\":{\"DROPPED_BAD_LENGTH\":1,\"PULL_BYTES\":67108864}}]," +
            "\"kernel\":{\"problem\":\"no /dev/pinmx (pinmx.ko is not loaded)\"}}\n"), out);

        assertEquals(0, run("counters", "udp:10.0.0.1:40000/3", "--all"));
        assertEquals(1 + Counter.values().length, out.lines().count());
        assertTrue(out.contains("  PULLS_FAILED 0"), out);

        assertEquals(PinmxAdmin.EXIT_FAILED, run("counters", "udp:10.0.0.1:40000/4"));
        assertTrue(err.contains("no counters published by endpoint udp:10.0.0.1:40000/4"), err);
    }

    @Test
    void anOpenUserEndpointPublishesItsCounters()
    {
        final DriverEndpoint endpoint = openWithCountersFile();
        try
        {
            awaitThisProcessPublished();
        }
        finally
        {
            endpoint.close();
        }
    }

    @Test
    void anEndpointOpensWithoutWaitingForACountersFileThatNeverOpens() throws Exception
    {
        // Zeros: a Chronicle Map header that never becomes ready, which Chronicle would wait for forever.
        Files.write(countersFile(), new byte[1 << 16]);
        final long startNs = System.nanoTime();
        final DriverEndpoint endpoint = openWithCountersFile();
        try
        {
            final long openMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            assertTrue(openMs < 8_000, "the endpoint waited " + openMs + " ms for its counters file");
            assertEquals(0, endpoint.counters().get(Counter.DROPPED_BAD_LENGTH));
        }
        finally
        {
            endpoint.close();
        }
    }

    @Test
    void anEndpointOpeningACrowdedCountersFileForgetsTheCountersOfProcessesThatAreGone() throws Exception
    {
        final Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(30, TimeUnit.SECONDS));
        final int crowded = (int)(ChronicleMapCounterStore.MAX_ENDPOINTS / 2);
        try (ChronicleMapCounterStore store = ChronicleMapCounterStore.open(countersFile()))
        {
            for (int i = 0; i < crowded; i++)
            {
                store.publish(new PublishedCounters("gone/" + i, gone.pid(), 1, new long[DriverCounters.size()]));
            }
            store.publish("alive/0", new DriverCounters());
        }
        final DriverEndpoint endpoint = openWithCountersFile();
        try
        {
            awaitThisProcessPublished();
            assertFalse(out.contains("gone/"), out);
            assertTrue(out.contains("alive/0"), out);
        }
        finally
        {
            endpoint.close();
        }
    }

    @Test
    void pruneForgetsCountersOfProcessesThatAreGone() throws Exception
    {
        final Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(30, TimeUnit.SECONDS));
        try (ChronicleMapCounterStore store = ChronicleMapCounterStore.open(countersFile()))
        {
            store.publish(new PublishedCounters("udp:10.0.0.1:40000/1", gone.pid(), 1, new long[DriverCounters.size()]));
            store.publish("udp:10.0.0.1:40000/2", new DriverCounters());
        }
        assertEquals(0, run("counters", "prune"));
        assertTrue(out.contains("pruned udp:10.0.0.1:40000/1 (pid " + gone.pid() + " gone)"), out);
        assertTrue(out.contains("pruned 1 of the counters in " + countersFile()), out);
        assertEquals(0, run("counters"));
        assertTrue(out.startsWith("udp:10.0.0.1:40000/2 pid "), out);
        assertFalse(out.contains("40000/1"), out);
        assertUsage("unexpected argument 'now' after 'counters prune'", "counters", "prune", "now");
    }

    private DriverEndpoint openWithCountersFile()
    {
        return new UserDriver("test").open(EndpointConfig.builder().endpointIndex(0)
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withCountersFile(countersFile())).build());
    }

    /** Until {@code pinmx-admin counters --all} lists a running endpoint of this process; {@link #out} holds it. */
    private void awaitThisProcessPublished()
    {
        final String publisher = "/pid" + ProcessHandle.current().pid() + "/";
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        {
            assertEquals(0, run("counters", "--all"), err);
            assertTrue(out.lines().anyMatch(line -> line.contains(publisher) && line.contains(" (running) ")), out);
        });
    }

    /** A loaded module with lo attached and one endpoint bound, as the VM shows it. */
    private static KernelModuleStatus loadedModule()
    {
        final long[] counters = new long[KernelCounter.values().length];
        counters[KernelCounter.TX_FRAMES.ordinal()] = 12;
        counters[KernelCounter.PULL_BYTES.ordinal()] = 1 << 20;
        return new KernelModuleStatus(true, "0.1.0", new TreeMap<>(Map.of("budget_pages", "262144", "ifnames", "lo")),
            Path.of("/dev/pinmx"), PinmxAbi.ABI_VERSION, PinmxAbi.FEATURE_PIN_DECLARE | PinmxAbi.FEATURE_NET_IFACE,
            "PIN_DECLARE|NET_IFACE", 256, 4096, counters, null,
            List.of(new KernelModuleStatus.Interface("lo", 1, 65536, "00:00:00:00:00:00")),
            List.of(new KernelModuleStatus.BoundEndpoint("lo", 3, 7, 0xabcdef01, 2)), null);
    }

    @Test
    void infoDescribesTheKernelModuleAndWhichProviderAJobWouldUse()
    {
        module = loadedModule();
        env = Map.of("PINMX_DRIVER", "user");
        assertEquals(0, run("info"));
        assertTrue(out.contains("a job here would use: the user driver, because PINMX_DRIVER=user asks for it\n"), out);
        assertTrue(out.contains("with PINMX_DRIVER=auto it would use: the "), out);
        assertTrue(out.contains("\nprogress: an endpoint's own progress thread by default"), out);
        assertFalse(out.contains("ServiceLoader"), out);
        assertTrue(out.contains("""
            kernel module pinmx.ko 0.1.0
              ABI version %d (this library: %d)
              features: PIN_DECLARE|NET_IFACE
              limits: 256 segments/region, 4096 regions/endpoint
              parameters: budget_pages=262144 ifnames=lo
              attached interfaces:
                lo ifindex 1 mtu 65536 mac 00:00:00:00:00:00, 1 endpoints bound
            """.formatted(PinmxAbi.ABI_VERSION, PinmxAbi.ABI_VERSION)), out);

        assertEquals(0, run("--json", "info"));
        assertTrue(out.contains("\"selection\":{\"PINMX_DRIVER\":\"user\",\"job\":{\"provider\":\"user\""), out);
        assertTrue(out.contains("\"module\":{\"loaded\":true,\"version\":\"0.1.0\",\"abiVersion\":" +
            PinmxAbi.ABI_VERSION + ",\"libraryAbiVersion\":" + PinmxAbi.ABI_VERSION +
            ",\"features\":[\"PIN_DECLARE\",\"NET_IFACE\"],\"maxSegments\":256,\"maxRegions\":4096," +
            "\"parameters\":{\"budget_pages\":\"262144\",\"ifnames\":\"lo\"},\"interfaces\":[{\"name\":\"lo\"," +
            "\"ifindex\":1,\"mtu\":65536,\"mac\":\"00:00:00:00:00:00\",\"endpointsBound\":1}]}"), out);
        assertTrue(out.endsWith("\"jvmFlagsMissing\":[]}\n"), out);
        assertEquals(1, out.lines().count(), out);

        // a forced kernel provider that cannot run here is reported, not thrown
        module = NOT_LOADED;
        env = Map.of("PINMX_DRIVER", "kernel");
        if (!Files.exists(Path.of("/dev/pinmx")))
        {
            assertEquals(0, run("info"));
            assertTrue(out.contains("a job here would use: nothing: kernel driver forced by PINMX_DRIVER=kernel " +
                "cannot run"), out);
            assertTrue(out.contains("kernel module: not loaded (no /sys/module/pinmx)"), out);
        }
    }

    @Test
    void countersShowTheKernelModulesOwnAlone()
    {
        module = loadedModule();
        assertEquals(0, run("counters", "kernel"));
        assertEquals("""
            kernel module pinmx.ko (module-wide, all endpoints)
              TX_FRAMES 12
              PULL_BYTES 1048576
            """, out);
        assertFalse(Files.exists(countersFile()), "the kernel's counters alone need no counters file");
        assertEquals(0, run("--json", "counters", "kernel", "--all"));
        assertTrue(out.startsWith("{\"kernel\":{\"counters\":{\"PIN_CALLS\":0,"), out);
        assertTrue(out.contains("\"TX_FRAMES\":12,"), out);
    }

    @Test
    void endpointsListsTheUserDriversOpenEndpointsAndTheKernelsBoundOnes()
    {
        module = loadedModule();
        final DriverEndpoint endpoint = new UserDriver("test").open(EndpointConfig.builder().endpointIndex(0)
            .options(UserDriverOptions.class, UserDriverOptions.defaults().withCountersFile(null)).build());
        final String line;
        try
        {
            line = "user udp port " + endpoint.address().board().basePort() + " pid " + ProcessHandle.current().pid() +
                " session 0x" + Integer.toHexString(endpoint.address().sessionId()) + " open";
            assertEquals(0, run("endpoints"));
            assertTrue(out.lines().anyMatch(line::equals), out);
            assertTrue(out.endsWith("kernel lo index 3 id 7 session 0xabcdef01 pin mode 2\n"), out);
            assertEquals(0, run("--json", "endpoints"));
            assertTrue(out.contains("{\"port\":" + endpoint.address().board().basePort() + ",\"pid\":" +
                ProcessHandle.current().pid() + ",\"session\":" + endpoint.address().sessionId() + ",\"state\":\"open\""),
                out);
            assertTrue(out.endsWith("\"kernel\":{\"loaded\":true,\"endpoints\":[{\"interface\":\"lo\",\"index\":3," +
                "\"id\":7,\"session\":" + 0xabcdef01 + ",\"pinMode\":2}]}}\n"), out);
        }
        finally
        {
            endpoint.close();
        }
        assertEquals(0, run("endpoints"));
        assertFalse(out.contains(line), out);
        assertEquals(0, run("--shm-dir", directory.toString(), "endpoints"));
        assertTrue(out.startsWith("no user-driver endpoints in " + directory + "\n"), out);
        assertUsage("unexpected argument 'x' after 'endpoints'", "endpoints", "--all", "x");
    }

    @Test
    void jvmFlagsPrintsTheOneListEveryPinmxJvmCarries()
    {
        assertEquals(0, run("jvm-flags"));
        assertEquals(String.join(" ", ChronicleFlags.all()) + "\n", out);
        assertTrue(ChronicleFlags.all().contains("--add-opens=java.base/java.lang=ALL-UNNAMED"), out);
        assertTrue(ChronicleFlags.all().contains("--enable-native-access=ALL-UNNAMED"), out);
        assertEquals(List.of(), ChronicleFlags.missing(), "surefire starts this JVM with the pom's flags");
    }

    @Test
    void infoListsTheRegisteredProvidersAndTheNodeFiles()
    {
        assertEquals(0, run("info"));
        assertTrue(out.contains("a job here would use: the user driver, because bin/pinmx-run uses it unless " +
            "--driver kernel or PINMX_DRIVER asks for another\n"), out);
        final long providers = ServiceLoader.load(PinDriver.class).stream().count();
        if (providers == 0)
        {
            assertTrue(out.contains("no driver providers on the class path"), out);
        }
        else
        {
            assertEquals(providers, out.lines().filter(line -> line.startsWith("provider ")).count(), out);
            assertTrue(out.contains("provider user: UDP and same-host shared memory, never pins memory; available here\n"),
                out);
            assertTrue(out.contains("  pins memory: "), out);
        }
        assertTrue(out.contains("peer table: " + peersFile() + " (absent)"), out);
        assertTrue(out.contains("counters: " + countersFile() + " (absent)"), out);
        assertEquals(0, run("--help"));
        assertTrue(out.startsWith("usage: pinmx-admin"), out);
    }
}
