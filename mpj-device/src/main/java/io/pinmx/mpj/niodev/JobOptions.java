package io.pinmx.mpj.niodev;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link NiodevJob}'s command line: {@code [--port-server ADDRESS] [--rank-prefix RANK COMMAND]...
 * [--rank-jvm-options RANK OPTIONS]... -np N MAIN_CLASS ARGS...}. Each refusal names the argument it refuses.
 *
 * @param ranks        the job's size
 * @param mainClass    the MPJ program
 * @param programArgs  the program's own arguments
 * @param portServer   where the port server listens and every rank connects
 * @param prefixes     per rank, the words its JVM's command starts with (none for a rank not named)
 * @param jvmOptions   per rank, JVM options after the job's own (an AOT cache, or its training run's recording)
 */
record JobOptions(int ranks, String mainClass, List<String> programArgs, InetAddress portServer,
    Map<Integer, List<String>> prefixes, Map<Integer, List<String>> jvmOptions)
{
    static final String USAGE = "usage: NiodevJob [--port-server ADDRESS] [--rank-prefix RANK COMMAND]... " +
        "[--rank-jvm-options RANK OPTIONS]... -np N MAIN_CLASS ARGS...";

    static JobOptions parse(final String[] args)
    {
        InetAddress portServer = InetAddress.getLoopbackAddress();
        final Map<String, List<String>> prefixByRankArgument = new HashMap<>();
        final Map<String, List<String>> jvmOptionsByRankArgument = new HashMap<>();
        int i = 0;
        while (i < args.length && !"-np".equals(args[i]))
        {
            switch (args[i])
            {
                case "--port-server" ->
                {
                    portServer = address(value(args, i, "--port-server needs an address"));
                    i += 2;
                }
                case "--rank-prefix" ->
                {
                    perRank(args, i, "a command", "the command is empty", prefixByRankArgument);
                    i += 3;
                }
                case "--rank-jvm-options" ->
                {
                    perRank(args, i, "options", "the options are empty", jvmOptionsByRankArgument);
                    i += 3;
                }
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; " + USAGE);
            }
        }
        if (i + 2 >= args.length)
        {
            throw new IllegalArgumentException(USAGE);
        }
        final int ranks = ranks(args[i + 1]);
        return new JobOptions(ranks, args[i + 2], List.of(args).subList(i + 3, args.length), portServer,
            byRank(prefixByRankArgument, "--rank-prefix", ranks), byRank(jvmOptionsByRankArgument,
            "--rank-jvm-options", ranks));
    }

    /** Reads {@code OPTION RANK WORDS} at {@code args[option]}: the words split at white space, once per rank. */
    private static void perRank(final String[] args, final int option, final String what, final String empty,
        final Map<String, List<String>> byRankArgument)
    {
        final String name = args[option];
        if (option + 2 >= args.length)
        {
            throw new IllegalArgumentException(name + " needs a rank and " + what + "; " + USAGE);
        }
        if (args[option + 2].isBlank())
        {
            throw new IllegalArgumentException(name + " " + args[option + 1] + ": " + empty);
        }
        final List<String> words = List.of(args[option + 2].trim().split("\\s+"));
        if (null != byRankArgument.put(args[option + 1], words))
        {
            throw new IllegalArgumentException(name + " " + args[option + 1] + " is given twice");
        }
    }

    private static Map<Integer, List<String>> byRank(final Map<String, List<String>> byRankArgument,
        final String option, final int ranks)
    {
        final Map<Integer, List<String>> byRank = new HashMap<>();
        byRankArgument.forEach((rank, words) -> byRank.put(rankOf(rank, ranks, option), words));
        return Map.copyOf(byRank);
    }

    private static String value(final String[] args, final int option, final String missing)
    {
        if (option + 1 >= args.length)
        {
            throw new IllegalArgumentException(missing + "; " + USAGE);
        }
        return args[option + 1];
    }

    private static InetAddress address(final String value)
    {
        try
        {
            return InetAddress.getByName(value);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("--port-server '" + value + "': not an address of this host's " +
                "resolver", ex);
        }
    }

    private static int ranks(final String value)
    {
        try
        {
            final int n = Integer.parseInt(value);
            if (n >= 1)
            {
                return n;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException("-np '" + value + "': expected a positive number of processes");
    }

    private static int rankOf(final String value, final int ranks, final String option)
    {
        try
        {
            final int rank = Integer.parseInt(value);
            if (rank >= 0 && rank < ranks)
            {
                return rank;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException(option + " '" + value + "': expected a rank of 0.." + (ranks - 1));
    }
}
