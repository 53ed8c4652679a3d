package io.pinmx.pin.admin;

import io.pinmx.pin.node.ChronicleMapCounterStore;
import io.pinmx.pin.node.ChronicleMapPeerTable;
import io.pinmx.pin.node.CounterStore;
import io.pinmx.pin.node.HostBoards;
import io.pinmx.pin.node.NodeFiles;
import io.pinmx.pin.node.PeerTable;
import io.pinmx.pin.node.PublishedCounters;
import io.pinmx.pin.spi.BoardAddress;
import io.pinmx.pin.spi.Counter;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.DriverFeature;
import io.pinmx.pin.spi.DriverInfo;
import io.pinmx.pin.spi.PinDriver;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * pinmx admin command line. Exit status: 0 done, 1 the command failed (unknown host or
 * endpoint, unreadable file), 2 bad command line.
 */
public final class PinmxAdmin
{
    /** Exit status: done. */
    public static final int EXIT_OK = 0;
    /** Exit status: the command could not be carried out. */
    public static final int EXIT_FAILED = 1;
    /** Exit status: bad command line. */
    public static final int EXIT_USAGE = 2;

    static final String USAGE = """
        usage: pinmx-admin [--peers-file PATH] [--counters-file PATH] COMMAND
          info                                       driver providers on the class path and the node files
          peers                                      list the peer table: host, board index, board address
          peers add HOST BOARD_ADDRESS [BOARD_INDEX] add a board (default index: lowest free);
                                                     BOARD_ADDRESS is udp:IP:BASE_PORT or eth:XX:XX:XX:XX:XX:XX
          peers remove HOST [BOARD_INDEX]            remove a host, or one board of it
          counters [ENDPOINT] [--all]                published counters, non-zero ones unless --all
          counters prune                             forget counters published by processes no longer running
        files default to /dev/shm/pinmx/{peers,counters}.dat (system properties pinmx.peers.file, pinmx.counters.file)
        """;

    private final PrintStream out;
    private Path peersFile = NodeFiles.peersFile();
    private Path countersFile = NodeFiles.countersFile();

    private PinmxAdmin(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * @param args command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Run one command.
     *
     * @param args command line.
     * @param out  where results go.
     * @param err  where errors and usage go.
     * @return exit status.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        try
        {
            return new PinmxAdmin(out).execute(new ArrayDeque<>(List.of(args)));
        }
        catch (final UsageException ex)
        {
            err.println("pinmx-admin: " + ex.getMessage());
            err.print(USAGE);
            return EXIT_USAGE;
        }
        catch (final RuntimeException ex)
        {
            err.println("pinmx-admin: " + ex.getMessage());
            return EXIT_FAILED;
        }
    }

    private int execute(final Deque<String> args)
    {
        while (!args.isEmpty() && args.peekFirst().startsWith("--"))
        {
            final String option = args.removeFirst();
            switch (option)
            {
                case "--peers-file" -> peersFile = Path.of(value(args, option));
                case "--counters-file" -> countersFile = Path.of(value(args, option));
                case "--help" ->
                {
                    out.print(USAGE);
                    return EXIT_OK;
                }
                default -> throw new UsageException("unknown option '" + option + "'");
            }
        }
        if (args.isEmpty())
        {
            throw new UsageException("missing command");
        }
        final String command = args.removeFirst();
        return switch (command)
        {
            case "info" -> info(args);
            case "peers" -> peers(args);
            case "counters" -> counters(args);
            default -> throw new UsageException("unknown command '" + command + "'");
        };
    }

    private static String value(final Deque<String> args, final String option)
    {
        if (args.isEmpty() || args.peekFirst().startsWith("--"))
        {
            throw new UsageException(option + " needs a value");
        }
        return args.removeFirst();
    }

    private static void noMoreArguments(final Deque<String> args, final String command)
    {
        if (!args.isEmpty())
        {
            throw new UsageException("unexpected argument '" + args.peekFirst() + "' after '" + command + "'");
        }
    }

    private int info(final Deque<String> args)
    {
        noMoreArguments(args, "info");
        int providers = 0;
        try
        {
            for (final PinDriver driver : ServiceLoader.load(PinDriver.class))
            {
                providers++;
                printProvider(driver);
            }
        }
        catch (final ServiceConfigurationError ex)
        {
            out.println("provider registration broken: " + ex.getMessage());
        }
        if (providers == 0)
        {
            out.println("no driver providers on the class path");
        }
        out.println("peer table: " + peersFile + (Files.exists(peersFile) ? "" : " (absent)"));
        out.println("counters: " + countersFile + (Files.exists(countersFile) ? "" : " (absent)"));
        return EXIT_OK;
    }

    private void printProvider(final PinDriver driver)
    {
        final DriverInfo info;
        try
        {
            info = driver.info();
        }
        catch (final DriverException ex)
        {
            out.println("provider " + driver.getClass().getName() + ": unavailable: " + ex.getMessage());
            return;
        }
        out.println("provider " + info.providerName() + ": " + info.chosenBecause());
        out.println("  pins memory: " + (info.pinsMemory() ? "yes" : "no"));
        out.println("  limits: " + info.maxSegments() + " segments/region, " + info.maxRegionsPerEndpoint() +
            " regions/endpoint, " + info.maxEndpointsPerBoard() + " endpoints/board");
        out.println("  frame payload bytes: medium fragment " + info.mediumFragPayloadBytes() + ", pull reply " +
            info.pullReplyPayloadBytes());
        out.println("  features: " + info.features().stream().sorted().map(DriverFeature::name)
            .collect(Collectors.joining(", ")));
    }

