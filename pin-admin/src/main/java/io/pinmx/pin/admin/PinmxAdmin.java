package io.pinmx.pin.admin;

import io.pinmx.pin.kernel.KernelModuleStatus;
import io.pinmx.pin.node.ChronicleFlags;
import io.pinmx.pin.node.NodeFiles;
import io.pinmx.pin.user.UserDriverOptions;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * pinmx admin command line (started by {@code bin/pinmx-admin}). Exit status: 0 done, 1 the command failed
 * (unknown host or endpoint, unreadable file, a JVM without the flags node-wide state needs), 2 bad command
 * line. Results go to standard output, as text or with {@code --json} as one JSON value; errors go to standard
 * error as one line naming what was wrong, never a stack trace.
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
        usage: pinmx-admin [--json] [--peers-file PATH] [--counters-file PATH] [--shm-dir PATH] COMMAND
          info                                       providers, which one a job would use and why, the kernel
                                                     module (version, ABI, features, parameters, interfaces)
          endpoints [--all]                          endpoints open on this host (--all: stale user files too)
          counters [ENDPOINT|kernel] [--all]         counters: each endpoint's published ones and the kernel
                                                     module's (module-wide); non-zero ones unless --all
          counters prune                             forget counters published by processes no longer running
          peers                                      list the peer table: host, board index, board address
          peers add HOST BOARD_ADDRESS [BOARD_INDEX] add a board (default index: lowest free);
                                                     BOARD_ADDRESS is udp:IP:BASE_PORT or eth:XX:XX:XX:XX:XX:XX
          peers remove HOST [BOARD_INDEX]            remove a host, or one board of it
          jvm-flags                                  the JVM flags a pinmx program needs for node-wide state
          --help, -h                                 this text; --version (bin/pinmx-admin): pinmx's version line
        --json: one JSON value on standard output instead of text.
        files default to /dev/shm/pinmx/{peers,counters}.dat (system properties pinmx.peers.file, pinmx.counters.file);
        user-driver endpoint files to $PINMX_SHM_DIR, else /dev/shm. Listing commands create nothing: a table not yet
        created lists empty, a file or directory given on the command line that is not there is an error.
        environment: PINMX_DRIVER (user, kernel or auto: the provider info says a job would use), PINMX_SHM_DIR
        (where user-driver endpoint files are; docs/environment.md)
        exit status: 0 done, 1 the command failed, 2 bad command line.
        """;

    private final Map<String, String> env;
    private final Supplier<KernelModuleStatus> module;
    private NodeFile peersFile = new NodeFile(NodeFiles.peersFile(), false);
    private NodeFile countersFile = new NodeFile(NodeFiles.countersFile(), false);
    /** --shm-dir, or null: the environment's ({@link UserDriverOptions#shmDirectory}). */
    private Path shmDirectory;
    private boolean json;

    private PinmxAdmin(final Map<String, String> env, final Supplier<KernelModuleStatus> module)
    {
        this.env = env;
        this.module = module;
    }

    /**
     * @param args command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.getenv(), KernelModuleStatus::read, System.out, System.err));
    }

    /**
     * Run one command against this host.
     *
     * @param args command line.
     * @param out  where results go.
     * @param err  where errors and usage go.
     * @return exit status.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        return run(args, System.getenv(), KernelModuleStatus::read, out, err);
    }

    /**
     * Run one command.
     *
     * @param args   command line.
     * @param env    the environment a job would see (PINMX_DRIVER).
     * @param module reads the kernel module's state.
     * @param out    where results go.
     * @param err    where errors and usage go.
     * @return exit status.
     */
    static int run(final String[] args, final Map<String, String> env, final Supplier<KernelModuleStatus> module,
        final PrintStream out, final PrintStream err)
    {
        try
        {
            final PinmxAdmin admin = new PinmxAdmin(env, module);
            final Report report = admin.execute(new ArrayDeque<>(List.of(args)));
            if (null != report)
            {
                out.print(admin.json ? JsonWriter.write(report.json()) + "\n" : report.text());
            }
            return EXIT_OK;
        }
        catch (final UsageException ex)
        {
            err.println("pinmx-admin: " + ex.getMessage() + " (pinmx-admin --help lists the commands)");
            return EXIT_USAGE;
        }
        catch (final RuntimeException ex)
        {
            err.println("pinmx-admin: " + (null == ex.getMessage() ? ex.toString() : ex.getMessage()));
            return EXIT_FAILED;
        }
    }

    /**
     * @return the report, or null when usage was asked for (printed here).
     */
    private Report execute(final Deque<String> args)
    {
        while (!args.isEmpty() && (args.peekFirst().startsWith("--") || "-h".equals(args.peekFirst())))
        {
            final String option = args.removeFirst();
            switch (option)
            {
                case "--peers-file" -> peersFile = new NodeFile(Path.of(value(args, option)), true);
                case "--counters-file" -> countersFile = new NodeFile(Path.of(value(args, option)), true);
                case "--shm-dir" -> shmDirectory = Path.of(value(args, option));
                case "--json" -> json = true;
                case "--help", "-h" ->
                {
                    return new Report(USAGE, USAGE);
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
            case "info" ->
            {
                noMoreArguments(args, "info");
                yield new InfoCommand(env, module.get(), peersFile.path(), countersFile.path()).run();
            }
            case "endpoints" -> new EndpointsCommand(null != shmDirectory ? shmDirectory :
                UserDriverOptions.shmDirectory(env), module.get()).run(allFlag(args, "endpoints"));
            case "counters" -> counters(args);
            case "peers" -> peers(args);
            case "jvm-flags" ->
            {
                noMoreArguments(args, "jvm-flags");
                yield new Report(ChronicleFlags.all(), String.join(" ", ChronicleFlags.all()) + "\n");
            }
            default -> throw new UsageException("unknown command '" + command + "'");
        };
    }

    private Report counters(final Deque<String> args)
    {
        final CountersCommand counters = new CountersCommand(countersFile, module);
        if ("prune".equals(args.peekFirst()))
        {
            args.removeFirst();
            noMoreArguments(args, "counters prune");
            return counters.prune();
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
        return counters.show(endpoint, all);
    }

    private Report peers(final Deque<String> args)
    {
        final PeersCommand peers = new PeersCommand(peersFile);
        if (args.isEmpty())
        {
            return peers.list();
        }
        final String action = args.removeFirst();
        return switch (action)
        {
            case "add" -> peers.add(List.copyOf(args));
            case "remove" -> peers.remove(List.copyOf(args));
            default -> throw new UsageException("unknown peers action '" + action + "' (expected add or remove)");
        };
    }

    private static boolean allFlag(final Deque<String> args, final String command)
    {
        final boolean all = "--all".equals(args.peekFirst());
        if (all)
        {
            args.removeFirst();
        }
        noMoreArguments(args, command);
        return all;
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

    /**
     * @return what {@code parse} returns; its IllegalArgumentException becomes a usage error with its message.
     */
    static <T> T checked(final Supplier<T> parse)
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