    private int peers(final Deque<String> args)
    {
        if (args.isEmpty())
        {
            return listPeers();
        }
        final String action = args.removeFirst();
        return switch (action)
        {
            case "add" -> addPeer(List.copyOf(args));
            case "remove" -> removePeer(List.copyOf(args));
            default -> throw new UsageException("unknown peers action '" + action + "' (expected add or remove)");
        };
    }

    private int listPeers()
    {
        try (PeerTable table = ChronicleMapPeerTable.open(peersFile))
        {
            final List<HostBoards> hosts = table.list();
            if (hosts.isEmpty())
            {
                out.println("no peers in " + peersFile);
            }
            for (final HostBoards host : hosts)
            {
                for (final Map.Entry<Integer, BoardAddress> board : host.boards().entrySet())
                {
                    out.println(host.host() + " " + board.getKey() + " " + board.getValue());
                }
            }
            return EXIT_OK;
        }
    }

    private int addPeer(final List<String> args)
    {
        if (args.size() < 2 || args.size() > 3)
        {
            throw new UsageException("peers add: expected HOST BOARD_ADDRESS [BOARD_INDEX], got " + describe(args));
        }
        final String host = checked(() -> HostBoards.requireHostName(args.get(0)));
        final BoardAddress address = checked(() -> BoardAddress.parse(args.get(1)));
        final Integer boardIndex = args.size() == 3 ? boardIndex(args.get(2)) : null;
        try (PeerTable table = ChronicleMapPeerTable.open(peersFile))
        {
            final int index = null != boardIndex ? boardIndex :
                table.get(host).map(HostBoards::nextFreeBoardIndex).orElse(0);
            table.put(host, index, address);
            out.println("added " + host + " " + index + " " + address);
            return EXIT_OK;
        }
    }

    private int removePeer(final List<String> args)
    {
        if (args.isEmpty() || args.size() > 2)
        {
            throw new UsageException("peers remove: expected HOST [BOARD_INDEX], got " + describe(args));
        }
        final String host = checked(() -> HostBoards.requireHostName(args.get(0)));
        final Integer boardIndex = args.size() == 2 ? boardIndex(args.get(1)) : null;
        try (PeerTable table = ChronicleMapPeerTable.open(peersFile))
        {
            if (null == boardIndex)
            {
                if (!table.remove(host))
                {
                    throw new IllegalStateException("no host " + host + " in " + peersFile);
                }
                out.println("removed " + host);
            }
            else
            {
                if (!table.remove(host, boardIndex))
                {
                    throw new IllegalStateException("no board " + boardIndex + " of host " + host + " in " + peersFile);
                }
                out.println("removed " + host + " " + boardIndex);
            }
            return EXIT_OK;
        }
    }

    private static int boardIndex(final String text)
    {
        final int index;
        try
        {
            index = Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException("board index '" + text + "' is not a number");
        }
        return checked(() -> HostBoards.requireBoardIndex(index));
    }

    private int counters(final Deque<String> args)
    {
        if ("prune".equals(args.peekFirst()))
        {
            args.removeFirst();
            noMoreArguments(args, "counters prune");
            return pruneCounters();
        }
        boolean all = false;
        String endpoint = null;
        for (final String arg : args)
        {
            if (arg.equals("--all"))
            {
                all = true;
            }
            else if (null == endpoint && !arg.startsWith("--"))
            {
                endpoint = arg;
            }
            else
            {
                throw new UsageException("counters: unexpected argument '" + arg + "'");
            }
        }
        try (CounterStore store = ChronicleMapCounterStore.open(countersFile))
        {
            final List<PublishedCounters> snapshots;
            if (null == endpoint)
            {
                snapshots = store.list();
                if (snapshots.isEmpty())
                {
                    out.println("no counters published in " + countersFile);
                }
            }
            else
            {
                final String name = endpoint;
                snapshots = List.of(store.get(name).orElseThrow(() ->
                    new IllegalStateException("no counters published by endpoint " + name + " in " + countersFile)));
            }
            for (final PublishedCounters snapshot : snapshots)
            {
                printCounters(snapshot, all);
            }
            return EXIT_OK;
        }
    }

    private int pruneCounters()
    {
        try (CounterStore store = ChronicleMapCounterStore.open(countersFile))
        {
            int pruned = 0;
            for (final PublishedCounters snapshot : store.list())
            {
                if (!snapshot.publisherAlive() && store.remove(snapshot.endpoint()))
                {
                    out.println("pruned " + snapshot.endpoint() + " (pid " + snapshot.pid() + " gone)");
                    pruned++;
                }
            }
            out.println("pruned " + pruned + " of the counters in " + countersFile);
            return EXIT_OK;
        }
    }

    private void printCounters(final PublishedCounters snapshot, final boolean all)
    {
        out.println(snapshot.endpoint() + " pid " + snapshot.pid() + (snapshot.publisherAlive() ? " (running)" : " (gone)") +
            " published " + Instant.ofEpochMilli(snapshot.publishedAtEpochMillis()));
        for (final Counter counter : Counter.values())
        {
            final long value = snapshot.get(counter);
            if (all || value != 0)
            {
                out.println("  " + counter.name() + " " + value);
            }
        }
    }

    private static String describe(final List<String> args)
    {
        return args.isEmpty() ? "nothing" : "'" + String.join(" ", args) + "'";
    }

    private static <T> T checked(final Supplier<T> parse)
    {
        try
        {
            return parse.get();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }
    }
}
